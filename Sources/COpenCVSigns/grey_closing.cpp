// The grey-level closing the speed-limit reader flattens a disc's light with (StreamLensSigns' IlluminationFlattener):
// OpenCV's own maximum and minimum filters over a square window, instead of the four loops over the window that the
// reader ran per sample (several times slower).
#include "opencv_signs.h"
#include "opencv_guarded.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

using slcv::guarded;
using slcv::writeError;

extern "C" {

slcv_status slcv_grey_closing(
    const uint8_t *source, uint8_t *destination, int32_t width, int32_t height, int32_t radius, char *error,
    size_t error_capacity) {
    if (source == nullptr || destination == nullptr || width < 1 || height < 1 || radius < 0) {
        writeError(error, error_capacity, "grey closing: invalid argument");
        return SLCV_INVALID_ARGUMENT;
    }
    return guarded(error, error_capacity, SLCV_OPENCV_ERROR, "grey closing", [&] {
        // Borrowed views: OpenCV neither copies nor frees the caller's samples. The window is cut at the picture's
        // edges (OpenCV's default border value for each filter is the one that never wins).
        const cv::Mat input(height, width, CV_8UC1, const_cast<uint8_t *>(source));
        cv::Mat output(height, width, CV_8UC1, destination);
        const cv::Mat window = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * radius + 1, 2 * radius + 1));
        cv::dilate(input, output, window);
        cv::erode(output, output, window);
    });
}

}  // extern "C"
