// The speed-limit reader's fourth recogniser: which speed value a soft or smeared disc shows, by correlating the
// disc with rendered templates of every value (analysis by synthesis) instead of reading glyphs.
//
// Small, blurred real discs keep the shape of their digits long after their strokes have merged: a person still
// reads "90" where the text line and Tesseract see blobs. So the templates (scripts/generate/make-disc-templates.py: road
// fonts, three digit sizes) are blurred and smeared here as such discs are, and the disc's best normalised
// cross-correlation with each value's templates, over shifts of up to a fourteenth of the disc, says which value it
// is. Templates of value 0 hold the texts of other round signs (7,5t, 3,8m…): a disc that matches one of them best
// is no speed. All the correlations are one matrix product: the disc's shifted windows (rows) by the templates
// (columns), each normalised to zero mean and unit length beforehand — what cv::matchTemplate's TM_CCOEFF_NORMED
// computes, but one product instead of one call per template (672 matchTemplate calls took 18.6 ms, cv::gemm's
// product 3.8 ms). The product is the bridge's own (``bestCorrelations``): cv::gemm runs a plain loop for a product
// this shape (25 rows: below the size where Debian's OpenCV hands it to BLAS, itself the reference BLAS), and the
// own one is several times faster. The templates are normalised once, at start-up.
#include "opencv_signs.h"
#include "Generated/disc_templates.hpp"
#include "opencv_guarded.hpp"

#include <opencv2/core.hpp>
#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace {
/// How each template is blurred before matching, in samples of the classifier's 72-sample disc: a Gaussian (focus)
/// and, when `motionLength72` is set, a horizontal box of that length after it (the camera panning or shaking). Soft
/// and very soft, still and smeared. Sharp templates add nothing (sharp discs are read by Tesseract; on the second
/// real set the matcher was as right without them) and would cost a quarter more. The smeared ones replaced a third
/// Gaussian (sigma 6): GTSRB held-out 22 → 24 signs read, the second set 70 either way, no wrong value.
struct TemplateBlur {
    double sigma72;
    double motionLength72;
};
constexpr TemplateBlur kTemplateBlurs[] = {{2, 0}, {4, 0}, {2, 8}, {2, 16}};
constexpr int kBlurCount = sizeof(kTemplateBlurs) / sizeof(kTemplateBlurs[0]);
/// Samples cut from each side of a template: the disc may sit this far off the candidate's centre (2 of 28, a
/// fourteenth of the disc; 3 cost twice the products and let more wrong values through on the second real set).
constexpr int kShiftRange = 2;
constexpr int kWindowSide = kDiscTemplateSide - 2 * kShiftRange;
constexpr int kWindowSamples = kWindowSide * kWindowSide;
constexpr int kShiftCount = (2 * kShiftRange + 1) * (2 * kShiftRange + 1);

/// Subtracts the mean and scales to unit length; false (and all zeros) for a flat window.
bool normalise(float *values, int count) {
    double sum = 0;
    for (int i = 0; i < count; ++i) sum += values[i];
    const float mean = static_cast<float>(sum / count);
    double squares = 0;
    for (int i = 0; i < count; ++i) {
        values[i] -= mean;
        squares += static_cast<double>(values[i]) * values[i];
    }
    if (squares < 1e-6) {
        std::fill(values, values + count, 0.0f);
        return false;
    }
    const float scale = static_cast<float>(1.0 / std::sqrt(squares));
    for (int i = 0; i < count; ++i) values[i] *= scale;
    return true;
}

static_assert(kShiftCount % 5 == 0 && kWindowSamples % 4 == 0, "the product's blocks: five windows, four samples");

