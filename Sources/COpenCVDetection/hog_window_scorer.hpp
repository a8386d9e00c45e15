// Scores the 64×128 windows of one HOG pyramid level against a linear SVM, as cv::HOGDescriptor::detect does, for
// less work: each block histogram is summed from per-row cell sums instead of visiting every pixel once for each of
// the up to four overlapping blocks that hold it (OpenCV's HOGCache), which was 60 % of the people detector's time.
#pragma once

#include <opencv2/core.hpp>
#include <opencv2/objdetect.hpp>

#include <vector>

namespace slcv {

/// The window scorer of the HOG people detector (hog_detector.cpp).
///
/// Same features as OpenCV's: OpenCV's own gradients (`HOGDescriptor::computeGradient`: gamma-corrected luma,
/// magnitude split between two orientation bins), Gaussian-weighted block histograms with trilinear (position and
/// orientation) interpolation inside each 16 × 16 block, L2-Hys normalisation, and the descriptor's SVM. The Gaussian
/// and the position weights are both products of a column and a row weight, so a block histogram is a column pass
/// (each pixel into the two blocks across it) followed by a row pass (each row into the two blocks over it). Sums
/// are taken in another order than OpenCV's, so window scores agree to about 1e-6, not bit for bit
/// (HOGPeopleDetectorTests compares the two).
///
/// Holds only the descriptor's constants: one scorer may serve several threads at once. Scratch memory is per
/// thread and kept across calls (no allocation per frame once the largest level has been seen).
class HogWindowScorer {
public:
    /// Takes the geometry and SVM of `descriptor`; throws cv::Exception unless it is the 64×128 window with 16 px
    /// blocks, 8 px block stride and cells, 9 unsigned bins and L2-Hys (the people detector's).
    explicit HogWindowScorer(const cv::HOGDescriptor &descriptor);

    /// Windows of `level` (8-bit grey) every `windowStride` pixels (a multiple of 8) whose SVM score is at least
    /// `hitThreshold`: top-left corners in `hits`, scores in `scores`, in OpenCV's order (rows, then columns).
    void score(const cv::Mat &level, double hitThreshold, int windowStride, std::vector<cv::Point> &hits,
               std::vector<double> &scores) const;

private:
    static constexpr int windowWidth = 64, windowHeight = 128, blockSize = 16, cellSize = 8, bins = 9, blockValues = 36;
    static constexpr int windowBlocksAcross = 7, windowBlocksDown = 15;

    void normalizeInto(const float *sums, float *block) const;

    /// A copy of the descriptor, for its gradients (`computeGradient` is const: one copy serves every thread).
    const cv::HOGDescriptor descriptor_;
    /// Weight of a pixel `t` columns (or rows) into a block for the block's first and second cell: the Gaussian
    /// window times the position interpolation between the cells' centres.
    float edgeWeights_[2][blockSize];
    /// The SVM's weights in OpenCV's order: [block column][block row][36], within a block (cell x × 2 + cell y) × 9
    /// + bin.
    std::vector<float> svm_;
    double bias_;
    float clip_;
};

}  // namespace slcv
