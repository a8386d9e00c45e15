import Foundation
import StreamLensCore
import Testing

@testable import StreamLensSigns

/// The US locator and number cropper on plates painted straight into YUV planes (exact geometry).
struct UsSignLocatorTests {
    static let black: (y: UInt8, u: UInt8, v: UInt8) = (24, 128, 128)
    static let yellow: (y: UInt8, u: UInt8, v: UInt8) = (210, 16, 146)  // RGB 255, 210, 0

    /// An R2-1-like plate: white, a black border inset from the edge, three bars for "SPEED", "LIMIT" (wide, thin)
    /// and `digitBars` tall bars for the number in the lower half.
    static func drawPlate(
        _ planes: YUVPlanes, x: Double, y: Double, width: Double, height: Double, digitBars: Int = 2,
        paper: (y: UInt8, u: UInt8, v: UInt8) = SyntheticSign.white
    ) {
        SyntheticSign.paint(planes, colour: paper) { px, py in px >= x && px < x + width && py >= y && py < y + height }
        // R2-1's proportions: the border inset by 1/48 of the height, 1/40 wide (at least a pixel).
        let inset = height / 48
        let border = max(1, height / 40)
        SyntheticSign.paint(planes, colour: black) { px, py in
            let inside = px >= x + inset && px < x + width - inset && py >= y + inset && py < y + height - inset
            let innerEdge = px >= x + inset + border && px < x + width - inset - border && py >= y + inset + border
                && py < y + height - inset - border
            return inside && !innerEdge
        }
        for (top, bottom) in [(0.12, 0.23), (0.31, 0.43)] {
            SyntheticSign.paint(planes, colour: black) { px, py in
                px >= x + 0.2 * width && px < x + 0.8 * width && py >= y + top * height && py < y + bottom * height
                    && Int((px - x) / (0.08 * width)) % 2 == 0
            }
        }
        // Digits: bars 0.16 of the width wide with 0.1 gaps, centred, from 0.55 to 0.87 of the height.
        let total = Double(digitBars) * 0.16 + Double(digitBars - 1) * 0.1
        for bar in 0..<digitBars {
            let left = x + width * (0.5 - total / 2 + Double(bar) * 0.26)
            SyntheticSign.paint(planes, colour: black) { px, py in
                px >= left && px < left + 0.16 * width && py >= y + 0.55 * height && py < y + 0.87 * height
            }
        }
    }

    static func locate(
        width: Int = 320, height: Int = 240, locator: UsSignLocator = UsSignLocator(),
        cropper: UsDigitCropper = UsDigitCropper(), draw: (YUVPlanes) -> Void
    ) -> (candidates: [RectangularSignCandidate], outcomes: [CropOutcome]) {
        let image = OwnedYUVImage(layout: .i420, width: width, height: height, fill: SyntheticSign.grey)
        var locator = locator
        var cropper = cropper
        return image.withPlanes { planes in
            draw(planes)
            locator.locate(in: planes)
            return (locator.candidates, locator.candidates.map { cropper.prepare(planes: planes, candidate: $0) })
        }
    }

    @Test(arguments: [
        // left, top, plate height, frame width: small frames are searched at full resolution, large ones at half
        (150.0, 100.0, 30.0, 320),  // 24 × 30 px: the smallest sign the reader aims at
        (40.0, 20.0, 80.0, 320),
        (600.0, 300.0, 120.0, 1280),
        (300.0, 200.0, 40.0, 1280),
    ])
    func findsPlatesWithTheirBoxAndDigits(left: Double, top: Double, plateHeight: Double, frameWidth: Int) {
        let plateWidth = 0.8 * plateHeight
        let found = Self.locate(width: frameWidth, height: frameWidth * 3 / 4) {
            Self.drawPlate($0, x: left, y: top, width: plateWidth, height: plateHeight)
        }
        #expect(found.candidates.count == 1, "\(found.candidates)")
        guard let candidate = found.candidates.first else { return }
        // The reported box is the whole sign: within 10 % of its size (and two pixels) of the painted plate.
        let truth = BoundingBox(x: left, y: top, width: plateWidth, height: plateHeight)
        #expect(candidate.box.intersectionOverUnion(truth) >= 0.8, "\(candidate.box) vs \(truth)")
        #expect(found.outcomes.first == .digits(DigitLayout(narrow: [false, false])), "\(found.outcomes)")
    }

    /// A plate beside the road seen from a car at an angle: half as wide as high, its paper inside the border 0.45
    /// (real photographs show 0.44).
    @Test func aPlateSeenAtAnAngleIsAPlate() {
        let plate = BoundingBox(x: 140, y: 60, width: 50, height: 100)
        let found = Self.locate { planes in
            Self.drawPlate(planes, x: plate.x, y: plate.y, width: plate.width, height: plate.height)
        }
        #expect(found.candidates.count == 1, "\(found.candidates)")
        #expect((found.candidates.first?.box.intersectionOverUnion(plate) ?? 0) >= 0.8, "\(found.candidates)")
    }

