import StreamLensCore
import StreamLensText
import Testing

@testable import StreamLensCompositing

/// The speed beside the limit badge: white under the limit plus its tolerance, red above it, nothing while unknown.
@Suite struct SpeedReadoutAnnotatorTests {
    static func readout(metresPerSecond: Double?) -> SpeedReadoutAnnotator {
        SpeedReadoutAnnotator(
            badge: SpeedLimitBadgeAnnotator(corner: .topRight, diameterFraction: 0.25, marginFraction: 0.05),
            source: .init(unit: "km/h", speed: { _ in metresPerSecond }, tolerance: { max(0.05 * $0, 3) }))
    }

    static let sixty = [Detection(box: BoundingBox(x: 10, y: 10, width: 30, height: 30), className: "speed_limit", confidence: 0.9, text: "60")]

    @Test(arguments: [
        (20.0, 72, true),  // 72 km/h under a 60: over 63
        (17.5, 63, false),  // 63 km/h: the tolerance itself is not over
        (17.6, 63, true),  // 63.36 km/h, shown rounded
    ])
    func readingAgainstTheBadgesLimit(metresPerSecond: Double, shown: Int, over: Bool) throws {
        let reading = try #require(Self.readout(metresPerSecond: metresPerSecond).reading(context(Self.sixty)))
        #expect(reading.speed == shown && reading.over == over)
    }

    @Test func withoutALimitTheSpeedIsNeverRed() throws {
        let reading = try #require(Self.readout(metresPerSecond: 40).reading(context([])))
        #expect(reading.speed == 144 && !reading.over)
    }

    /// The largest red-difference chroma (V) left of the badge: the text's colour shows there.
    static func reddestLeftOfBadge(_ frame: TestFrame) -> UInt8 {
        // 320 × 240: the 60 px badge spans x 248…307, y 12…71; the text (20 px high) ends 6 px left of it. In chroma
        // samples: x 40…123, y 6…39 covers it.
        var reddest: UInt8 = 0
        for y in 6..<40 { for x in 40..<124 { reddest = max(reddest, frame.chroma(x, y).v) } }
        return reddest
    }

    @Test func overIsRedAndUnderIsWhite() {
        let over = TestFrame.uniform(width: 320, height: 240, y: 90, u: 128, v: 128)
        over.withPlanes { Self.readout(metresPerSecond: 20).draw(on: $0, context: context(Self.sixty)) }
        #expect(Self.reddestLeftOfBadge(over) > 170)
        #expect(over.luma(10, 230) == 90)

        let under = TestFrame.uniform(width: 320, height: 240, y: 90, u: 128, v: 128)
        under.withPlanes { Self.readout(metresPerSecond: 15).draw(on: $0, context: context(Self.sixty)) }
        #expect(Self.reddestLeftOfBadge(under) <= 130)
        #expect(under.y.contains(where: { $0 > 200 }))
    }

    @Test func anUnknownSpeedDrawsNothing() {
        let frame = TestFrame.uniform(width: 320, height: 240, y: 90, u: 128, v: 128)
        let annotator = Self.readout(metresPerSecond: nil)
        #expect(!annotator.willDraw(context(Self.sixty)))
        frame.withPlanes { annotator.draw(on: $0, context: context(Self.sixty)) }
        #expect(frame.y.allSatisfy { $0 == 90 })
    }
}

extension SpeedReadoutAnnotatorTests {
    @Test(arguments: [(72, "km/h", "72 km/h"), (0, "mph", "0 mph"), (130, "km/h", "130 km/h"), (-3, "km/h", "0 km/h")])
    func theReadingIsFormattedWithoutStrings(speed: Int, unit: String, text: String) {
        var codes: [UInt8] = []
        SpeedReadoutAnnotator.format(speed: speed, unit: unit, into: &codes)
        #expect(String(decoding: codes, as: UTF8.self) == text)
    }
}
