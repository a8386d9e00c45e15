// C entry points of the bridge: argument checks, exception-to-status translation, result sorting and copying.
#include "opencv_detection.h"
#include "detector.hpp"
#include "backends.hpp"
#include "opencv_guarded.hpp"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>

namespace slcv {

void appendKeptBoxes(const std::vector<cv::Rect2d> &boxes, const std::vector<float> &scores, float scoreThreshold,
                     float nmsThreshold, std::vector<int> &kept, int frameWidth, int frameHeight,
                     std::vector<slcv_box> &results) {
    cv::dnn::NMSBoxes(boxes, scores, scoreThreshold, nmsThreshold, kept);
    for (int index : kept) {
        const cv::Rect2d &r = boxes[index];
        slcv_box out{(float)r.x, (float)r.y, (float)r.width, (float)r.height, scores[index], 0};
        if (clampToFrame(out, frameWidth, frameHeight)) results.push_back(out);
    }
}

bool clampToFrame(slcv_box &box, int frameWidth, int frameHeight) {
    const float left = std::max(0.0f, box.x);
    const float top = std::max(0.0f, box.y);
    const float right = std::min((float)frameWidth, box.x + box.width);
    const float bottom = std::min((float)frameHeight, box.y + box.height);
    if (right <= left || bottom <= top) return false;
    box.x = left;
    box.y = top;
    box.width = right - left;
    box.height = bottom - top;
    return true;
}

void requireReadableFile(const std::string &path, const char *what) {
    std::ifstream file(path, std::ios::binary);
    if (!file.good()) {
        throw BridgeError(SLCV_LOAD_FAILED, std::string(what) + " '" + path + "' not found or not readable");
    }
}

}  // namespace slcv

namespace {

using slcv::guarded;
using slcv::writeError;

bool validImage(const slcv_yuv_image *image) {
    if (image == nullptr || image->y == nullptr || image->u == nullptr || image->v == nullptr) return false;
    if (image->width < 2 || image->height < 2) return false;
    const int pixelStride = image->chroma_pixel_stride;
    if (pixelStride == 2 && image->v != image->u + 1) return false;  // NV12: V follows U in each pair
    if (pixelStride != 1 && pixelStride != 2) return false;
    const int chromaRow = (image->width + 1) / 2 * pixelStride;
    return image->y_stride >= image->width && image->u_stride >= chromaRow && image->v_stride >= chromaRow;
}

}  // namespace

