// Haar/LBP cascade detector (cv::CascadeClassifier) on the grayscale (luma) plane, no colour conversion.
#include "backends.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>

namespace slcv {
namespace {

class CascadeDetector final : public slcv_detector {
public:
    CascadeDetector(const std::string &path, const slcv_cascade_options &options) : options_(options) {
        if (!(options.scale_factor > 1.0)) {
            throw BridgeError(SLCV_INVALID_ARGUMENT, "cascade scale factor must be greater than 1");
        }
        if (options.min_neighbors < 0) throw BridgeError(SLCV_INVALID_ARGUMENT, "cascade min neighbours < 0");
        requireReadableFile(path, "cascade file");
        const std::string invalid = "cascade file '" + path + "' is not a valid OpenCV cascade XML";
        bool loaded = false;
        try {
            loaded = cascade_.load(path);
        } catch (const cv::Exception &e) {
            throw BridgeError(SLCV_LOAD_FAILED, invalid + " (" + e.err + ")");
        }
        if (!loaded || cascade_.empty()) throw BridgeError(SLCV_LOAD_FAILED, invalid);
    }

    void detect(const slcv_yuv_image &image, std::vector<slcv_box> &results) override {
        const cv::Mat luma = lumaView(image);
        const cv::Mat *input = &luma;
        if (options_.equalize_histogram != 0) {
            cv::equalizeHist(luma, equalized_);  // reuses `equalized_` across frames of the same size
            input = &equalized_;
        }
        cascade_.detectMultiScale(*input, found_, neighbours_, options_.scale_factor, options_.min_neighbors, 0,
                                  cv::Size(options_.min_width, options_.min_height));
        // A kept object merged n > minNeighbors raw hits; n / (n + minNeighbors) puts "just kept" above 0.5.
        const double required = std::max(1, options_.min_neighbors);
        for (size_t i = 0; i < found_.size(); ++i) {
            const cv::Rect &r = found_[i];
            const double hits = i < neighbours_.size() ? std::max(1, neighbours_[i]) : required;
            slcv_box box{(float)r.x, (float)r.y, (float)r.width, (float)r.height,
                         (float)(hits / (hits + required)), 0};
            if (clampToFrame(box, image.width, image.height)) results.push_back(box);
        }
    }

private:
    slcv_cascade_options options_;
    cv::CascadeClassifier cascade_;
    cv::Mat equalized_;
    std::vector<cv::Rect> found_;
    std::vector<int> neighbours_;
};

}  // namespace

slcv_detector *makeCascadeDetector(const std::string &path, const slcv_cascade_options &options) {
    return new CascadeDetector(path, options);
}

}  // namespace slcv
