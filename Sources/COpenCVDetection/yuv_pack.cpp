// The contiguous YUV copy that cv::cvtColor's 4:2:0 conversions read, shared by the network backends.
#include "detector.hpp"

#include <cstring>

namespace slcv {

void packYUV420(const slcv_yuv_image &image, int width, int height, cv::Mat &packed) {
    packed.create(height * 3 / 2, width, CV_8UC1);  // no-op when the size is unchanged
    uint8_t *out = packed.data;
    for (int row = 0; row < height; ++row) {
        std::memcpy(out + (size_t)row * width, image.y + (size_t)row * image.y_stride, (size_t)width);
    }
    const int chromaWidth = width / 2;
    const int chromaHeight = height / 2;
    if (image.chroma_pixel_stride == 2) {
        uint8_t *uv = out + (size_t)width * height;
        for (int row = 0; row < chromaHeight; ++row) {
            std::memcpy(uv + (size_t)row * width, image.u + (size_t)row * image.u_stride, (size_t)width);
        }
        return;
    }
    uint8_t *u = out + (size_t)width * height;
    uint8_t *v = u + (size_t)chromaWidth * chromaHeight;
    for (int row = 0; row < chromaHeight; ++row) {
        std::memcpy(u + (size_t)row * chromaWidth, image.u + (size_t)row * image.u_stride, (size_t)chromaWidth);
        std::memcpy(v + (size_t)row * chromaWidth, image.v + (size_t)row * image.v_stride, (size_t)chromaWidth);
    }
}

}  // namespace slcv
