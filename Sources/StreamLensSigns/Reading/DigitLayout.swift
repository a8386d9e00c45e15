/// What the digit segmentation saw inside a ring: evidence that OCR repairs may rely on.
struct DigitLayout: Equatable, Sendable {
    /// Digits the glyph blobs most likely hold (a wide blob counts as touching digits).
    var estimatedDigitCount: Int
    /// Dark glyph blobs of digit height, left to right.
    private(set) var glyphCount = 0
    /// Bit `i` set: glyph `i` is a narrow stroke, as only a "1" is (at most three glyphs).
    private var narrowBits: UInt8 = 0
    /// The last glyph has the shape of a "0" (``ZeroShape``): ink on all four sides, none in the middle.
    var lastGlyphLooksLikeZero = false

    init(estimatedDigitCount: Int) {
        self.estimatedDigitCount = estimatedDigitCount
    }

    /// A layout from a width/height description, for tests: `narrow[i]` for glyph `i`.
    init(narrow: [Bool], estimatedDigitCount: Int? = nil) {
        self.estimatedDigitCount = estimatedDigitCount ?? narrow.count
        for flag in narrow { appendGlyph(narrow: flag) }
    }

    mutating func appendGlyph(narrow: Bool) {
        precondition(glyphCount < 8, "a speed has at most three digits")
        if narrow { narrowBits |= 1 << UInt8(glyphCount) }
        glyphCount += 1
    }

    /// Whether glyph `index` (left to right) is a narrow stroke.
    func isNarrow(_ index: Int) -> Bool { narrowBits & (1 << UInt8(index)) != 0 }

    /// Every blob is one digit (no touching digits): glyph positions map to digit positions.
    var glyphsAreDigits: Bool { glyphCount == estimatedDigitCount }
}

/// Why a ring was not passed to OCR.
enum CropRejection: Error, Equatable, Sendable {
    /// The ring is too close to the frame edge to cut out its inside.
    case outsideFrame
    /// The inside has too little contrast to hold dark digits on a bright disc.
    case lowContrast
    /// Most of the inside is as red as the ring (a red disc, or a blurred ring smeared over the inside).
    case mostlyRed
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
