/// What the digit segmentation saw inside a ring: evidence that OCR repairs may rely on.
struct DigitLayout: Equatable, Sendable {
    /// Dark glyph blobs of digit height, left to right.
    var glyphCount: Int
    /// Digits those blobs most likely hold (a wide blob counts as touching digits).
    var estimatedDigitCount: Int
    /// The first glyph is a narrow stroke, as a "1" is.
    var leadingGlyphIsNarrow: Bool
}

/// Why a ring was not passed to OCR.
enum CropRejection: Equatable, Sendable {
    /// The ring is too close to the frame edge to cut out its inside.
    case outsideFrame
    /// The inside has too little contrast to hold dark digits on a bright disc.
    case lowContrast
    /// Too little or too much dark ink for digits.
    case inkShare
    /// No dark blob of digit height sits across the middle.
    case noDigits
    /// Marks that are not digits (letters, units, symbols) sit beside the digits.
    case extraMarks
    /// The digits are not centred on the disc: one is probably missing.
    case offCentre
}

/// The result of preparing a candidate for OCR.
enum CropOutcome: Equatable, Sendable {
    /// Digits were found; the OCR picture is ready.
    case digits(DigitLayout)
    /// The candidate was dropped before OCR.
    case rejected(CropRejection)
}