/// The best correlation of each template (a row of `templateRows`) with any of the shifted `windows`, into `best`.
/// Five windows at a time against one template, four samples at a time: each template sample loaded is used five
/// times, and the windows (57 KB) stay in the cache while the templates (2.2 MB) stream past once.
void bestCorrelations(const cv::Mat &windows, const cv::Mat &templateRows, std::vector<float> &best) {
    best.assign(templateRows.rows, -1.0f);
    for (int column = 0; column < templateRows.rows; ++column) {
        const float *pattern = templateRows.ptr<float>(column);
        float columnBest = -1.0f;
        for (int shift = 0; shift < kShiftCount; shift += 5) {
            const float *w0 = windows.ptr<float>(shift);
            const float *w1 = windows.ptr<float>(shift + 1);
            const float *w2 = windows.ptr<float>(shift + 2);
            const float *w3 = windows.ptr<float>(shift + 3);
            const float *w4 = windows.ptr<float>(shift + 4);
            cv::v_float32x4 s0 = cv::v_setzero_f32(), s1 = s0, s2 = s0, s3 = s0, s4 = s0;
            for (int i = 0; i < kWindowSamples; i += 4) {
                const cv::v_float32x4 t = cv::v_load(pattern + i);
                s0 = cv::v_muladd(cv::v_load(w0 + i), t, s0);
                s1 = cv::v_muladd(cv::v_load(w1 + i), t, s1);
                s2 = cv::v_muladd(cv::v_load(w2 + i), t, s2);
                s3 = cv::v_muladd(cv::v_load(w3 + i), t, s3);
                s4 = cv::v_muladd(cv::v_load(w4 + i), t, s4);
            }
            columnBest = std::max({columnBest, cv::v_reduce_sum(s0), cv::v_reduce_sum(s1), cv::v_reduce_sum(s2),
                cv::v_reduce_sum(s3), cv::v_reduce_sum(s4)});
        }
        best[column] = columnBest;
    }
}

/// The same with cv::gemm (the check and the benchmark's peer).
void bestCorrelationsByOpenCV(
    const cv::Mat &windows, const cv::Mat &templateRows, cv::Mat &correlations, std::vector<float> &best) {
    cv::gemm(windows, templateRows, 1.0, cv::noArray(), 0.0, correlations, cv::GEMM_2_T);
    best.assign(templateRows.rows, -1.0f);
    for (int column = 0; column < templateRows.rows; ++column) {
        for (int shift = 0; shift < kShiftCount; ++shift) {
            best[column] = std::max(best[column], correlations.at<float>(shift, column));
        }
    }
}
}  // namespace

struct slcv_disc_templates {
    /// (templates × blurs) × kWindowSamples: one normalised template window per row.
    cv::Mat templateRows;
    /// The speed value of each template row.
    std::vector<int> values;
    /// The picture shrunk to the template side, its shifted windows (kShiftCount × kWindowSamples), each template's
    /// best correlation with them, and (OpenCV's product only) all the correlations.
    cv::Mat small;
    cv::Mat windows;
    std::vector<float> best;
    cv::Mat correlations;
    bool usesOpenCVProduct = false;
};

using slcv::guarded;
using slcv::writeError;

