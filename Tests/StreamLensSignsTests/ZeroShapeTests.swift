import Testing

@testable import StreamLensSigns

/// The "0" shape check and what the reader makes of it: drawn stroke digits (box 20 × 32) as fixtures.
struct ZeroShapeTests {
    typealias Glyph = @Sendable (Double, Double) -> Bool

    /// Distance from the centre of an ellipse in units of its radii.
    static func ellipse(_ u: Double, _ v: Double, cu: Double, cv: Double, ru: Double, rv: Double) -> Double {
        let du = (u - cu) / ru
        let dv = (v - cv) / rv
        return (du * du + dv * dv).squareRoot()
    }

    static func ring(_ u: Double, _ v: Double, cv: Double = 0.5, rv: Double = 0.48) -> Bool {
        let d = ellipse(u, v, cu: 0.5, cv: cv, ru: 0.48, rv: rv)
        return d > 0.6 && d <= 1
    }

    static func bar(_ value: Double, _ from: Double, _ to: Double) -> Bool { value >= from && value <= to }

    static let zero: Glyph = { ring($0, $1) }
    /// A soft "0" that binarised into two C halves (top and bottom of the oval lost).
    static let brokenZero: Glyph = { ring($0, $1) && abs($0 - 0.5) > 0.12 }
    static let eight: Glyph = { ring($0, $1, cv: 0.26, rv: 0.25) || ring($0, $1, cv: 0.74, rv: 0.25) }
    static let nine: Glyph = { u, v in
        ring(u, v, cv: 0.3, rv: 0.29) || (bar(u, 0.8, 0.98) && bar(v, 0.3, 0.8)) || (bar(v, 0.88, 1) && bar(u, 0.2, 0.85))
    }
    static let six: Glyph = { u, v in
        ring(u, v, cv: 0.7, rv: 0.29) || (bar(u, 0.02, 0.2) && bar(v, 0.2, 0.7)) || (bar(v, 0, 0.12) && bar(u, 0.15, 0.8))
    }
    static let three: Glyph = { u, v in
        (bar(u, 0.8, 1) && bar(v, 0, 1)) || ([0.0, 0.45, 0.88].contains { bar(v, $0, $0 + 0.12) } && bar(u, 0.1, 1))
    }
    static let two: Glyph = { u, v in
        [0.0, 0.45, 0.88].contains { bar(v, $0, $0 + 0.12) } || (bar(u, 0.8, 1) && bar(v, 0, 0.5)) || (bar(u, 0, 0.2) && bar(v, 0.5, 1))
    }
    static let five: Glyph = { u, v in
        [0.0, 0.45, 0.88].contains { bar(v, $0, $0 + 0.12) } || (bar(u, 0, 0.2) && bar(v, 0, 0.5)) || (bar(u, 0.8, 1) && bar(v, 0.5, 1))
    }

    static func matches(_ glyph: Glyph, width: Int = 20, height: Int = 32) -> Bool {
        ZeroShape.matches(width: width, height: height) { x, y in
            glyph((Double(x) + 0.5) / Double(width), (Double(y) + 0.5) / Double(height))
        }
    }

    @Test func zerosPassWholeOrBroken() {
        #expect(Self.matches(Self.zero))
        #expect(Self.matches(Self.brokenZero))
        #expect(Self.matches(Self.zero, width: 9, height: 14))  // a small sign's glyph
    }

    @Test(arguments: ["8", "9", "6", "3", "2", "5"])
    func theDigitsTesseractConfusesItWithFail(name: String) {
        let glyph: Glyph = switch name {
        case "8": Self.eight
        case "9": Self.nine
        case "6": Self.six
        case "3": Self.three
        case "2": Self.two
        default: Self.five
        }
        #expect(!Self.matches(glyph), "\(name)")
    }

    @Test func aOneOrTouchingDigitsAreNotAZero() {
        #expect(!Self.matches(Self.zero, width: 6, height: 32))  // narrow as a 1
        #expect(!Self.matches(Self.zero, width: 40, height: 32))  // wide as two digits
    }

    static func zeroLayout(_ glyphs: Int = 2) -> DigitLayout {
        var layout = DigitLayout(narrow: Array(repeating: false, count: glyphs))
        layout.lastGlyphLooksLikeZero = true
        return layout
    }

    @Test(arguments: [("59", 50), ("72", 70), ("73", 70), ("S9", 50), ("138", 130)] as [(String, Int)])
    func aMisreadZeroIsRestoredFromItsShape(text: String, expected: Int) throws {
        let layout = Self.zeroLayout(text.count)
        let reading = try #require(
            SpeedTextInterpreter.interpret(text: text, confidence: 0.8, layout: layout, profile: .europe))
        #expect(reading.value == expected)
        #expect(reading.lastDigitFromShape)
    }

    @Test func withoutTheShapeOrWhenTheReadIsValidNothingChanges() throws {
        let plain = DigitLayout(narrow: [false, false])
        #expect(SpeedTextInterpreter.interpret(text: "59", confidence: 0.8, layout: plain, profile: .europe) == nil)
        let valid = try #require(
            SpeedTextInterpreter.interpret(text: "50", confidence: 0.8, layout: Self.zeroLayout(), profile: .europe))
        #expect(valid.value == 50 && !valid.lastDigitFromShape)
        // US limits may end in 5: a read that is already a US value keeps its digit.
        let us = try #require(
            SpeedTextInterpreter.interpret(text: "55", confidence: 0.8, layout: Self.zeroLayout(), profile: .unitedStates))
        #expect(us.value == 55 && !us.lastDigitFromShape)
        // The first digit is never invented: "09" stays no speed.
        #expect(SpeedTextInterpreter.interpret(text: "09", confidence: 0.8, layout: Self.zeroLayout(), profile: .europe) == nil)
    }

    @Test(arguments: [
        (SpeedDiscClassifier.Verdict?.none, 50 as Int?),
        (SpeedDiscClassifier.Verdict(value: nil, confidence: 0.9), 50),  // "not a speed" does not name another value
        (SpeedDiscClassifier.Verdict(value: 50, confidence: 0.9), 50),
        (SpeedDiscClassifier.Verdict(value: 30, confidence: 0.4), 50),  // unsure
        (SpeedDiscClassifier.Verdict(value: 30, confidence: 0.6), nil),  // names another value: silenced
    ])
    func aShapeRepairedReadYieldsToTheClassifiersOtherValue(verdict: SpeedDiscClassifier.Verdict?, expected: Int?) {
        var read = SpeedReading(value: 50, confidence: 0.9)
        read.lastDigitFromShape = true
        let evidence = RecogniserAgreement.TesseractEvidence(
            decision: read, standardVariantAgrees: true, validReads: [read], texts: ["59"])
        let decision = RecogniserAgreement().decide(tesseract: evidence, classifier: verdict, minimumConfidence: 0.7)
        #expect(decision?.value == expected)
        // An ordinary read is not held to this (the classifier does not veto the standard crop by default).
        let ordinary = RecogniserAgreement().decide(
            tesseract: RecogniserAgreement.TesseractEvidence(
                decision: SpeedReading(value: 50, confidence: 0.9), standardVariantAgrees: true, validReads: [],
                texts: ["50"]),
            classifier: verdict, minimumConfidence: 0.7)
        #expect(ordinary?.value == 50)
    }
}
