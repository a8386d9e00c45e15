#include "hog_window_scorer.hpp"

#include <opencv2/core/hal/intrin.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace slcv {
namespace {

/// One thread's working memory, grown to the largest level it has scored and then reused.
struct Scratch {
    /// Gradients of one cell row (8 pixel rows) at a time: magnitude split between two bins, and the two bins.
    cv::Mat gradient, orientation;
    std::vector<float> gradientStorage;
    std::vector<uchar> orientationStorage;
    /// One image row's sums per block column: [block column][cell x][bin].
    std::vector<float> rowSums;
    /// The two block rows being summed (a row of pixels feeds at most two): [block column][cell y][cell x][bin].
    std::vector<float> blockRowSums[2];
    /// Normalised histograms of every block of the level: [block row][block column][36], OpenCV's order.
    std::vector<float> blocks;

    /// Points the gradient matrices at kept storage, so that computeGradient's `create` finds them the right size.
    void prepareGradients(int rows, int columns) {
        const size_t pixels = (size_t)rows * columns;
        if (gradientStorage.size() < pixels * 2) gradientStorage.resize(pixels * 2);
        if (orientationStorage.size() < pixels * 2) orientationStorage.resize(pixels * 2);
        gradient = cv::Mat(rows, columns, CV_32FC2, gradientStorage.data());
        orientation = cv::Mat(rows, columns, CV_8UC2, orientationStorage.data());
    }
};

thread_local Scratch scratch;

/// One block's 36 values against its 36 SVM weights, in three independent sums (a single chain of nine
/// multiply-adds would wait on itself).
inline float dot36(const float *a, const float *b) {
    cv::v_float32x4 first = cv::v_setzero_f32(), second = cv::v_setzero_f32(), third = cv::v_setzero_f32();
    for (int k = 0; k < 36; k += 12) {
        first = cv::v_fma(cv::v_load(a + k), cv::v_load(b + k), first);
        second = cv::v_fma(cv::v_load(a + k + 4), cv::v_load(b + k + 4), second);
        third = cv::v_fma(cv::v_load(a + k + 8), cv::v_load(b + k + 8), third);
    }
    return cv::v_reduce_sum(first + second + third);
}

}  // namespace

HogWindowScorer::HogWindowScorer(const cv::HOGDescriptor &descriptor) : descriptor_(descriptor) {
    CV_Assert(descriptor.winSize == cv::Size(windowWidth, windowHeight) &&
              descriptor.blockSize == cv::Size(blockSize, blockSize) &&
              descriptor.blockStride == cv::Size(cellSize, cellSize) &&
              descriptor.cellSize == cv::Size(cellSize, cellSize) && descriptor.nbins == bins &&
              !descriptor.signedGradient && descriptor.histogramNormType == cv::HOGDescriptor::L2Hys);
    const size_t length = (size_t)windowBlocksAcross * windowBlocksDown * blockValues;
    CV_Assert(descriptor.svmDetector.size() >= length);
    // OpenCV's SVM is already ordered block column by block column, then block row, then (cell x, cell y, bin).
    svm_.assign(descriptor.svmDetector.begin(), descriptor.svmDetector.begin() + length);
    bias_ = descriptor.svmDetector.size() > length ? descriptor.svmDetector[length] : 0;
    clip_ = (float)descriptor.L2HysThreshold;

    const double sigma = descriptor.getWinSigma();
    for (int t = 0; t < blockSize; ++t) {
        const double fromCentre = t - blockSize / 2.0;
        const double gaussian = std::exp(-fromCentre * fromCentre / (2 * sigma * sigma));
        // Position between the cells' centres (at 3.5 and 11.5): outside them a pixel goes to the nearer cell only.
        const double cellPosition = (t + 0.5) / cellSize - 0.5;
        const int firstCell = (int)std::floor(cellPosition);
        const double fraction = cellPosition - firstCell;
        double weights[2] = {0, 0};
        if (firstCell < 0) weights[0] = fraction;
        else if (firstCell > 0) weights[1] = 1 - fraction;
        else weights[0] = 1 - fraction, weights[1] = fraction;
        for (int cell = 0; cell < 2; ++cell) edgeWeights_[cell][t] = (float)(gaussian * weights[cell]);
    }
}

void HogWindowScorer::normalizeInto(const float *sums, float *block) const {
    // [cell y][cell x][bin] into OpenCV's [cell x][cell y][bin].
    for (int cellY = 0; cellY < 2; ++cellY)
        for (int cellX = 0; cellX < 2; ++cellX)
            std::memcpy(block + (cellX * 2 + cellY) * bins, sums + (cellY * 2 + cellX) * bins, bins * sizeof(float));
    // L2-Hys as OpenCV: scale by the norm (plus 0.1 per value), clip, scale by the new norm.
    float squares = 0;
    for (int k = 0; k < blockValues; ++k) squares += block[k] * block[k];
    float scale = 1.f / (std::sqrt(squares) + blockValues * 0.1f);
    squares = 0;
    for (int k = 0; k < blockValues; ++k) {
        block[k] = std::min(block[k] * scale, clip_);
        squares += block[k] * block[k];
    }
    scale = 1.f / (std::sqrt(squares) + 1e-3f);
    for (int k = 0; k < blockValues; ++k) block[k] *= scale;
}

