// Plain C interface to the OpenCV (C++) sign recognisers used by StreamLensSigns: circle evidence, grey closing,
// the speed-disc classifier, the disc template matcher and the text-line recogniser.
//
// Design rules, as in COpenCVDetection's opencv_detection.h: opaque handles, POD structs and status codes only; no
// C++ type and no exception crosses this header. Every entry point catches cv::Exception and std::exception and
// turns them into a status plus a message written into the caller's buffer (always NUL-terminated, truncated to
// fit). The status codes and that translation are COpenCVCommon's, shared with the detection bridge.
//
// Thread safety: a handle keeps reusable buffers and must be used by one thread at a time. Different handles may be
// used concurrently.
#ifndef STREAMLENS_OPENCV_SIGNS_H
#define STREAMLENS_OPENCV_SIGNS_H

#include <stddef.h>
#include <stdint.h>

#include "opencv_status.h"

#ifdef __cplusplus
extern "C" {
#endif


// MARK: Circle evidence (circles.cpp), for the speed-limit sign locator

/// A circle found in a luma plane, in that plane's pixel coordinates.
typedef struct slcv_circle {
    float x;
    float y;
    float radius;
} slcv_circle;

/// Options of the circle finder (cv::HoughCircles, gradient method, on a downscaled copy of the luma plane).
typedef struct slcv_circle_options {
    /// The plane is shrunk by this integer factor first (1 = full size); radii stay in input pixels.
    int32_t downscale;
    /// Radius range in input pixels.
    float min_radius;
    float max_radius;
    /// Upper Canny threshold of the edge step (OpenCV's param1).
    double edge_threshold;
    /// Votes a centre needs (OpenCV's param2): lower finds fainter and smaller circles, and more false ones.
    double accumulator_threshold;
} slcv_circle_options;

/// An opaque circle finder: OpenCV's working images, reused from call to call.
typedef struct slcv_circle_finder slcv_circle_finder;

void slcv_circle_default_options(slcv_circle_options *options);
slcv_status slcv_circle_finder_create(slcv_circle_finder **finder, char *error, size_t error_capacity);
/// Finds up to `capacity` circles in the `width` × `height` luma plane (`stride` bytes per row), best supported
/// first; `*count` says how many were written.
slcv_status slcv_circle_finder_find(
    slcv_circle_finder *finder, const uint8_t *luma, int32_t stride, int32_t width, int32_t height,
    const slcv_circle_options *options, slcv_circle *circles, int32_t capacity, int32_t *count, char *error,
    size_t error_capacity);
/// Frees the finder. Null is ignored.
void slcv_circle_finder_destroy(slcv_circle_finder *finder);

// MARK: Grey-level closing (grey_closing.cpp), for the speed-limit reader's light flattening

/// The grey-level closing of a `width` × `height` picture (rows packed, one byte per sample) into `destination`
/// (same shape; not `source`): the maximum over the (2·radius + 1)² window around each sample, then the minimum of
/// those over the same window, each window cut at the picture's edges.
slcv_status slcv_grey_closing(
    const uint8_t *source, uint8_t *destination, int32_t width, int32_t height, int32_t radius, char *error,
    size_t error_capacity);

// MARK: Speed-limit disc classifier (speed_disc_classifier.cpp), the sign reader's second recogniser

/// Outputs of the disc classifier, one per class: "none", then 5, 10, 20 … 130 (scripts/generate/make-speed-disc-model.py).
#define SLCV_SPEED_DISC_CLASS_COUNT 15

/// An opaque classifier: a small convolutional network (run by OpenCV's DNN module) on a sign's normalised inner disc,
/// trained on rendered road-font digits only; the network is compiled in (Generated/speed_disc_model.hpp), nothing
/// is loaded.
typedef struct slcv_disc_classifier slcv_disc_classifier;

slcv_status slcv_disc_classifier_create(slcv_disc_classifier **classifier, char *error, size_t error_capacity);
/// Classifies a `width` × `height` grey picture (`stride` bytes per row) of a disc: dark digits on white, outside the
/// disc white. Writes SLCV_SPEED_DISC_CLASS_COUNT class probabilities (0…1, summing to 1) into `scores`.
slcv_status slcv_disc_classifier_classify(
    slcv_disc_classifier *classifier, const uint8_t *gray, int32_t stride, int32_t width, int32_t height,
    float *scores, int32_t capacity, char *error, size_t error_capacity);
/// Frees the classifier. Null is ignored.
void slcv_disc_classifier_destroy(slcv_disc_classifier *classifier);

// MARK: Speed-limit disc templates (disc_template_matcher.cpp), the sign reader's fourth recogniser

/// An opaque set of rendered speed-value templates (every European value in four road fonts at three digit sizes,
/// and the texts of other round signs such as 7,5t as value 0; compiled in from Generated/disc_templates.hpp), each
/// blurred at start-up twice and smeared sideways twice.
typedef struct slcv_disc_templates slcv_disc_templates;

/// The best match of one disc: the speed value whose templates correlate best, and how well.
typedef struct slcv_disc_match {
    /// 0 when another sign's text matches best (or the picture is flat).
    int32_t value;
    /// Normalised cross-correlation (−1…1) of the best template of `value`, over small shifts.
    float score;
    /// The same for the best template of any other value.
    float runner_up_score;
} slcv_disc_match;

slcv_status slcv_disc_templates_create(slcv_disc_templates **templates, char *error, size_t error_capacity);
/// Correlates a `width` × `height` grey picture (`stride` bytes per row) of a disc — dark digits on white, outside the
/// disc white, as for the classifier — with every template. A flat picture matches nothing: value 0, scores −1.
slcv_status slcv_disc_templates_match(
    slcv_disc_templates *templates, const uint8_t *gray, int32_t stride, int32_t width, int32_t height,
    slcv_disc_match *match, char *error, size_t error_capacity);
/// Correlates with cv::gemm instead of the bridge's own product (the same correlations up to rounding; slower): the
/// check of the own product and the benchmark's peer. Null is ignored.
void slcv_disc_templates_use_opencv_product(slcv_disc_templates *templates, int32_t uses);
/// Frees the templates. Null is ignored.
void slcv_disc_templates_destroy(slcv_disc_templates *templates);

// MARK: Text-line recogniser (text_line_recogniser.cpp), the sign reader's third recogniser

/// Most characters one read returns; a longer line is cut (a speed value has at most three digits).
#define SLCV_TEXT_LINE_MAX_CHARACTERS 16
/// Rows of the network's input picture.
#define SLCV_TEXT_LINE_INPUT_HEIGHT 48

/// An opaque recogniser: a convolutional text-line network (PP-OCRv4 "rec", CTC output) run by OpenCV's DNN module,
/// loaded from an ONNX file that scripts/models/make-text-line-model.py made from the rapidocr-onnxruntime package's model.
typedef struct slcv_text_line_recogniser slcv_text_line_recogniser;

/// What one line reads as: the characters (digits as "0"…"9", every other character as "?") and, per character,
/// the network's probability for it (0…1).
typedef struct slcv_text_line_read {
    int32_t count;
    char characters[SLCV_TEXT_LINE_MAX_CHARACTERS];
    float confidences[SLCV_TEXT_LINE_MAX_CHARACTERS];
} slcv_text_line_read;

/// Loads the model at `model_path`, made for pictures `input_width` columns wide (SLCV_TEXT_LINE_INPUT_HEIGHT rows),
/// and runs it once on a blank picture: a file that is not such a model fails here with SLCV_LOAD_FAILED.
slcv_status slcv_text_line_recogniser_create(
    const char *model_path, int32_t input_width, slcv_text_line_recogniser **recogniser, char *error,
    size_t error_capacity);
/// Reads a `width` × `height` grey picture of one line of text (`stride` bytes per row). It is scaled to the input
/// height keeping its shape and padded on the right; a picture wider than the input is squeezed to fit.
slcv_status slcv_text_line_recogniser_read(
    slcv_text_line_recogniser *recogniser, const uint8_t *gray, int32_t stride, int32_t width, int32_t height,
    slcv_text_line_read *read, char *error, size_t error_capacity);
/// Frees the recogniser. Null is ignored.
void slcv_text_line_recogniser_destroy(slcv_text_line_recogniser *recogniser);

#ifdef __cplusplus
}
#endif
#endif
