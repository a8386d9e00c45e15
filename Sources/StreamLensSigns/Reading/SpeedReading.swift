/// A speed value read from one sighting of a sign, with the OCR's confidence (0…1).
public struct SpeedReading: Sendable, Equatable {
    public var value: Int
    public var confidence: Double

    public init(value: Int, confidence: Double) {
        self.value = value
        self.confidence = confidence
    }
}

/// Turns raw OCR text into a speed value: repairs the usual letter-for-digit confusions where the digit blobs back
/// them up, then keeps only values the region's signs can show.
enum SpeedTextInterpreter {
    /// Letters Tesseract outputs for digits on road fonts.
    static let confusions: [Character: Character] = ["O": "0", "o": "0", "D": "0", "S": "5", "s": "5", "B": "8", "I": "1", "l": "1", "|": "1"]

    /// The speed in `text`, or nil when the text is not a speed of `profile`.
    ///
    /// - Letters become digits only when `layout` saw as many digit-shaped blobs as the text has characters (each
    ///   letter then sits on a digit's blob); without that evidence a letter rejects the read.
    /// - A missing "1" is restored when the blobs show one more digit than the text and the first is a narrow
    ///   stroke ("00" → 100, "10" → 110): thin ones are what OCR drops most, and only the leading digit of a speed
    ///   is ever a 1 beside other digits of three.
    static func interpret(
        text rawText: String, confidence: Double, layout: DigitLayout?, profile: SpeedLimitProfile
    ) -> SpeedReading? {
        var text = rawText.filter { !$0.isWhitespace }
        guard !text.isEmpty, text.count <= 3 else { return nil }
        if text.contains(where: { !$0.isASCII || !$0.isNumber }) {
            guard let layout, layout.estimatedDigitCount == text.count else { return nil }
            var repaired = ""
            for character in text {
                if character.isASCII, character.isNumber {
                    repaired.append(character)
                } else if let digit = confusions[character] {
                    repaired.append(digit)
                } else {
                    return nil
                }
            }
            text = repaired
        }
        if let layout, layout.estimatedDigitCount == text.count + 1, layout.leadingGlyphIsNarrow {
            text = "1" + text
        }
        guard text.first != "0", let value = Int(text), profile.allows(value) else { return nil }
        return SpeedReading(value: value, confidence: confidence)
    }
}
