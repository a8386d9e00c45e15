// What the OpenCV bridges (COpenCVDetection, COpenCVSigns) share across their plain C headers: the status every
// fallible call returns, and the one function that writes its message.
#ifndef STREAMLENS_OPENCV_STATUS_H
#define STREAMLENS_OPENCV_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result of every fallible bridge call.
typedef enum slcv_status {
    SLCV_OK = 0,
    /// A null pointer, a non-positive size or an option out of range.
    SLCV_INVALID_ARGUMENT = 1,
    /// A model or cascade file is missing, unreadable or not a valid model.
    SLCV_LOAD_FAILED = 2,
    /// OpenCV raised an error while detecting.
    SLCV_OPENCV_ERROR = 3,
    /// The network's output shape matches no supported YOLO layout.
    SLCV_UNSUPPORTED_OUTPUT = 4,
    /// Any other C++ exception (out of memory, for example).
    SLCV_INTERNAL_ERROR = 5,
} slcv_status;

/// Writes `message` into the caller's buffer of `capacity` bytes as one NUL-terminated line: newlines become spaces,
/// a long message is cut to fit. Does nothing when `buffer` is NULL or `capacity` 0.
void slcv_write_error(char *buffer, size_t capacity, const char *message);

#ifdef __cplusplus
}
#endif

#endif