    @Test func aWhiteSquareADiscAndAYellowPlateAreNoPlates() {
        let found = Self.locate { planes in
            // Square: too wide for an upright plate.
            SyntheticSign.paint(planes, colour: SyntheticSign.white) { x, y in x >= 20 && x < 80 && y >= 20 && y < 80 }
            // An upright ellipse as wide for its height as a plate: its rows narrow towards the top and bottom.
            SyntheticSign.paint(planes, colour: SyntheticSign.white) { x, y in
                hypot((x - 200) / 28, (y - 60) / 35) <= 1
            }
            // A yellow plate (a warning sign's colour) is not paper.
            Self.drawPlate(planes, x: 150, y: 130, width: 64, height: 80, paper: Self.yellow)
        }
        #expect(found.candidates.isEmpty, "\(found.candidates)")
    }

    @Test func aPlateOnABrightBackgroundIsCutOffByItsBorder() {
        let found = Self.locate { planes in
            SyntheticSign.paint(planes, colour: (200, 128, 128)) { _, y in y < 150 }  // bright sky
            Self.drawPlate(planes, x: 120, y: 40, width: 48, height: 60)
        }
        #expect(found.candidates.count == 1, "\(found.candidates)")
        let truth = BoundingBox(x: 120, y: 40, width: 48, height: 60)
        #expect((found.candidates.first?.box.intersectionOverUnion(truth) ?? 0) >= 0.8, "\(found.candidates)")
    }

    /// A grey plate against a bright sky (the real US set's commonest miss: a backlit plate darker than the scene
    /// around it) is no paper by brightness; its border still cuts it off, and the plate is found by it.
    @Test(arguments: [true, false])
    func aGreyPlateAgainstABrightSkyIsFoundByItsBorder(findsDimPlates: Bool) {
        var locator = UsSignLocator()
        locator.findsDimPlates = findsDimPlates
        let plate = BoundingBox(x: 120, y: 50, width: 56, height: 70)
        let found = Self.locate(locator: locator) { planes in
            SyntheticSign.paint(planes, colour: (225, 126, 126)) { _, _ in true }  // overcast sky
            Self.drawPlate(
                planes, x: plate.x, y: plate.y, width: plate.width, height: plate.height, paper: (150, 128, 128))
        }
        let best = found.candidates.map { $0.box.intersectionOverUnion(plate) }.max() ?? 0
        if findsDimPlates {
            #expect(found.candidates.count == 1 && best >= 0.8, "\(found.candidates)")
            #expect(found.outcomes == [.digits(DigitLayout(narrow: [false, false]))], "\(found.outcomes)")
        } else {
            // The sky just around the plate is brighter than its surroundings (the plate darkens them): a frame of
            // "paper" around the plate, which step 5's plate replaces.
            #expect(best < 0.5, "\(found.candidates)")
        }
    }

    /// Between whole-frame dim searches (one analysed frame in four), a dim plate is followed around where it was; one
    /// that comes into view then waits for the next whole-frame search.
    @Test func aGreyPlateIsFollowedBetweenWholeFrameSearches() {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: SyntheticSign.grey)
        var locator = UsSignLocator()
        locator.dimSearchInterval = 4
        func frame(plateAt plateX: Double?, newcomerAt newcomerX: Double? = nil) -> [BoundingBox] {
            image.withPlanes { planes in
                SyntheticSign.paint(planes, colour: (225, 126, 126)) { _, _ in true }
                if let plateX {
                    Self.drawPlate(planes, x: plateX, y: 50, width: 56, height: 70, paper: (150, 128, 128))
                }
                if let newcomerX {
                    Self.drawPlate(planes, x: newcomerX, y: 140, width: 48, height: 60, paper: (150, 128, 128))
                }
                locator.locate(in: planes)
                return locator.candidates.map(\.plate)
            }
        }
        func found(_ boxes: [BoundingBox], _ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Bool {
            boxes.contains { $0.intersectionOverUnion(BoundingBox(x: x, y: y, width: width, height: height)) >= 0.7 }
        }
        // Frame 1 searches the whole frame; frames 2–4 around the plate, which moves 8 px a frame.
        #expect(found(frame(plateAt: 40), 40, 50, 56, 70))
        #expect(found(frame(plateAt: 48), 48, 50, 56, 70))
        let third = frame(plateAt: 56, newcomerAt: 220)
        #expect(found(third, 56, 50, 56, 70))
        #expect(!found(third, 220, 140, 48, 60), "a plate outside the windows is found only by a whole-frame search")
        _ = frame(plateAt: 64, newcomerAt: 220)
        let fifth = frame(plateAt: 72, newcomerAt: 220)
        #expect(found(fifth, 72, 50, 56, 70) && found(fifth, 220, 140, 48, 60), "\(fifth)")
    }

