// The speed-limit reader's second recogniser: which speed value a sign's normalised inner disc shows.
//
// Independent of Tesseract: a small convolutional network reads the whole disc (no digit segmentation). It was trained
// by scripts/generate/make-speed-disc-model.py on rendered road-font digits made to look like small, soft, smeared, dim photos,
// and is compiled in as ONNX bytes (Generated/speed_disc_model.hpp), so nothing is loaded at run time.
#include "opencv_signs.h"
#include "opencv_guarded.hpp"
#include "Generated/speed_disc_model.hpp"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <new>

struct slcv_disc_classifier {
    cv::dnn::Net net;
    cv::Mat small;
    /// 1 × 1 × side × side, the picture scaled to 0…1.
    cv::Mat blob;
    cv::Mat outputs;
};

using slcv::guarded;
using slcv::writeError;

extern "C" {

slcv_status slcv_disc_classifier_create(slcv_disc_classifier **classifier, char *error, size_t error_capacity) {
    return slcv::makeHandle(
        classifier, error, error_capacity, SLCV_LOAD_FAILED, "disc classifier", [](slcv_disc_classifier &made) {
            made.net = cv::dnn::readNetFromONNX(
                reinterpret_cast<const char *>(kSpeedDiscModel), sizeof(kSpeedDiscModel));
            made.net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
            const int shape[] = {1, 1, kSpeedDiscModelSide, kSpeedDiscModelSide};
            made.blob.create(4, shape, CV_32F);
            made.blob.setTo(0);
            made.net.setInput(made.blob);
            const cv::Mat probe = made.net.forward();
            if (probe.total() != SLCV_SPEED_DISC_CLASS_COUNT) {
                throw slcv::BridgeError(
                    SLCV_LOAD_FAILED, "disc classifier: the compiled-in network does not answer one score per class");
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
        const int side = kSpeedDiscModelSide;
        cv::resize(picture, classifier->small, cv::Size(side, side), 0, 0, cv::INTER_AREA);
        cv::Mat plane(side, side, CV_32F, classifier->blob.ptr<float>(0, 0));
        classifier->small.convertTo(plane, CV_32F, 1.0 / 255.0);
        classifier->net.setInput(classifier->blob);
        classifier->net.forward(classifier->outputs);
        // Softmax: probabilities 0…1.
        const float *logits = classifier->outputs.ptr<float>();
        const float largest = *std::max_element(logits, logits + SLCV_SPEED_DISC_CLASS_COUNT);
        float sum = 0;
        for (int index = 0; index < SLCV_SPEED_DISC_CLASS_COUNT; ++index) {
            scores[index] = std::exp(logits[index] - largest);
            sum += scores[index];
        }
        for (int index = 0; index < SLCV_SPEED_DISC_CLASS_COUNT; ++index) scores[index] /= sum;
    });
}

void slcv_disc_classifier_destroy(slcv_disc_classifier *classifier) { delete classifier; }

}  // extern "C"
