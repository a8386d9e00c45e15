// Internal C++ side of the bridge: the detector base class behind the opaque `slcv_detector` handle.
// Nothing here is visible to Swift; only include/opencv_detection.h is.
#pragma once

#include "opencv_detection.h"
#include "opencv_guarded.hpp"

#include <opencv2/core.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace slcv {

/// A zero-copy grayscale view of the frame's luma plane (stride respected).
inline cv::Mat lumaView(const slcv_yuv_image &image) {
    return cv::Mat(image.height, image.width, CV_8UC1, const_cast<uint8_t *>(image.y), (size_t)image.y_stride);
}

/// Copies the strided planes of `image` (`width` × `height`, both even) into `packed`, one contiguous buffer of
/// (height × 3/2) rows of `width` bytes: the layout cv::cvtColor expects for I420 (Y, U, V) and NV12 (Y, UV pairs).
/// Reuses `packed` when its size is unchanged.
void packYUV420(const slcv_yuv_image &image, int width, int height, cv::Mat &packed);

/// Clamps `box` to the frame; returns false when nothing of it is left inside.
bool clampToFrame(slcv_box &box, int frameWidth, int frameHeight);

/// Non-maximum suppression over one class's boxes (frame pixels), appending those kept, clamped to the frame, to
/// `results` as class 0. `kept` is the caller's scratch list, reused from frame to frame.
void appendKeptBoxes(const std::vector<cv::Rect2d> &boxes, const std::vector<float> &scores, float scoreThreshold,
                     float nmsThreshold, std::vector<int> &kept, int frameWidth, int frameHeight,
                     std::vector<slcv_box> &results);

/// Logistic function: maps an unbounded classifier margin to 0…1 (0 → 0.5).
inline float logistic(double margin) { return (float)(1.0 / (1.0 + std::exp(-margin))); }

/// Reads `path` fully enough to tell "missing" from "unreadable"; throws SLCV_LOAD_FAILED naming the file.
void requireReadableFile(const std::string &path, const char *what);

}  // namespace slcv

/// The opaque handle of the C API: one backend plus its reusable buffers.
/// Not thread-safe: one thread at a time (see opencv_detection.h).
struct slcv_detector {
    virtual ~slcv_detector() = default;
    /// Appends this frame's detections (frame pixel coordinates) to `results`, which the caller has cleared.
    /// Throws cv::Exception, slcv::BridgeError or std::exception.
    virtual void detect(const slcv_yuv_image &image, std::vector<slcv_box> &results) = 0;
    virtual int32_t resolvedLayout() const { return SLCV_YOLO_AUTO; }

    /// Results of the last call; kept here so its capacity is reused across frames.
    std::vector<slcv_box> results;
};
