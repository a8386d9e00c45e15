// HOG people detector: OpenCV's default 64×128 people SVM on the grayscale (luma) plane, no colour conversion.
#include "backends.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

namespace slcv {
namespace {

class HogDetector final : public slcv_detector {
public:
    explicit HogDetector(const slcv_hog_options &options) : options_(options) {
        if (options.window_stride <= 0 || options.window_stride % 8 != 0) {
            throw BridgeError(SLCV_INVALID_ARGUMENT, "HOG window stride must be a positive multiple of 8");
        }
        if (!(options.pyramid_scale > 1.0)) {
            throw BridgeError(SLCV_INVALID_ARGUMENT, "HOG pyramid scale must be greater than 1");
        }
        if (!(options.upscale > 0.0)) throw BridgeError(SLCV_INVALID_ARGUMENT, "HOG upscale must be positive");
        hog_.setSVMDetector(cv::HOGDescriptor::getDefaultPeopleDetector());
    }

    void detect(const slcv_yuv_image &image, std::vector<slcv_box> &results) override {
        const cv::Mat luma = lumaView(image);
        const cv::Mat *input = &luma;
        if (options_.upscale != 1.0) {
            // `scaled_` keeps its allocation across frames of the same size.
            cv::resize(luma, scaled_, cv::Size(), options_.upscale, options_.upscale, cv::INTER_LINEAR);
            input = &scaled_;
        }
        // No person fits in a frame smaller than the 64×128 window; OpenCV 4.6 corrupts the heap on such input.
        if (input->cols < hog_.winSize.width || input->rows < hog_.winSize.height) return;
        const cv::Size stride(options_.window_stride, options_.window_stride);
        hog_.detectMultiScale(*input, found_, weights_, options_.hit_threshold, stride, cv::Size(),
                              options_.pyramid_scale, options_.group_threshold, false);
        const float back = (float)(1.0 / options_.upscale);
        for (size_t i = 0; i < found_.size(); ++i) {
            const cv::Rect &r = found_[i];
            // The SVM margin is unbounded; the logistic maps "just above the hit threshold 0" to 0.5.
            const float confidence = i < weights_.size() ? logistic(weights_[i]) : 0.5f;
            slcv_box box{r.x * back, r.y * back, r.width * back, r.height * back, confidence, 0};
            if (clampToFrame(box, image.width, image.height)) results.push_back(box);
        }
    }

private:
    slcv_hog_options options_;
    cv::HOGDescriptor hog_;
    cv::Mat scaled_;
    std::vector<cv::Rect> found_;
    std::vector<double> weights_;
};

}  // namespace

slcv_detector *makeHogDetector(const slcv_hog_options &options) { return new HogDetector(options); }

}  // namespace slcv