    /// A shadow's straight edge across the plate: the paper beyond it keeps half the light (the generated set's
    /// shadows keep 0.4–0.6), its left part here, through the first numeral.
    @Test(arguments: [true, false])
    func aPlateHalfInShadowIsFoundWholeAndItsNumberCut(growsIntoShade: Bool) {
        var locator = UsSignLocator()
        if !growsIntoShade {
            locator.shadedPaperShare = 0
            // Step 5 finds the whole plate by its border too (the shaded part is near-neutral): the growth alone here.
            locator.findsDimPlates = false
        }
        let plate = BoundingBox(x: 100, y: 60, width: 64, height: 80)
        let found = Self.locate(locator: locator) { planes in
            Self.drawPlate(planes, x: plate.x, y: plate.y, width: plate.width, height: plate.height)
            for y in Int(plate.y)..<Int(plate.y + plate.height) {
                for x in Int(plate.x)..<Int(plate.x + 0.4 * plate.width) { planes.y[x, y] /= 2 }
            }
        }
        let best = found.candidates.map { $0.box.intersectionOverUnion(plate) }.max() ?? 0
        if growsIntoShade {
            #expect(found.candidates.count == 1 && best >= 0.8, "\(found.candidates)")
            #expect(found.outcomes == [.digits(DigitLayout(narrow: [false, false]))], "\(found.outcomes)")
        } else {
            // Paper alone stops at the shadow's edge: the lit part, 0.6 of the plate, is no plate.
            #expect(best < 0.8, "\(found.candidates)")
        }
    }

    /// The number zone half in shadow: without flattening its illumination, the shaded paper is as dark as ink to a
    /// single threshold.
    @Test(arguments: [true, false])
    func theCropperFlattensAShadowAcrossTheNumber(flattens: Bool) {
        var cropper = UsDigitCropper()
        cropper.flattensIllumination = flattens
        let plate = BoundingBox(x: 100, y: 60, width: 64, height: 80)
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: SyntheticSign.grey)
        let outcome = image.withPlanes { planes in
            Self.drawPlate(planes, x: plate.x, y: plate.y, width: plate.width, height: plate.height)
            // Below a slanting edge through the number zone.
            for y in Int(plate.y)..<Int(plate.y + plate.height) {
                for x in Int(plate.x)..<Int(plate.x + plate.width)
                where Double(y) - plate.y > 0.6 * plate.height + 0.3 * (Double(x) - plate.x) {
                    planes.y[x, y] /= 2
                }
            }
            let inside = RectangularSignCandidate(
                plate: BoundingBox(x: plate.x + 2, y: plate.y + 2, width: plate.width - 4, height: plate.height - 4),
                paperLevel: 235)
            return cropper.prepare(planes: planes, candidate: inside)
        }
        if flattens {
            #expect(outcome == .digits(DigitLayout(narrow: [false, false])), "\(outcome)")
        } else {
            #expect(outcome != .digits(DigitLayout(narrow: [false, false])), "\(outcome)")
        }
    }

    /// The US road font's "4" and "0" are about 0.78 of their height wide, so on a plate found narrower than R2-1's
    /// 0.8 (here 0.64) the canvas stretched them into what looked like two touching digits each ("40" rejected).
    @Test func wideDigitsOnANarrowPlateAreOneDigitEach() {
        var cropper = UsDigitCropper()
        let plate = BoundingBox(x: 100, y: 40, width: 64, height: 100)
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: SyntheticSign.grey)
        let outcome = image.withPlanes { planes in
            Self.drawPlate(planes, x: plate.x, y: plate.y, width: plate.width, height: plate.height, digitBars: 0)
            // Two hollow glyphs 28 px high and 22 px wide, 4 px apart, centred in the number zone.
            for left in [108.0, 134.0] {
                SyntheticSign.paint(planes, colour: Self.black) { x, y in
                    let inGlyph = x >= left && x < left + 22 && y >= 95 && y < 123
                    let inHole = x >= left + 6 && x < left + 16 && y >= 101 && y < 117
                    return inGlyph && !inHole
                }
            }
            let inside = RectangularSignCandidate(
                plate: BoundingBox(x: plate.x + 1, y: plate.y + 1, width: plate.width - 2, height: plate.height - 2),
                paperLevel: 235)
            return cropper.prepare(planes: planes, candidate: inside)
        }
        #expect(outcome == .digits(DigitLayout(narrow: [false, false])), "\(outcome)")
    }

    @Test(arguments: [
        // digit bars, expected outcome
        (0, CropOutcome.rejected(.lowContrast)),  // a blank lower half
        (1, .digits(DigitLayout(narrow: [false]))),
        (3, .rejected(.extraMarks)),  // US limits have at most two digits
    ])
    func theCropperWantsOneOrTwoDigits(bars: Int, expected: CropOutcome) {
        let found = Self.locate { Self.drawPlate($0, x: 100, y: 60, width: 64, height: 80, digitBars: bars) }
        #expect(found.outcomes == [expected], "\(found.candidates)")
    }
}
