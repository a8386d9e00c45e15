// The speed-limit reader's third recogniser: a text-line network that reads the digits of a sign's inner disc as a
// line of text, without binarising or cutting out glyphs.
//
// The network is PP-OCRv4's recogniser (a convolutional backbone with a small transformer, CTC output), shipped by the
// rapidocr-onnxruntime package and rewritten by scripts/models/make-text-line-model.py so that OpenCV 4.6 can run it: a
// fixed 48 × width input, and only these classes: 0 CTC blank, 1…10 the digits "0"…"9", 11… other characters.
#include "opencv_signs.h"
#include "opencv_guarded.hpp"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <malloc.h>

#include <algorithm>
#include <string>

namespace {
constexpr int kBlankClass = 0;
constexpr int kFirstDigitClass = 1;
constexpr int kDigitCount = 10;
}  // namespace

struct slcv_text_line_recogniser {
    cv::dnn::Net net;
    int inputWidth = 0;
    /// 1 × 3 × height × width, the picture scaled to −1…1 in each of the three (identical) channels.
    cv::Mat blob;
    cv::Mat scaled;
    cv::Mat output;

    /// Fills `blob` from a grey picture: scaled to the input height keeping its shape (at most the input width),
    /// values mapped to −1…1 as the network was trained (x / 127.5 − 1), the right-hand rest left at 0.
    void fillBlob(const cv::Mat &picture) {
        const int height = SLCV_TEXT_LINE_INPUT_HEIGHT;
        const double aspect = static_cast<double>(picture.cols) / picture.rows;
        const int width = std::clamp(static_cast<int>(std::lround(height * aspect)), 1, inputWidth);
        cv::resize(picture, scaled, cv::Size(width, height), 0, 0, cv::INTER_LINEAR);
        blob.setTo(0);
        for (int channel = 0; channel < 3; ++channel) {
            cv::Mat plane(height, inputWidth, CV_32F, blob.ptr<float>(0, channel));
            scaled.convertTo(plane(cv::Rect(0, 0, width, height)), CV_32F, 1.0 / 127.5, -1.0);
        }
    }

    /// Greedy CTC decoding of `output` (1 × steps × classes probabilities): the likeliest class per step, repeats
    /// merged, blanks dropped; a character's confidence is its best probability over the steps it spans.
    void decode(slcv_text_line_read *read) const {
        read->count = 0;
        const int steps = output.size[1];
        const int classes = output.size[2];
        int previous = kBlankClass;
        for (int step = 0; step < steps; ++step) {
            const float *scores = output.ptr<float>(0, step);
            const int best = static_cast<int>(std::max_element(scores, scores + classes) - scores);
            if (best != kBlankClass && best == previous && read->count > 0) {
                read->confidences[read->count - 1] = std::max(read->confidences[read->count - 1], scores[best]);
            } else if (best != kBlankClass && read->count < SLCV_TEXT_LINE_MAX_CHARACTERS) {
                const bool digit = best >= kFirstDigitClass && best < kFirstDigitClass + kDigitCount;
                read->characters[read->count] = digit ? static_cast<char>('0' + best - kFirstDigitClass) : '?';
                read->confidences[read->count] = scores[best];
                read->count += 1;
            }
            previous = best;
        }
    }
};

using slcv::guarded;
using slcv::writeError;

extern "C" {

slcv_status slcv_text_line_recogniser_create(
    const char *model_path, int32_t input_width, slcv_text_line_recogniser **recogniser, char *error,
    size_t error_capacity) {
    if (model_path == nullptr || input_width < 16) {
        writeError(error, error_capacity, "text-line recogniser: invalid argument");
        return SLCV_INVALID_ARGUMENT;
    }
    return slcv::makeHandle(
        recogniser, error, error_capacity, SLCV_LOAD_FAILED, "text-line recogniser",
        [&](slcv_text_line_recogniser &made) {
            made.net = cv::dnn::readNetFromONNX(model_path);
            // Parsing the ONNX file leaves megabytes of protobuf freed but still held by the heap; hand them
            // back, or the run keeps them for nothing (peak RSS of the dashcam job: −1…3 MiB).
            malloc_trim(0);
            made.net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
            made.net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
            made.inputWidth = input_width;
            const int shape[] = {1, 3, SLCV_TEXT_LINE_INPUT_HEIGHT, input_width};
            made.blob.create(4, shape, CV_32F);
            made.blob.setTo(0);
            // One read of a blank picture: a file that is not such a model fails here, not on the first sign.
            made.net.setInput(made.blob);
            made.output = made.net.forward();
            if (made.output.dims != 3 || made.output.size[0] != 1 ||
                made.output.size[2] <= kFirstDigitClass + kDigitCount) {
                throw slcv::BridgeError(
                    SLCV_LOAD_FAILED, std::string("text-line recogniser: ") + model_path +
                                          " is not a text-line model (expected 1 × steps × classes out)");
            }
        });
}

slcv_status slcv_text_line_recogniser_read(
    slcv_text_line_recogniser *recogniser, const uint8_t *gray, int32_t stride, int32_t width, int32_t height,
    slcv_text_line_read *read, char *error, size_t error_capacity) {
    if (recogniser == nullptr || gray == nullptr || read == nullptr || width < 2 || height < 2 || stride < width) {
        writeError(error, error_capacity, "text-line recogniser: invalid argument");
        return SLCV_INVALID_ARGUMENT;
    }
    read->count = 0;
    return guarded(error, error_capacity, SLCV_OPENCV_ERROR, "text-line recogniser", [&] {
        // A borrowed view: OpenCV does not copy or free the caller's pixels.
        const cv::Mat picture(height, width, CV_8UC1, const_cast<uint8_t *>(gray), static_cast<size_t>(stride));
        recogniser->fillBlob(picture);
        recogniser->net.setInput(recogniser->blob);
        recogniser->output = recogniser->net.forward();
        recogniser->decode(read);
    });
}

void slcv_text_line_recogniser_destroy(slcv_text_line_recogniser *recogniser) { delete recogniser; }

}  // extern "C"
