// Circle evidence from luma gradients (cv::HoughCircles) for the speed-limit sign locator (StreamLensSigns).
//
// A real sign's ring is often only faintly red (dark, backlit, weathered), but the step from ring to disc and from
// ring to scene is a clear luma edge. This finds circles in the luma plane, on a downscaled copy so that it stays
// cheap at 1080p; the caller confirms each circle with chroma (is the ring redder than its inside and the scene?).
#include "opencv_signs.h"
#include "opencv_guarded.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <new>
#include <string>
#include <vector>

struct slcv_circle_finder {
    cv::Mat small;
    cv::Mat smoothed;
    std::vector<cv::Vec3f> found;
};

using slcv::guarded;
using slcv::writeError;

extern "C" {

void slcv_circle_default_options(slcv_circle_options *options) {
    if (options == nullptr) return;
    options->downscale = 2;
    options->min_radius = 10;
    options->max_radius = 60;
    options->edge_threshold = 60;
    options->accumulator_threshold = 14;
}

slcv_status slcv_circle_finder_create(slcv_circle_finder **finder, char *error, size_t error_capacity) {
    if (finder == nullptr) {
        writeError(error, error_capacity, "circle finder: null output pointer");
        return SLCV_INVALID_ARGUMENT;
    }
    *finder = new (std::nothrow) slcv_circle_finder();
    if (*finder == nullptr) {
        writeError(error, error_capacity, "circle finder: out of memory");
        return SLCV_INTERNAL_ERROR;
    }
    writeError(error, error_capacity, "");
    return SLCV_OK;
}

slcv_status slcv_circle_finder_find(
    slcv_circle_finder *finder, const uint8_t *luma, int32_t stride, int32_t width, int32_t height,
    const slcv_circle_options *options, slcv_circle *circles, int32_t capacity, int32_t *count, char *error,
    size_t error_capacity) {
    if (count != nullptr) *count = 0;
    if (finder == nullptr || luma == nullptr || options == nullptr || circles == nullptr || count == nullptr ||
        width < 8 || height < 8 || stride < width || capacity < 0 || options->downscale < 1 ||
        options->min_radius < 1 || options->max_radius < options->min_radius) {
        writeError(error, error_capacity, "circle finder: invalid argument");
        return SLCV_INVALID_ARGUMENT;
    }
    return guarded(error, error_capacity, SLCV_OPENCV_ERROR, "circle finder", [&] {
        // A view of the caller's plane: no copy.
        const cv::Mat plane(height, width, CV_8UC1, const_cast<uint8_t *>(luma), (size_t)stride);
        const int scale = options->downscale;
        if (scale > 1) {
            cv::resize(plane, finder->small, cv::Size(width / scale, height / scale), 0, 0, cv::INTER_AREA);
        } else {
            plane.copyTo(finder->small);
        }
        // A light blur keeps texture (asphalt, leaves) from voting while a ring's edge survives.
        cv::GaussianBlur(finder->small, finder->smoothed, cv::Size(3, 3), 0.8);
        const int minRadius = std::max(2, (int)std::floor(options->min_radius / scale));
        const int maxRadius = std::max(minRadius + 1, (int)std::ceil(options->max_radius / scale));
        finder->found.clear();
        cv::HoughCircles(
            finder->smoothed, finder->found, cv::HOUGH_GRADIENT, 1.0, std::max(4, minRadius),
            options->edge_threshold, options->accumulator_threshold, minRadius, maxRadius);
        // HoughCircles orders by accumulator votes: the best-supported circles come first.
        const int32_t kept = std::min<int32_t>(capacity, (int32_t)finder->found.size());
        for (int32_t i = 0; i < kept; ++i) {
            const cv::Vec3f &circle = finder->found[i];
            // Pixel centres: sample i of the small image covers input pixels scale*i … scale*i + scale − 1.
            circles[i].x = (circle[0] + 0.5f) * scale - 0.5f;
            circles[i].y = (circle[1] + 0.5f) * scale - 0.5f;
            circles[i].radius = circle[2] * scale;
        }
        *count = kept;
    });
}

void slcv_circle_finder_destroy(slcv_circle_finder *finder) { delete finder; }

}  // extern "C"