extern "C" {

const char *slcv_version(void) { return CV_VERSION; }

void slcv_set_thread_count(int32_t count) {
    try {
        cv::setNumThreads(count < 0 ? 0 : count);
    } catch (...) {
        // Never fails in practice; nothing may cross the C boundary.
    }
}

int32_t slcv_thread_count(void) {
    try {
        return cv::getNumThreads();
    } catch (...) {
        return 1;
    }
}

void slcv_hog_default_options(slcv_hog_options *options) {
    if (options == nullptr) return;
    options->hit_threshold = -0.1;
    options->window_stride = 8;
    options->pyramid_scale = 1.05;
    options->group_threshold = 1;
    options->upscale = 1;
    options->small_people_scale_step = 1.1;
    options->small_people_until_scale = 2;
    options->use_opencv_window_scorer = 0;
}

void slcv_cascade_default_options(slcv_cascade_options *options) {
    if (options == nullptr) return;
    options->scale_factor = 1.1;
    options->min_neighbors = 3;
    options->min_width = 0;
    options->min_height = 0;
    options->equalize_histogram = 1;
}

void slcv_onnx_default_options(slcv_onnx_options *options) {
    if (options == nullptr) return;
    options->input_width = 640;
    options->input_height = 640;
    options->confidence_threshold = 0.5f;
    options->nms_threshold = 0.45f;
    options->layout = SLCV_YOLO_AUTO;
    options->class_count = 0;
    options->allowed_classes = nullptr;
    options->allowed_count = 0;
    options->denied_classes = nullptr;
    options->denied_count = 0;
}

void slcv_centerface_default_options(slcv_centerface_options *options) {
    if (options == nullptr) return;
    options->input_width = 0;
    options->input_height = 0;
    options->confidence_threshold = 0.2f;
    options->nms_threshold = 0.3f;
}

slcv_status slcv_detector_create_centerface(
    const char *path, const slcv_centerface_options *options, slcv_detector **detector, char *error,
    size_t error_capacity) {
    if (detector == nullptr || options == nullptr || path == nullptr) {
        writeError(error, error_capacity, "CenterFace detector: null argument");
        return SLCV_INVALID_ARGUMENT;
    }
    *detector = nullptr;
    const std::string context = std::string("CenterFace model '") + path + "'";
    return guarded(error, error_capacity, SLCV_LOAD_FAILED, context.c_str(), [&] {
        *detector = slcv::makeCenterFaceDetector(path, *options);
    });
}

void slcv_plate_default_options(slcv_plate_options *options) {
    if (options == nullptr) return;
    options->input_width = 1280;
    options->input_height = 736;
    options->coarse_width = 640;
    options->coarse_height = 640;
    options->confidence_threshold = 0.2f;
    options->nms_threshold = 0.4f;
}

slcv_status slcv_detector_create_plates(
    const char *fine_path, const char *coarse_path, const slcv_plate_options *options, slcv_detector **detector,
    char *error, size_t error_capacity) {
    if (detector == nullptr || options == nullptr || fine_path == nullptr || coarse_path == nullptr) {
        writeError(error, error_capacity, "plate detector: null argument");
        return SLCV_INVALID_ARGUMENT;
    }
    *detector = nullptr;
    const std::string context = std::string("plate model '") + fine_path + "'";
    return guarded(error, error_capacity, SLCV_LOAD_FAILED, context.c_str(), [&] {
        *detector = slcv::makePlateDetector(fine_path, coarse_path, *options);
    });
}

slcv_status slcv_detector_create_hog(
    const slcv_hog_options *options, slcv_detector **detector, char *error, size_t error_capacity) {
    if (detector == nullptr || options == nullptr) {
        writeError(error, error_capacity, "HOG detector: null argument");
        return SLCV_INVALID_ARGUMENT;
    }
    *detector = nullptr;
    return guarded(error, error_capacity, SLCV_LOAD_FAILED, "HOG detector", [&] {
        *detector = slcv::makeHogDetector(*options);
    });
}

slcv_status slcv_detector_create_cascade(
    const char *path, const slcv_cascade_options *options, slcv_detector **detector, char *error,
    size_t error_capacity) {
    if (detector == nullptr || options == nullptr || path == nullptr) {
        writeError(error, error_capacity, "cascade detector: null argument");
        return SLCV_INVALID_ARGUMENT;
    }
    *detector = nullptr;
    const std::string context = std::string("cascade '") + path + "'";
    return guarded(error, error_capacity, SLCV_LOAD_FAILED, context.c_str(), [&] {
        *detector = slcv::makeCascadeDetector(path, *options);
    });
}

slcv_status slcv_detector_create_onnx(
    const char *path, const slcv_onnx_options *options, slcv_detector **detector, char *error,
    size_t error_capacity) {
    if (detector == nullptr || options == nullptr || path == nullptr) {
        writeError(error, error_capacity, "ONNX detector: null argument");
        return SLCV_INVALID_ARGUMENT;
    }
    *detector = nullptr;
    const std::string context = std::string("ONNX model '") + path + "'";
    return guarded(error, error_capacity, SLCV_LOAD_FAILED, context.c_str(), [&] {
        *detector = slcv::makeOnnxDetector(path, *options);
    });
}

slcv_status slcv_detector_detect(
    slcv_detector *detector, const slcv_yuv_image *image, slcv_box *boxes, int32_t capacity, int32_t *count,
    int32_t *total, char *error, size_t error_capacity) {
    if (count != nullptr) *count = 0;
    if (total != nullptr) *total = 0;
    if (detector == nullptr || count == nullptr || (boxes == nullptr && capacity > 0) || capacity < 0) {
        writeError(error, error_capacity, "detect: null argument or negative capacity");
        return SLCV_INVALID_ARGUMENT;
    }
    if (!validImage(image)) {
        writeError(error, error_capacity, "detect: the frame needs Y, U and V planes (I420, or NV12 with V = U + 1), "
                                          "at least 2x2 pixels, and strides no shorter than a row");
        return SLCV_INVALID_ARGUMENT;
    }
    return guarded(error, error_capacity, SLCV_OPENCV_ERROR, "detect", [&] {
        std::vector<slcv_box> &results = detector->results;
        results.clear();
        detector->detect(*image, results);
        // std::sort (no temporary buffer, unlike stable_sort) with ties broken by position for a stable order.
        std::sort(results.begin(), results.end(), [](const slcv_box &a, const slcv_box &b) {
            if (a.confidence != b.confidence) return a.confidence > b.confidence;
            if (a.class_id != b.class_id) return a.class_id < b.class_id;
            if (a.y != b.y) return a.y < b.y;
            return a.x < b.x;
        });
        const int32_t found = (int32_t)results.size();
        const int32_t written = std::min(found, capacity);
        if (written > 0) std::memcpy(boxes, results.data(), sizeof(slcv_box) * (size_t)written);
        *count = written;
        if (total != nullptr) *total = found;
    });
}

int32_t slcv_detector_resolved_layout(const slcv_detector *detector) {
    return detector == nullptr ? SLCV_YOLO_AUTO : detector->resolvedLayout();
}

void slcv_detector_destroy(slcv_detector *detector) { delete detector; }

}  // extern "C"
