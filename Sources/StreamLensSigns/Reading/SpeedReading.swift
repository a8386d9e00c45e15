/// A speed value read from one sighting of a sign, with the OCR's confidence (0…1).
public struct SpeedReading: Sendable, Equatable {
    public var value: Int
    public var confidence: Double
    /// The last digit is a "0" because the glyph has its shape (``ZeroShape``), not because Tesseract read it so.
    var lastDigitFromShape = false
    /// Only the template matcher named it (``DiscTemplateMatcher``): no reader saw the digits, not even in part, so
    /// ``SignVote`` wants more such reads before it believes them.
    var namedByTemplatesOnly = false
    /// For a template match: how far its value's correlation led every other value's (``SignVote`` believes two
    /// clear leads where it wants three narrow ones).
    var templateLead: Double?

    public init(value: Int, confidence: Double) {
        self.value = value
        self.confidence = confidence
    }
}

/// Turns raw OCR text into a speed value: repairs the usual confusions where the digit blobs back them up, then keeps
/// only values the region's signs can show.
enum SpeedTextInterpreter {
    /// Letters Tesseract outputs for digits on road fonts.
    static let confusions: [Character: Character] = [
        "O": "0", "o": "0", "D": "0", "S": "5", "s": "5", "B": "8", "I": "1", "l": "1", "|": "1",
    ]

    /// The speed in `text`, or nil when the text is not a speed of `profile`.
    ///
    /// Without a `layout` only plain digits are accepted. With one, the blobs are the evidence:
    /// - letters become their look-alike digits (O→0, S→5, B→8, I/l→1), and the result must have as many digits as
    ///   the blobs hold;
    /// - a narrow blob is a "1" (no other digit is that narrow): a read that puts another digit there is rejected,
    ///   and ones the OCR dropped are restored when the other blobs account for the rest of the text exactly
    ///   ("00" on [narrow, wide, wide] → 100, "0" on [narrow, narrow, wide] → 110).
    static func interpret(
        text rawText: String, confidence: Double, layout: DigitLayout?, profile: SpeedLimitProfile
    ) -> SpeedReading? {
        let text = rawText.filter { !$0.isWhitespace }
        guard !text.isEmpty, text.count <= 3 else { return nil }
        var digits: [Character] = []
        if let layout {
            for character in text {
                guard let digit = character.isASCII && character.isNumber ? character : confusions[character] else {
                    return nil
                }
                digits.append(digit)
            }
            if layout.glyphsAreDigits {
                if digits.count < layout.glyphCount {
                    guard let restored = restoreOnes(digits, layout: layout) else { return nil }
                    digits = restored
                }
                // A narrow stroke read as anything but 1 is a misread.
                for index in digits.indices where layout.isNarrow(index) && digits[index] != "1" { return nil }
            }
            guard digits.count == layout.estimatedDigitCount else { return nil }
        } else {
            guard text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            digits = Array(text)
        }
        // A soft "0" that Tesseract read as another digit ("59", "72"): the glyph's shape names it.
        var lastDigitFromShape = false
        if let layout, layout.glyphsAreDigits, layout.lastGlyphLooksLikeZero, digits.count >= 2, digits.last != "0",
            let value = Int(String(digits)), !profile.allows(value)
        {
            digits[digits.count - 1] = "0"
            lastDigitFromShape = true
        }
        guard digits.first != "0", let value = Int(String(digits)), profile.allows(value) else { return nil }
        var reading = SpeedReading(value: value, confidence: confidence)
        reading.lastDigitFromShape = lastDigitFromShape
        return reading
    }

    /// Rebuilds the digits glyph by glyph: narrow glyphs are ones, wide glyphs take the read's other digits in order.
    /// Nil unless the wide glyphs match those digits one for one.
    private static func restoreOnes(_ digits: [Character], layout: DigitLayout) -> [Character]? {
        let others = digits.filter { $0 != "1" }
        let wideCount = (0..<layout.glyphCount).filter { !layout.isNarrow($0) }.count
        guard others.count == wideCount else { return nil }
        var rebuilt: [Character] = []
        var next = others.makeIterator()
        for index in 0..<layout.glyphCount {
            if layout.isNarrow(index) {
                rebuilt.append("1")
            } else if let digit = next.next() {
                rebuilt.append(digit)
            }
        }
        return rebuilt
    }
}
