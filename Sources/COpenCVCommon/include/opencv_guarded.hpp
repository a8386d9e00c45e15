// How the bridges' C entry points report failures: every exception becomes a status and one line of text in the
// caller's buffer; nothing escapes into C or Swift. C++ only: in C (and to Swift) this header is empty.
#pragma once

#ifdef __cplusplus

#include "opencv_status.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>

namespace slcv {

/// Thrown inside a bridge to carry a status and a one-line message out to the C boundary.
class BridgeError : public std::runtime_error {
public:
    BridgeError(slcv_status status, const std::string &message) : std::runtime_error(message), status(status) {}
    slcv_status status;
};

/// Writes `message` into the caller's buffer as one NUL-terminated line (slcv_write_error).
inline void writeError(char *buffer, size_t capacity, const std::string &message) {
    slcv_write_error(buffer, capacity, message.c_str());
}

/// Runs `body`, translating every exception into a status and a message prefixed with `context`.
/// An OpenCV exception becomes `opencvStatus`.
template <typename Body>
slcv_status guarded(char *error, size_t capacity, slcv_status opencvStatus, const char *context, Body body) {
    try {
        body();
        writeError(error, capacity, "");
        return SLCV_OK;
    } catch (const BridgeError &e) {
        writeError(error, capacity, e.what());
        return e.status;
    } catch (const cv::Exception &e) {
        // e.err is OpenCV's short description; what() adds file and line over several lines.
        writeError(error, capacity, std::string(context) + ": " + e.err);
        return opencvStatus;
    } catch (const std::bad_alloc &) {
        writeError(error, capacity, std::string(context) + ": out of memory");
        return SLCV_INTERNAL_ERROR;
    } catch (const std::exception &e) {
        writeError(error, capacity, std::string(context) + ": " + e.what());
        return SLCV_INTERNAL_ERROR;
    } catch (...) {
        writeError(error, capacity, std::string(context) + ": unknown C++ exception");
        return SLCV_INTERNAL_ERROR;
    }
}

/// Builds a handle for a C entry point: a new `Handle` set up by `setUp(handle)` under ``guarded`` (failures are
/// `failureStatus`); on success `*out` owns it, on failure it is freed and `*out` is null.
template <typename Handle, typename SetUp>
slcv_status makeHandle(
    Handle **out, char *error, size_t capacity, slcv_status failureStatus, const char *context, SetUp setUp) {
    if (out == nullptr) {
        writeError(error, capacity, std::string(context) + ": null output pointer");
        return SLCV_INVALID_ARGUMENT;
    }
    *out = nullptr;
    Handle *made = nullptr;
    slcv_status status = guarded(error, capacity, failureStatus, context, [&] {
        made = new Handle();
        setUp(*made);
    });
    if (status != SLCV_OK) {
        delete made;
        return status;
    }
    *out = made;
    return SLCV_OK;
}

}  // namespace slcv

#endif
