// The speed-limit reader's second recogniser: which speed value a sign's normalised inner disc shows.
//
// Independent of Tesseract: HOG features of the whole disc (no digit segmentation) into a small neural network
// (cv::ml::ANN_MLP) trained by scripts/make-speed-disc-model.py on rendered road-font digits made to look like small,
// soft, dim photos. The model is compiled in as a string (speed_disc_model.hpp), so nothing is loaded at run time.
#include "opencv_bridge.h"
#include "guarded.hpp"
#include "speed_disc_model.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/ml.hpp>
#include <opencv2/objdetect.hpp>

#include <new>
#include <vector>

namespace {
/// The picture is shrunk to this square before HOG; the script uses the same size and HOG layout.
constexpr int kFeatureSide = 32;
}  // namespace

struct slcv_disc_classifier {
    cv::Ptr<cv::ml::ANN_MLP> network;
    cv::HOGDescriptor hog{cv::Size(kFeatureSide, kFeatureSide), cv::Size(16, 16), cv::Size(8, 8), cv::Size(8, 8), 9};
    cv::Mat small;
    std::vector<float> features;
    cv::Mat outputs;
};

using slcv::guarded;
using slcv::writeError;

extern "C" {

slcv_status slcv_disc_classifier_create(slcv_disc_classifier **classifier, char *error, size_t error_capacity) {
    return slcv::makeHandle(
        classifier, error, error_capacity, SLCV_LOAD_FAILED, "disc classifier", [](slcv_disc_classifier &made) {
            cv::FileStorage storage(kSpeedDiscModel, cv::FileStorage::READ | cv::FileStorage::MEMORY);
            made.network = cv::ml::ANN_MLP::create();
            made.network->read(storage.root());
            cv::Mat layers = made.network->getLayerSizes();
            if (layers.total() < 2 ||
                layers.at<int>(static_cast<int>(layers.total()) - 1) != SLCV_SPEED_DISC_CLASS_COUNT ||
                layers.at<int>(0) != static_cast<int>(made.hog.getDescriptorSize())) {
                throw slcv::BridgeError(
                    SLCV_LOAD_FAILED, "disc classifier: the compiled-in model does not match its features");
            }
        });
}

slcv_status slcv_disc_classifier_classify(
    slcv_disc_classifier *classifier, const uint8_t *gray, int32_t stride, int32_t width, int32_t height,
    float *scores, int32_t capacity, char *error, size_t error_capacity) {
    if (classifier == nullptr || gray == nullptr || scores == nullptr || width < 8 || height < 8 || stride < width ||
        capacity < SLCV_SPEED_DISC_CLASS_COUNT) {
        writeError(error, error_capacity, "disc classifier: invalid argument");
        return SLCV_INVALID_ARGUMENT;
    }
    return guarded(error, error_capacity, SLCV_OPENCV_ERROR, "disc classifier", [&] {
        // A borrowed view: OpenCV does not copy or free the caller's pixels.
        const cv::Mat picture(height, width, CV_8UC1, const_cast<uint8_t *>(gray), static_cast<size_t>(stride));
        cv::resize(picture, classifier->small, cv::Size(kFeatureSide, kFeatureSide), 0, 0, cv::INTER_AREA);
        classifier->hog.compute(classifier->small, classifier->features);
        const cv::Mat row(1, static_cast<int>(classifier->features.size()), CV_32F, classifier->features.data());
        classifier->network->predict(row, classifier->outputs);
        for (int index = 0; index < SLCV_SPEED_DISC_CLASS_COUNT; ++index) {
            scores[index] = classifier->outputs.at<float>(0, index);
        }
    });
}

void slcv_disc_classifier_destroy(slcv_disc_classifier *classifier) { delete classifier; }

}  // extern "C"