extern "C" {

slcv_status slcv_disc_templates_create(slcv_disc_templates **templates, char *error, size_t error_capacity) {
    return slcv::makeHandle(
        templates, error, error_capacity, SLCV_LOAD_FAILED, "disc templates", [](slcv_disc_templates &made) {
            const int columns = kDiscTemplateCount * kBlurCount;
            made.templateRows.create(columns, kWindowSamples, CV_32F);
            made.values.reserve(columns);
            cv::Mat paper(kDiscTemplateSide, kDiscTemplateSide, CV_32F);
            cv::Mat blurred;
            std::vector<float> window(kWindowSamples);
            for (int t = 0; t < kDiscTemplateCount; ++t) {
                const char *ink = kDiscTemplateInk[t];
                for (int i = 0; i < kDiscTemplateSide * kDiscTemplateSide; ++i) {
                    const char digit = ink[i];
                    const int level = digit <= '9' ? digit - '0' : digit - 'a' + 10;
                    paper.at<float>(i / kDiscTemplateSide, i % kDiscTemplateSide) = 1.0f - level / 15.0f;
                }
                for (int b = 0; b < kBlurCount; ++b) {
                    const TemplateBlur &blur = kTemplateBlurs[b];
                    const double sigma = blur.sigma72 * kDiscTemplateSide / 72.0;
                    if (sigma > 0) cv::GaussianBlur(paper, blurred, cv::Size(), sigma);
                    else paper.copyTo(blurred);
                    if (blur.motionLength72 > 0) {
                        const int length =
                            std::max(2, static_cast<int>(std::lround(blur.motionLength72 * kDiscTemplateSide / 72.0)));
                        cv::blur(blurred, blurred, cv::Size(length, 1), cv::Point(-1, -1), cv::BORDER_REPLICATE);
                    }
                    for (int y = 0; y < kWindowSide; ++y) {
                        for (int x = 0; x < kWindowSide; ++x) {
                            window[y * kWindowSide + x] = blurred.at<float>(y + kShiftRange, x + kShiftRange);
                        }
                    }
                    normalise(window.data(), kWindowSamples);
                    std::copy(window.begin(), window.end(), made.templateRows.ptr<float>(t * kBlurCount + b));
                    made.values.push_back(kDiscTemplateValues[t]);
                }
            }
            made.windows.create(kShiftCount, kWindowSamples, CV_32F);
        });
}

slcv_status slcv_disc_templates_match(
    slcv_disc_templates *templates, const uint8_t *gray, int32_t stride, int32_t width, int32_t height,
    slcv_disc_match *match, char *error, size_t error_capacity) {
    if (templates == nullptr || gray == nullptr || match == nullptr || width < 8 || height < 8 || stride < width) {
        writeError(error, error_capacity, "disc templates: invalid argument");
        return SLCV_INVALID_ARGUMENT;
    }
    *match = slcv_disc_match{0, -1.0f, -1.0f};
    return guarded(error, error_capacity, SLCV_OPENCV_ERROR, "disc templates", [&] {
        // A borrowed view: OpenCV does not copy or free the caller's pixels.
        const cv::Mat picture(height, width, CV_8UC1, const_cast<uint8_t *>(gray), static_cast<size_t>(stride));
        cv::resize(picture, templates->small, cv::Size(kDiscTemplateSide, kDiscTemplateSide), 0, 0, cv::INTER_AREA);
        bool anyInk = false;
        int row = 0;
        for (int dy = 0; dy <= 2 * kShiftRange; ++dy) {
            for (int dx = 0; dx <= 2 * kShiftRange; ++dx, ++row) {
                float *window = templates->windows.ptr<float>(row);
                for (int y = 0; y < kWindowSide; ++y) {
                    const uint8_t *source = templates->small.ptr<uint8_t>(y + dy) + dx;
                    for (int x = 0; x < kWindowSide; ++x) window[y * kWindowSide + x] = source[x];
                }
                anyInk = normalise(window, kWindowSamples) || anyInk;
            }
        }
        if (!anyInk) return;
        if (templates->usesOpenCVProduct) {
            bestCorrelationsByOpenCV(
                templates->windows, templates->templateRows, templates->correlations, templates->best);
        } else {
            bestCorrelations(templates->windows, templates->templateRows, templates->best);
        }
        // The best correlation of each value over all its templates and shifts.
        int bestValue = 0;
        float best = -1.0f;
        float runnerUp = -1.0f;
        for (int column = 0; column < templates->templateRows.rows; ++column) {
            const float columnBest = templates->best[column];
            const int value = templates->values[column];
            if (columnBest > best) {
                if (value != bestValue) runnerUp = best;
                best = columnBest;
                bestValue = value;
            } else if (value != bestValue && columnBest > runnerUp) {
                runnerUp = columnBest;
            }
        }
        // Value 0 (another sign's text) wins as "no speed value".
        *match = slcv_disc_match{bestValue, best, runnerUp};
    });
}

void slcv_disc_templates_use_opencv_product(slcv_disc_templates *templates, int32_t uses) {
    if (templates != nullptr) templates->usesOpenCVProduct = uses != 0;
}

void slcv_disc_templates_destroy(slcv_disc_templates *templates) { delete templates; }

}  // extern "C"
