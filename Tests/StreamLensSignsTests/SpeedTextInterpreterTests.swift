import Testing

@testable import StreamLensSigns

struct SpeedTextInterpreterTests {
    /// `n` = narrow glyph (a "1"), `w` = wide glyph; nil layout = no blob evidence.
    static func layout(_ glyphs: String?, estimated: Int? = nil) -> DigitLayout? {
        glyphs.map { DigitLayout(narrow: $0.map { $0 == "n" }, estimatedDigitCount: estimated) }
    }

    @Test(arguments: [
        // Plain reads.
        ("60", "ww", 60),
        ("130", "nww", 130),
        ("5", "w", 5),
        (" 9 0 ", "ww", 90),  // whitespace inside the line
        // Letter-for-digit repairs where the blob count backs them.
        ("6O", "ww", 60),
        ("S0", "ww", 50),
        ("B0", "ww", 80),
        ("I20", "nww", 120),
        ("l00", "nww", 100),
        // Ones the OCR dropped, restored from narrow blobs.
        ("00", "nww", 100),
        ("10", "nnw", 110),
        ("0", "nnw", 110),
        ("20", "nww", 120),
    ] as [(String, String, Int)])
    func readsAndRepairs(text: String, glyphs: String, expected: Int) {
        let reading = SpeedTextInterpreter.interpret(
            text: text, confidence: 0.9, layout: Self.layout(glyphs), profile: .europe)
        #expect(reading == SpeedReading(value: expected, confidence: 0.9))
    }

    @Test(arguments: [
        ("65", "ww"),  // not a European limit
        ("55", "ww"),
        ("140", "nww"),  // above 130
        ("05", "ww"),  // leading zero
        ("7t", "ww"),  // a unit, not a digit
        ("6O", nil),  // a letter without blob evidence
        ("60", "www"),  // the blobs show three digits, the text two
        ("600", "ww"),  // and the other way round
        ("70", "nw"),  // a narrow stroke read as 7
        ("0", "nww"),  // the other blobs do not account for the text
        ("", "ww"),
        ("1000", "nwww"),
    ] as [(String, String?)])
    func rejects(text: String, glyphs: String?) {
        #expect(
            SpeedTextInterpreter.interpret(text: text, confidence: 0.99, layout: Self.layout(glyphs), profile: .europe)
                == nil)
    }

    @Test func touchingDigitsCountAsTheirEstimate() {
        // "00" merged into one wide blob after blur: one glyph estimated as two digits.
        let merged = DigitLayout(narrow: [false], estimatedDigitCount: 2)
        #expect(SpeedTextInterpreter.interpret(text: "80", confidence: 0.8, layout: merged, profile: .europe)?.value == 80)
        #expect(SpeedTextInterpreter.interpret(text: "8", confidence: 0.8, layout: merged, profile: .europe) == nil)
    }

    @Test(arguments: [(55, true), (85, true), (5, true), (60, true), (90, false), (52, false), (0, false)])
    func unitedStatesProfileKeepsStepsOfFive(value: Int, allowed: Bool) {
        #expect(SpeedLimitProfile.unitedStates.allows(value) == allowed)
        let reading = SpeedTextInterpreter.interpret(
            text: String(value), confidence: 0.9, layout: nil, profile: .unitedStates)
        #expect((reading?.value == value) == allowed)
    }

    @Test(arguments: [(5, true), (10, true), (130, true), (15, false), (140, false), (0, false), (55, false)])
    func europeanProfile(value: Int, allowed: Bool) {
        #expect(SpeedLimitProfile.europe.allows(value) == allowed)
    }

    @Test func profilesByName() {
        #expect(SpeedLimitProfile.named("EU") == .europe)
        #expect(SpeedLimitProfile.named("us") == .unitedStates)
        #expect(SpeedLimitProfile.named("mars") == nil)
        #expect(SpeedLimitProfile.unitedStates.unit == "mph")
    }
}
