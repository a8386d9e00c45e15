/// One way of normalising a ring's inner disc before its digits are cut out for OCR.
///
/// A real sign photographed soft, dim or backlit binarises differently with every choice: a crop that reaches the
/// ring keeps a dark arc that joins the digits, a single threshold merges soft strokes with the grey around them.
/// ``DiscReader`` tries a few variants per candidate — two crop scales, a global and a local threshold — and votes
/// across what they read.
struct DiscVariant: Equatable, Sendable {
    /// How ink is told from paper after the illumination is flattened.
    enum Binarisation: Equatable, Sendable {
        /// Otsu's threshold over the whole disc.
        case otsu
        /// Darker than the mean of the `window`-wide square around the sample (canvas samples).
        case localMean(window: Int)
    }

    /// Radius of the cut-out disc as a share of the ring's inner radius: a smaller share is a larger scale and leaves
    /// more of the ring's inner edge outside the crop.
    var innerRadiusShare: Double
    var binarisation: Binarisation
    /// Pieces of ink above each other count as one glyph (a soft "5" breaks into its flag and its bowl).
    var joinsStackedPieces = false

    /// The cropper's first choice, tuned on rendered signs: the whole disc and Otsu's threshold.
    static let standard = DiscVariant(innerRadiusShare: DigitCropper.standardInnerRadiusShare, binarisation: .otsu)

    /// The variants ``DiscReader`` tries, in order (the standard one first, so clean signs cost one OCR call).
    static let tried: [DiscVariant] = [
        .standard,
        DiscVariant(innerRadiusShare: 1.03, binarisation: .otsu, joinsStackedPieces: true),
        DiscVariant(innerRadiusShare: 0.9, binarisation: .otsu, joinsStackedPieces: true),
        DiscVariant(innerRadiusShare: 1.03, binarisation: .localMean(window: 17), joinsStackedPieces: true),
        DiscVariant(innerRadiusShare: 0.95, binarisation: .localMean(window: 25), joinsStackedPieces: true),
    ]
}