void HogWindowScorer::score(const cv::Mat &level, double hitThreshold, int windowStride,
                            std::vector<cv::Point> &hits, std::vector<double> &scores) const {
    hits.clear();
    scores.clear();
    CV_Assert(level.type() == CV_8UC1 && windowStride > 0 && windowStride % cellSize == 0);
    if (level.cols < windowWidth || level.rows < windowHeight) return;
    const int windowsAcross = (level.cols - windowWidth) / windowStride + 1;
    const int windowsDown = (level.rows - windowHeight) / windowStride + 1;
    const int blockStep = windowStride / cellSize;
    const int blocksAcross = (windowsAcross - 1) * blockStep + windowBlocksAcross;
    const int blocksDown = (windowsDown - 1) * blockStep + windowBlocksDown;
    // The pixels the windows cover (the level's last few columns and rows may be in none).
    const int coveredColumns = blocksAcross * cellSize + cellSize, coveredRows = blocksDown * cellSize + cellSize;

    Scratch &s = scratch;
    s.prepareGradients(cellSize, level.cols);

    const size_t rowValues = (size_t)blocksAcross * 2 * bins, blockRowValues = (size_t)blocksAcross * blockValues;
    s.rowSums.resize(rowValues);
    for (auto &sums : s.blockRowSums) sums.resize(blockRowValues);
    s.blocks.resize((size_t)blocksDown * blockRowValues);

    for (int y = 0; y < coveredRows; ++y) {
        if (y % cellSize == 0) {
            // The next cell row's gradients: computeGradient reads the rows around a band from the level itself
            // (and mirrors at the level's own edges), so they are the whole level's gradients, one band at a time.
            descriptor_.computeGradient(level.rowRange(y, y + cellSize), s.gradient, s.orientation, cv::Size(),
                                        cv::Size());
            CV_Assert(s.gradient.data == (uchar *)s.gradientStorage.data());
        }
        // Column pass: each pixel into the block that starts in its cell column and the one that starts a cell before.
        std::fill(s.rowSums.begin(), s.rowSums.end(), 0.f);
        const float *magnitudes = s.gradient.ptr<float>(y % cellSize);
        const uchar *binPairs = s.orientation.ptr<uchar>(y % cellSize);
        // A pixel `offset` columns into the block that starts at `blockColumn`: into both of its cell columns.
        const auto addToBlock = [&](int blockColumn, int offset, float lower, int lowerBin, float upper, int upperBin) {
            float *sums = &s.rowSums[(size_t)blockColumn * 2 * bins];
            const float first = edgeWeights_[0][offset], second = edgeWeights_[1][offset];
            sums[lowerBin] += first * lower;
            sums[upperBin] += first * upper;
            sums[bins + lowerBin] += second * lower;
            sums[bins + upperBin] += second * upper;
        };
        for (int x = 0; x < coveredColumns; ++x) {
            const float lower = magnitudes[2 * x], upper = magnitudes[2 * x + 1];
            const int lowerBin = binPairs[2 * x], upperBin = binPairs[2 * x + 1];
            const int blockColumn = x / cellSize, t = x % cellSize;
            if (blockColumn < blocksAcross) addToBlock(blockColumn, t, lower, lowerBin, upper, upperBin);
            if (blockColumn > 0 && blockColumn - 1 < blocksAcross)
                addToBlock(blockColumn - 1, t + cellSize, lower, lowerBin, upper, upperBin);
        }
        // Row pass: this row into the block row that starts in its cell row and the one that starts a cell above.
        const int blockRow = y / cellSize, t = y % cellSize;
        for (int which = 0; which < 2; ++which) {
            const int target = blockRow - which, offset = t + which * cellSize;
            if (target < 0 || target >= blocksDown) continue;
            std::vector<float> &sums = s.blockRowSums[target & 1];
            if (which == 0 && t == 0) std::fill(sums.begin(), sums.end(), 0.f);
            const float first = edgeWeights_[0][offset], second = edgeWeights_[1][offset];
            for (int column = 0; column < blocksAcross; ++column) {
                const float *__restrict from = &s.rowSums[(size_t)column * 2 * bins];
                float *__restrict into = &sums[(size_t)column * blockValues];
                for (int k = 0; k < 2 * bins; ++k) {
                    into[k] += first * from[k];
                    into[2 * bins + k] += second * from[k];
                }
            }
        }
        // A block row is complete after its sixteenth pixel row.
        if (t == cellSize - 1 && blockRow >= 1 && blockRow - 1 < blocksDown) {
            const int done = blockRow - 1;
            const float *sums = s.blockRowSums[done & 1].data();
            float *blocks = &s.blocks[(size_t)done * blockRowValues];
            for (int column = 0; column < blocksAcross; ++column)
                normalizeInto(sums + (size_t)column * blockValues, blocks + (size_t)column * blockValues);
        }
    }

    // Each window: its 105 blocks against the SVM, each block's products summed in float and the blocks in double,
    // as OpenCV does (scores agree to about 1e-6).
    for (int windowY = 0; windowY < windowsDown; ++windowY) {
        for (int windowX = 0; windowX < windowsAcross; ++windowX) {
            double score = bias_;
            const float *weights = svm_.data();
            for (int across = 0; across < windowBlocksAcross; ++across) {
                const int column = windowX * blockStep + across;
                const float *block = &s.blocks[((size_t)windowY * blockStep * blocksAcross + column) * blockValues];
                for (int down = 0; down < windowBlocksDown; ++down, weights += blockValues, block += blockRowValues)
                    score += dot36(block, weights);
            }
            if (score >= hitThreshold) {
                hits.emplace_back(windowX * windowStride, windowY * windowStride);
                scores.push_back(score);
            }
        }
    }
}

}  // namespace slcv
