// YOLO detector on an ONNX network (cv::dnn). Steps per frame, all into buffers reused across frames:
//   I420/NV12 planes (strided) → contiguous I420/NV12 copy → BGR (cv::cvtColor) → letterbox into the network input
//   (aspect kept, padding 114) → blob (RGB, 0…1) → forward → decode v5 or v8 rows → per-class NMS
//   (cv::dnn::NMSBoxes) → boxes mapped back to frame pixels.
#include "backends.hpp"

#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace slcv {
namespace {

/// Where the frame sits inside the letterboxed network input.
struct Letterbox {
    double scale = 1;  // network pixels per frame pixel
    int padX = 0;
    int padY = 0;
    int width = 0;  // of the resized frame inside the input
    int height = 0;
};

/// One decoded candidate before NMS, in frame pixels (not yet clamped).
struct Candidate {
    cv::Rect2d box;
    float score;
    int classId;
};

std::string shapeText(const cv::Mat &m) {
    std::string text;
    for (int i = 0; i < m.dims; ++i) text += (i ? "x" : "") + std::to_string(m.size[i]);
    return text;
}

class OnnxDetector final : public slcv_detector {
public:
    OnnxDetector(const std::string &path, const slcv_onnx_options &options) : path_(path), options_(options) {
        if (options.input_width < 32 || options.input_height < 32) {
            throw BridgeError(SLCV_INVALID_ARGUMENT, "ONNX input size must be at least 32x32");
        }
        if (options.layout != SLCV_YOLO_AUTO && options.layout != SLCV_YOLO_V5 && options.layout != SLCV_YOLO_V8) {
            throw BridgeError(SLCV_INVALID_ARGUMENT, "unknown YOLO layout " + std::to_string(options.layout));
        }
        if (options.allowed_count > 0 && options.allowed_classes != nullptr) {
            allowed_.assign(options.allowed_classes, options.allowed_classes + options.allowed_count);
        }
        if (options.denied_count > 0 && options.denied_classes != nullptr) {
            denied_.assign(options.denied_classes, options.denied_classes + options.denied_count);
        }
        options_.allowed_classes = nullptr;  // copied above; the caller's arrays need not outlive this call
        options_.denied_classes = nullptr;
        requireReadableFile(path, "ONNX model");
        try {
            net_ = cv::dnn::readNetFromONNX(path);
        } catch (const cv::Exception &e) {
            throw BridgeError(SLCV_LOAD_FAILED, "ONNX model '" + path + "' could not be loaded: " + e.err);
        }
        if (net_.empty()) throw BridgeError(SLCV_LOAD_FAILED, "ONNX model '" + path + "' holds no network");
        net_.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        net_.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        outputNames_ = net_.getUnconnectedOutLayersNames();
    }

    int32_t resolvedLayout() const override { return resolvedLayout_; }

    void detect(const slcv_yuv_image &image, std::vector<slcv_box> &results) override {
        // cvtColor's I420 conversion needs even sizes; an odd last row or column is left out.
        const int width = image.width & ~1;
        const int height = image.height & ~1;
        packYUV420(image, width, height, packed_);
        cv::cvtColor(packed_, bgr_, image.chroma_pixel_stride == 2 ? cv::COLOR_YUV2BGR_NV12 : cv::COLOR_YUV2BGR_I420);
        const Letterbox box = letterbox(width, height);
        cv::dnn::blobFromImage(canvas_, blob_, 1.0 / 255.0, cv::Size(), cv::Scalar(), /*swapRB*/ true,
                               /*crop*/ false, CV_32F);
        net_.setInput(blob_);
        net_.forward(outputs_, outputNames_);
        if (outputs_.empty()) throw BridgeError(SLCV_UNSUPPORTED_OUTPUT, "ONNX model '" + path_ + "' has no output");
        decode(outputs_[0], box);
        suppressAndEmit(width, height, results);
    }

private:
    /// Resizes the BGR frame into the middle of a 114-grey network input, keeping its aspect ratio.
    Letterbox letterbox(int width, int height) {
        Letterbox box;
        box.scale = std::min((double)options_.input_width / width, (double)options_.input_height / height);
        box.width = std::max(1, (int)std::lround(width * box.scale));
        box.height = std::max(1, (int)std::lround(height * box.scale));
        box.padX = (options_.input_width - box.width) / 2;
        box.padY = (options_.input_height - box.height) / 2;
        canvas_.create(options_.input_height, options_.input_width, CV_8UC3);
        canvas_.setTo(cv::Scalar(114, 114, 114));
        cv::Mat inside = canvas_(cv::Rect(box.padX, box.padY, box.width, box.height));
        if (box.width == width && box.height == height) {
            bgr_.copyTo(inside);
        } else {
            cv::resize(bgr_, inside, inside.size(), 0, 0, cv::INTER_LINEAR);  // writes into the canvas
        }
        return box;
    }

    /// Picks v5 or v8 from the output shape; throws when neither fits.
    int chooseLayout(int rows, int columns) const {
        const int classes = options_.class_count;
        switch (options_.layout) {
        case SLCV_YOLO_V5:
            if (columns >= 6) return SLCV_YOLO_V5;
            break;
        case SLCV_YOLO_V8:
            if (rows >= 5) return SLCV_YOLO_V8;
            break;
        default:
            if (classes > 0) {
                if (columns == 5 + classes) return SLCV_YOLO_V5;
                if (rows == 4 + classes) return SLCV_YOLO_V8;
            } else {
                // Real models have thousands of candidates and tens of attributes: the longer axis holds
                // the candidates. v5 puts them in rows, v8/v11 in columns.
                if (rows > columns && columns >= 6) return SLCV_YOLO_V5;
                if (columns > rows && rows >= 5) return SLCV_YOLO_V8;
            }
        }
        return SLCV_YOLO_AUTO;
    }

