// HOG people detector: OpenCV's default 64×128 people SVM on the grayscale (luma) plane, no colour conversion.
#include "backends.hpp"
#include "hog_window_scorer.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/objdetect.hpp>

#include <cmath>

namespace slcv {
namespace {

class HogDetector final : public slcv_detector {
public:
    explicit HogDetector(const slcv_hog_options &options) : options_(options), hog_(peopleDescriptor()), scorer_(hog_) {
        if (options.window_stride <= 0 || options.window_stride % 8 != 0) {
            throw BridgeError(SLCV_INVALID_ARGUMENT, "HOG window stride must be a positive multiple of 8");
        }
        if (!(options.pyramid_scale > 1.0) || !(options.small_people_scale_step > 1.0)) {
            throw BridgeError(SLCV_INVALID_ARGUMENT, "HOG pyramid scale steps must be greater than 1");
        }
        if (!(options.upscale > 0.0)) throw BridgeError(SLCV_INVALID_ARGUMENT, "HOG upscale must be positive");
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
        detectOnPyramid(*input);
        const float back = (float)(1.0 / options_.upscale);
        for (size_t i = 0; i < found_.size(); ++i) {
            const cv::Rect &r = found_[i];
            // The SVM margin is unbounded; the logistic of the margin above the hit threshold maps "just a hit" to 0.5.
            const float confidence = i < weights_.size() ? logistic(weights_[i] - options_.hit_threshold) : 0.5f;
            slcv_box box{r.x * back, r.y * back, r.width * back, r.height * back, confidence, 0};
            if (clampToFrame(box, image.width, image.height)) results.push_back(box);
        }
    }

private:
    static cv::HOGDescriptor peopleDescriptor() {
        cv::HOGDescriptor descriptor;
        descriptor.setSVMDetector(cv::HOGDescriptor::getDefaultPeopleDetector());
        return descriptor;
    }

    /// cv::HOGDescriptor::detectMultiScale with two pyramid steps: `small_people_scale_step` below
    /// `small_people_until_scale`, `pyramid_scale` from there on. A level costs about 1/scale² of the first, so the
    /// fine levels (small people) hold most of the work and a coarser step there saves most of the time; the coarse
    /// levels (large people, few windows) are cheap and keep the fine step, which the one-window-wide groups of
    /// large people need. Levels are scored in parallel (by ``HogWindowScorer``, or by OpenCV's own
    /// `HOGDescriptor::detect` when `use_opencv_window_scorer` is set), then grouped as OpenCV does (groupRectangles,
    /// eps 0.2).
    void detectOnPyramid(const cv::Mat &image) {
        scales_.clear();
        for (double scale = 1; scales_.size() < 64;
             scale *= scale < options_.small_people_until_scale ? options_.small_people_scale_step
                                                                 : options_.pyramid_scale) {
            if (std::lround(image.cols / scale) < hog_.winSize.width ||
                std::lround(image.rows / scale) < hog_.winSize.height) {
                break;
            }
            scales_.push_back(scale);
        }
        // Each level writes its own slot, joined in level order afterwards: the same input always yields the same
        // boxes in the same order (a shared list filled by whichever thread comes first would not).
        levelBoxes_.resize(scales_.size());
        levelWeights_.resize(scales_.size());
        const cv::Size stride(options_.window_stride, options_.window_stride);
        const double hit = options_.hit_threshold;
        cv::parallel_for_(cv::Range(0, (int)scales_.size()), [&](const cv::Range &range) {
            // Each thread resizes into storage of its own, kept across frames.
            thread_local std::vector<uchar> levelStorage;
            thread_local std::vector<cv::Point> hits;
            for (int i = range.start; i < range.end; ++i) {
                const double scale = scales_[i];
                const cv::Size size((int)std::lround(image.cols / scale), (int)std::lround(image.rows / scale));
                cv::Mat level;
                if (size == image.size()) {
                    level = image;
                } else {
                    if (levelStorage.size() < (size_t)size.area()) levelStorage.resize((size_t)size.area());
                    level = cv::Mat(size, CV_8UC1, levelStorage.data());
                    cv::resize(image, level, size, 0, 0, cv::INTER_LINEAR_EXACT);
                }
                if (options_.use_opencv_window_scorer) {
                    hog_.detect(level, hits, levelWeights_[i], hit, stride, cv::Size());
                } else {
                    scorer_.score(level, hit, options_.window_stride, hits, levelWeights_[i]);
                }
                const cv::Size window(
                    (int)std::lround(hog_.winSize.width * scale), (int)std::lround(hog_.winSize.height * scale));
                levelBoxes_[i].clear();
                for (const cv::Point &point : hits) {
                    levelBoxes_[i].emplace_back(
                        (int)std::lround(point.x * scale), (int)std::lround(point.y * scale), window.width,
                        window.height);
                }
            }
        });
        found_.clear();
        weights_.clear();
        for (size_t i = 0; i < scales_.size(); ++i) {
            found_.insert(found_.end(), levelBoxes_[i].begin(), levelBoxes_[i].end());
            weights_.insert(weights_.end(), levelWeights_[i].begin(), levelWeights_[i].end());
        }
        hog_.groupRectangles(found_, weights_, (int)options_.group_threshold, 0.2);
    }

    slcv_hog_options options_;
    std::vector<double> scales_;
    std::vector<std::vector<cv::Rect>> levelBoxes_;
    std::vector<std::vector<double>> levelWeights_;
    cv::HOGDescriptor hog_;
    HogWindowScorer scorer_;
    cv::Mat scaled_;
    std::vector<cv::Rect> found_;
    std::vector<double> weights_;
};

}  // namespace

slcv_detector *makeHogDetector(const slcv_hog_options &options) { return new HogDetector(options); }

}  // namespace slcv
