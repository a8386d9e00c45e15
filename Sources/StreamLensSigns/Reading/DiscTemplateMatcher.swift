internal import COpenCVSigns

/// The reader's fourth recogniser: which speed value a soft or smeared disc shows, by correlating the disc with
/// rendered templates of every European value — road fonts at three digit sizes, each blurred and smeared as small
/// real discs arrive (COpenCVSigns, disc_template_matcher.cpp; templates from scripts/generate/make-disc-templates.py,
/// compiled in). It reads the shape of the whole number where the text line and Tesseract see merged strokes.
///
/// Owns the bridge handle; `deinit` is its only release site.
///
/// ## Thread Safety
/// Not synchronized: the handle keeps OpenCV's working buffers. One matcher per analysis thread.
final class DiscTemplateMatcher {
    /// How one disc matched.
    struct Match: Equatable, Sendable {
        /// The value whose templates correlate best, or nil when another sign's text (7,5t, 3,8m…) does, or for a
        /// flat picture.
        var value: Int?
        /// Its normalised cross-correlation, −1…1.
        var score: Double
        /// How far it leads the best template of any other value.
        var margin: Double
    }

    private let handle: OpaquePointer
    private var result = slcv_disc_match()
    private var errorBuffer = [CChar](repeating: 0, count: 256)

    /// Nil when the bridge could not build the templates (out of memory): the reader then goes without them.
    /// `usesOpenCVProduct`: correlate with OpenCV's `cv::gemm` instead of the bridge's own product — the same
    /// correlations up to float rounding, several times slower; for the check of the own product.
    init?(usesOpenCVProduct: Bool = false) {
        var handle: OpaquePointer?
        let status = errorBuffer.withUnsafeMutableBufferPointer {
            slcv_disc_templates_create(&handle, $0.baseAddress, $0.count)
        }
        guard status == SLCV_OK, let handle else { return nil }
        self.handle = handle
        if usesOpenCVProduct { slcv_disc_templates_use_opencv_product(handle, 1) }
    }

    deinit { slcv_disc_templates_destroy(handle) }

    /// Matches a `side` × `side` grey picture of a disc (dark digits on white, outside the disc white), or nil when
    /// OpenCV fails (the candidate then simply has no fourth opinion).
    func match(gray: UnsafePointer<UInt8>, side: Int) -> Match? {
        let status = errorBuffer.withUnsafeMutableBufferPointer { error in
            slcv_disc_templates_match(
                handle, gray, Int32(side), Int32(side), Int32(side), &result, error.baseAddress, error.count)
        }
        guard status == SLCV_OK else { return nil }
        return Match(
            value: result.value > 0 ? Int(result.value) : nil, score: Double(result.score),
            margin: Double(result.score - result.runner_up_score))
    }
}