    bool classAllowed(int classId) const {
        if (!allowed_.empty() && std::find(allowed_.begin(), allowed_.end(), classId) == allowed_.end()) return false;
        return std::find(denied_.begin(), denied_.end(), classId) == denied_.end();
    }

    /// Turns the raw output into candidates above the confidence threshold, in frame pixels.
    void decode(const cv::Mat &output, const Letterbox &box) {
        candidates_.clear();
        int rows = 0, columns = 0;
        if (output.dims == 3 && output.size[0] == 1) {
            rows = output.size[1];
            columns = output.size[2];
        } else if (output.dims == 2) {
            rows = output.size[0];
            columns = output.size[1];
        }
        const int layout = rows > 0 ? chooseLayout(rows, columns) : SLCV_YOLO_AUTO;
        if (layout == SLCV_YOLO_AUTO || output.type() != CV_32F) {
            std::string expected = options_.class_count > 0
                ? " (expected 1x" + std::to_string(4 + options_.class_count) + "xN or 1xNx" +
                      std::to_string(5 + options_.class_count) + " for " + std::to_string(options_.class_count) +
                      " class names)"
                : " (expected float 1x(4+classes)xN for YOLOv8/v11 or 1xNx(5+classes) for YOLOv5)";
            throw BridgeError(SLCV_UNSUPPORTED_OUTPUT,
                              "ONNX model '" + path_ + "' has output " + shapeText(output) + expected);
        }
        resolvedLayout_ = layout;
        const float *data = output.ptr<float>();
        const float threshold = options_.confidence_threshold;
        if (layout == SLCV_YOLO_V5) {
            const int classes = columns - 5;
            for (int i = 0; i < rows; ++i) {
                const float *row = data + (size_t)i * columns;
                const float objectness = row[4];
                if (objectness < threshold) continue;  // the product cannot reach it either
                int best = 0;
                for (int c = 1; c < classes; ++c) if (row[5 + c] > row[5 + best]) best = c;
                addCandidate(row[0], row[1], row[2], row[3], objectness * row[5 + best], best, box);
            }
        } else {
            const int count = columns;
            const int classes = rows - 4;
            for (int i = 0; i < count; ++i) {
                int best = 0;
                float bestScore = data[(size_t)4 * count + i];
                for (int c = 1; c < classes; ++c) {
                    const float score = data[(size_t)(4 + c) * count + i];
                    if (score > bestScore) { bestScore = score; best = c; }
                }
                if (bestScore < threshold) continue;
                addCandidate(data[i], data[(size_t)count + i], data[(size_t)2 * count + i],
                             data[(size_t)3 * count + i], bestScore, best, box);
            }
        }
    }

    /// Centre-size box in network pixels → corner box in frame pixels (letterbox undone).
    void addCandidate(float cx, float cy, float w, float h, float score, int classId, const Letterbox &box) {
        // A broken or differently exported model can emit NaN, infinite or negative values: one such candidate made
        // a full-frame box, or (a negative width) broke NMS for every box of the frame.
        if (!std::isfinite(cx) || !std::isfinite(cy) || !std::isfinite(w) || !std::isfinite(h) || !(w > 0) || !(h > 0)
            || !std::isfinite(score))
            return;
        if (score < options_.confidence_threshold || !classAllowed(classId)) return;
        // Scores above 1 (a model exporting raw logits) are reported as certain, not as "confidence 5".
        score = std::min(score, 1.0f);
        const double left = (cx - w / 2.0 - box.padX) / box.scale;
        const double top = (cy - h / 2.0 - box.padY) / box.scale;
        candidates_.push_back({cv::Rect2d(left, top, w / box.scale, h / box.scale), score, classId});
    }

    /// Non-maximum suppression per class (a person box never hides a car box), then clamping to the frame.
    void suppressAndEmit(int width, int height, std::vector<slcv_box> &results) {
        std::sort(candidates_.begin(), candidates_.end(),
                  [](const Candidate &a, const Candidate &b) { return a.classId < b.classId; });
        size_t start = 0;
        while (start < candidates_.size()) {
            size_t end = start;
            const int classId = candidates_[start].classId;
            classBoxes_.clear();
            classScores_.clear();
            while (end < candidates_.size() && candidates_[end].classId == classId) {
                classBoxes_.push_back(candidates_[end].box);
                classScores_.push_back(candidates_[end].score);
                ++end;
            }
            cv::dnn::NMSBoxes(classBoxes_, classScores_, options_.confidence_threshold, options_.nms_threshold,
                              kept_);
            for (int index : kept_) {
                const cv::Rect2d &r = classBoxes_[index];
                slcv_box out{(float)r.x, (float)r.y, (float)r.width, (float)r.height, classScores_[index], classId};
                if (clampToFrame(out, width, height)) results.push_back(out);
            }
            start = end;
        }
    }

    std::string path_;
    slcv_onnx_options options_;
    std::vector<int32_t> allowed_;
    std::vector<int32_t> denied_;
    cv::dnn::Net net_;
    std::vector<cv::String> outputNames_;
    int32_t resolvedLayout_ = SLCV_YOLO_AUTO;
    // Buffers reused across frames.
    cv::Mat packed_, bgr_, canvas_, blob_;
    std::vector<cv::Mat> outputs_;
    std::vector<Candidate> candidates_;
    std::vector<cv::Rect2d> classBoxes_;
    std::vector<float> classScores_;
    std::vector<int> kept_;
};

}  // namespace

slcv_detector *makeOnnxDetector(const std::string &path, const slcv_onnx_options &options) {
    return new OnnxDetector(path, options);
}

}  // namespace slcv
