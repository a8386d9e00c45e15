import StreamLensCore
import StreamLensText
import Testing
@testable import StreamLensCompositing

/// A context holding `detections` from one stage named "detector".
func context(pts: Duration = .seconds(1), analysedAt: Duration? = nil, _ detections: [Detection], source: String = "detector") -> AnnotationContext {
    AnnotationContext(
        pts: pts, frameIndex: 0,
        latestDetections: [source: Detections(pts: analysedAt ?? pts, source: source, items: detections)])
}

@Suite struct BoxAnnotatorTests {
    @Test(arguments: [(1920, 1080, 4), (1280, 720, 2), (3840, 2160, 8), (320, 240, 2), (2160, 3840, 8)])
    func thicknessScalesWithTheFrame(width: Int, height: Int, thickness: Int) {
        #expect(BoxAnnotator.scaledThickness(frameWidth: width, frameHeight: height) == thickness)
    }

    @Test(arguments: PixelLayout.allCases)
    func outlineIsDrawnOnEvenEdgesInTheClassColour(layout: PixelLayout) {
        let frame = TestFrame.uniform(layout, width: 64, height: 48, y: 100, u: 128, v: 128)
        let detection = Detection(box: BoundingBox(x: 10.3, y: 7.6, width: 20, height: 15), className: "car", classID: 2, confidence: 0.9)
        let annotator = BoxAnnotator()
        frame.withPlanes { annotator.draw(on: $0, context: context([detection])) }
        // (10.3, 7.6)…(30.3, 22.6) grows to (10, 6)…(32, 24); a 64×48 frame gets 2-pixel lines.
        #expect(BoxAnnotator.pixelRectangle(detection.box)! == (10, 6, 32, 24))
        let colour = YUVColor(ClassPalette.standardColours[2])
        #expect(annotator.colour(for: detection) == colour)
        for x in 10..<32 {
            #expect(frame.luma(x, 6) == colour.y && frame.luma(x, 7) == colour.y && frame.luma(x, 23) == colour.y)
            #expect(frame.luma(x, 5) == 100 && frame.luma(x, 8) == (x < 12 || x >= 30 ? colour.y : 100))
        }
        for y in 6..<24 { #expect(frame.luma(10, y) == colour.y && frame.luma(31, y) == colour.y && frame.luma(9, y) == 100) }
        #expect(frame.luma(20, 15) == 100)
        // Chroma: whole blocks of the outline take the colour, the inside and outside keep theirs.
        #expect(frame.chroma(5, 3) == (colour.u, colour.v))
        #expect(frame.chroma(15, 11) == (colour.u, colour.v))
        #expect(frame.chroma(10, 7) == (128, 128))
        #expect(frame.chroma(4, 3) == (128, 128))
    }

    @Test func overridesAndNameHashesPickStableColours() {
        let palette = ClassPalette(overrides: ["person": RGBAColor(red: 255, green: 0, blue: 0)])
        #expect(palette.colour(className: "person", classID: 0) == RGBAColor(red: 255, green: 0, blue: 0))
        // FNV-1a of "speed_limit" modulo 10, independent of the process's hash seed.
        let index = palette.index(className: "speed_limit", classID: -1)
        #expect(index == palette.index(className: "speed_limit", classID: -1))
        var hash: UInt32 = 2_166_136_261
        for byte in "speed_limit".utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        #expect(index == Int(hash % 10))
    }

    @Test func boxesOffTheFrameAreClippedAndDegenerateOnesSkipped() {
        let frame = TestFrame.uniform(width: 16, height: 16, y: 100, u: 128, v: 128)
        let detections = [
            Detection(box: BoundingBox(x: -10, y: -10, width: 15, height: 15), className: "a", confidence: 1),
            Detection(box: BoundingBox(x: .nan, y: 0, width: 5, height: 5), className: "b", confidence: 1),
            Detection(box: BoundingBox(x: 8, y: 8, width: 0, height: 5), className: "c", confidence: 1),
        ]
        frame.withPlanes { BoxAnnotator(thickness: 2).draw(on: $0, context: context(detections)) }
        let colour = BoxAnnotator().colour(for: detections[0])
        // Box a becomes (−10, −10)…(6, 6): only its right and bottom lines (columns/rows 4 and 5) are visible.
        #expect(frame.luma(4, 0) == colour.y && frame.luma(0, 5) == colour.y && frame.luma(3, 3) == 100)
        #expect(frame.luma(10, 10) == 100)
    }
}

@Suite struct LabelAnnotatorTests {
    @Test(arguments: [
        ("person", nil, 87, 12, "person 0.87 #12"),
        ("car", nil, 5, nil, "car 0.05"),
        ("dog", nil, 100, 3, "dog 1.00 #3"),
        ("speed_limit", "50", 93, nil, "speed_limit 50 0.93"),
        ("bus", nil, nil, 7, "bus #7"),
    ] as [(String, String?, Int?, Int?, String)])
    func labelReadsClassConfidenceAndTrack(className: String, text: String?, hundredths: Int?, track: Int?, label: String) {
        #expect(LabelAnnotator.labelText(className: className, text: text, confidenceHundredths: hundredths, trackID: track) == label)
    }

    @Test func labelSitsAboveTheBoxInTheClassColourAndIsRenderedOnce() {
        let annotator = LabelAnnotator()
        let detection = Detection(box: BoundingBox(x: 100, y: 120, width: 80, height: 60), className: "person", classID: 0, confidence: 0.87, trackID: 12)
        let background = YUVColor(ClassPalette.standardColours[0])
        var labelHeight = 0
        for _ in 0..<10 {
            let frame = TestFrame.uniform(width: 320, height: 240, y: 50, u: 128, v: 128)
            frame.withPlanes { annotator.draw(on: $0, context: context([detection])) }
            // Find the label's extent in the column just inside its left edge: it ends on the box's top edge.
            let changedRows = (0..<240).filter { frame.luma(104, $0) != 50 }
            #expect(changedRows.last == 119)
            labelHeight = changedRows.count
            // The top padding row is the class colour.
            if let top = changedRows.first { #expect(frame.luma(110, top + 1) == background.y) }
            #expect(frame.luma(104, 125) == 50)
        }
        #expect((14...24).contains(labelHeight), "label of 12 px text with 2 px padding is \(labelHeight) rows")
        #expect(annotator.cacheStatistics.renders == 1)
        #expect(annotator.cacheStatistics.hits == 9)
    }

    /// Every analysis names new confidences, so a long run makes labels without end: the rendered ones kept must stay
    /// bounded (512 of ~40 KB each grew a two-minute 1080p run by 20 MiB), while a label drawn again is not rendered again.
    @Test func renderedLabelsKeptAreBoundedWhateverTheRunLength() {
        let annotator = LabelAnnotator()
        for analysis in 0..<300 {
            let detection = Detection(
                box: BoundingBox(x: 100, y: 120, width: 80, height: 60), className: "person", classID: 0,
                confidence: 0.5 + Double(analysis % 50) / 100, trackID: analysis)
            for _ in 0..<3 {
                let frame = TestFrame.uniform(width: 320, height: 240, y: 50, u: 128, v: 128)
                frame.withPlanes { annotator.draw(on: $0, context: context([detection])) }
            }
        }
        #expect(annotator.cachedLabelCount == LabelAnnotator.defaultCacheCapacity)
        #expect(annotator.cacheStatistics.renders == 300)
        #expect(annotator.cacheStatistics.hits == 600)
        #expect(annotator.cacheStatistics.evictions == 300 - LabelAnnotator.defaultCacheCapacity)
    }

    @Test func labelOfABoxAtTheTopGoesInsideIt() throws {
        let tile = OverlayTile(width: 40, height: 16, color: .white, alpha: 255)
        let inside = try #require(LabelAnnotator.origin(of: tile, above: BoundingBox(x: 300, y: 3, width: 30, height: 30), frameWidth: 320, frameHeight: 240))
        #expect(inside == (280, 3))
        let above = try #require(LabelAnnotator.origin(of: tile, above: BoundingBox(x: -5, y: 50, width: 30, height: 30), frameWidth: 320, frameHeight: 240))
        #expect(above == (0, 34))
    }
}

@Suite struct SpeedLimitBadgeAnnotatorTests {
    func sign(_ value: String?, confidence: Double = 0.9) -> Detection {
        Detection(box: BoundingBox(x: 10, y: 10, width: 30, height: 30), className: "speed_limit", confidence: confidence, text: value)
    }

    @Test func newestReadingWinsAcrossStages() {
        let annotator = SpeedLimitBadgeAnnotator()
        let both = AnnotationContext(pts: .seconds(6), frameIndex: 0, latestDetections: [
            "signs": Detections(pts: .seconds(5), source: "signs", items: [sign("30"), sign(nil, confidence: 1)]),
            "other": Detections(pts: .seconds(4), source: "other", items: [sign("50", confidence: 1)]),
        ])
        #expect(annotator.currentLimit(both) == "30")
    }

    @Test func limitIsHeldAfterTheSignLeavesThenExpires() {
        let annotator = SpeedLimitBadgeAnnotator(hold: .seconds(30))
        #expect(annotator.currentLimit(context(pts: .seconds(1), [sign("80")])) == "80")
        // The sign is gone from newer analyses.
        #expect(annotator.currentLimit(context(pts: .seconds(20), analysedAt: .seconds(19), [])) == "80")
        #expect(annotator.currentLimit(context(pts: .seconds(31), analysedAt: .seconds(30), [])) == "80")
        #expect(annotator.currentLimit(context(pts: .seconds(32), analysedAt: .seconds(31), [])) == nil)
        #expect(annotator.currentLimit(context(pts: .seconds(33), [sign("100")])) == "100")
    }

    @Test func badgeIsDrawnInTheChosenCorner() {
        let annotator = SpeedLimitBadgeAnnotator(corner: .bottomLeft, diameterFraction: 0.25, marginFraction: 0.05)
        let frame = TestFrame.uniform(width: 320, height: 240, y: 50, u: 128, v: 128)
        frame.withPlanes { annotator.draw(on: $0, context: context([sign("50")])) }
        // Diameter 60, margin 12: the badge spans x 12…71, y 168…227. Its top ring pixel is signal red.
        let red = YUVColor(RGBAColor.signalRed)
        #expect(frame.luma(42, 171) == red.y)
        #expect(frame.luma(42, 178) == 235)  // white disc between ring and digits
        #expect(frame.luma(42, 165) == 50 && frame.luma(300, 20) == 50)
    }

    @Test func aUSBadgeIsAWhitePlateWithoutRed() {
        let annotator = SpeedLimitBadgeAnnotator(
            corner: .topRight, style: .unitedStatesPlate, diameterFraction: 0.25, marginFraction: 0.05)
        let frame = TestFrame.uniform(width: 320, height: 240, y: 50, u: 128, v: 128)
        frame.withPlanes { annotator.draw(on: $0, context: context([sign("45")])) }
        // Height 60, width 48, margin 12: the plate spans x 260…307, y 12…71; its border is black, its face white.
        #expect(frame.luma(283, 12) == 16)
        #expect(frame.luma(263, 15) == 235 && frame.luma(263, 68) == 235)
        #expect(frame.luma(255, 40) == 50 && frame.luma(283, 75) == 50)
        let red = YUVColor(RGBAColor.signalRed)
        #expect(frame.luma(283, 12) != red.y)
    }
}

@Suite struct HUDAnnotatorTests {
    @Test(arguments: [
        (25.0, 3, "25.0 fps  drops 3"), (29.97, 0, "30.0 fps  drops 0"), (7.25, 12345, "7.3 fps  drops 12345"),
        (Double.nan, -1, "0.0 fps  drops 0"), (0.04, 10, "0.0 fps  drops 10"),
    ])
    func figuresAreFormattedWithoutStrings(fps: Double, drops: Int, text: String) {
        var codes: [UInt8] = []
        HUDAnnotator.format(HUDSnapshot(framesPerSecond: fps, droppedFrames: drops), into: &codes)
        #expect(String(decoding: codes, as: UTF8.self) == text)
    }

    @Test func hudDarkensItsBoxAndWritesWhiteGlyphs() {
        let hud = HUDAnnotator(corner: .topLeft, snapshot: HUDSnapshot(framesPerSecond: 25, droppedFrames: 3))
        let frame = TestFrame.uniform(width: 640, height: 360, y: 200, u: 100, v: 160)
        frame.withPlanes { hud.draw(on: $0, context: context([])) }
        // Box starts at the margin (4 px for 9 px text): its padding is half-way to black, its chroma half-way to 128.
        #expect(frame.luma(5, 5) == 108)  // (200 + 16 + 1) / 2
        #expect(frame.chroma(2, 2) == (114, 144))
        let boxRows = (0..<40).filter { frame.luma(6, $0) != 200 }
        let bright = (0..<360).flatMap { y in (0..<640).map { frame.luma($0, y) } }.filter { $0 >= 230 }
        #expect(!boxRows.isEmpty && bright.count > 20, "no white glyph pixels")
        #expect(frame.luma(600, 300) == 200)
    }
}

@Suite struct HUDFiguresTests {
    /// A file pipeline that passed 300 frames in under a second showed "0.0 fps" on every one: the rate waited for a
    /// whole second of wall clock. It is the rate so far until then, a whole second's after.
    @Test func theRateIsShownFromTheSecondFrameOnAndThenPerSecond() {
        let figures = HUDFigures()
        let frame = Duration.milliseconds(2)
        // 500 frames per second of wall clock for 0.4 s.
        for index in 0..<200 {
            figures.frame(pts: frame * index, frameDuration: frame, at: .seconds(10) + frame * index)
            if index == 1 { #expect(abs(figures.snapshot.framesPerSecond - 500) < 0.01) }
        }
        #expect(abs(figures.snapshot.framesPerSecond - 500) < 0.01)
        // Then 25 per second for 2 s: after the first whole second, the rate is that second's.
        let slow = Duration.milliseconds(40)
        let resumed = Duration.seconds(10) + frame * 199
        for index in 1...50 {
            figures.frame(pts: frame * 199 + slow * index, frameDuration: frame, at: resumed + slow * index)
        }
        #expect(abs(figures.snapshot.framesPerSecond - 25) < 1, "\(figures.snapshot.framesPerSecond)")
    }
}

@Suite struct SpotlightAnnotatorTests {
    @Test(arguments: PixelLayout.allCases)
    func everythingOutsideTheBoxesIsDimmed(layout: PixelLayout) {
        let frame = TestFrame.uniform(layout, width: 64, height: 48, y: 200, u: 200, v: 60)
        let boxes = [
            Detection(box: BoundingBox(x: 11, y: 10, width: 20, height: 10), className: "a", confidence: 1),
            Detection(box: BoundingBox(x: 25, y: 15, width: 10, height: 20), className: "b", confidence: 1),
        ]
        frame.withPlanes { SpotlightAnnotator().draw(on: $0, context: context(boxes)) }
        // 16 + 184 × 0.3 = 71.2; 128 + 72 × 0.3 = 149.6; 128 − 68 × 0.3 = 107.6.
        for y in 0..<48 {
            for x in 0..<64 {
                let inside = (x >= 11 && x < 31 && y >= 10 && y < 20) || (x >= 25 && x < 35 && y >= 15 && y < 35)
                #expect(frame.luma(x, y) == (inside ? 200 : 71), "luma at \(x), \(y)")
            }
        }
        // Chroma block 5 covers luma 10…11 and touches box a, so it stays; block 4 does not.
        #expect(frame.chroma(5, 5) == (200, 60))
        #expect(frame.chroma(4, 5) == (150, 108))
        #expect(frame.chroma(17, 16) == (200, 60))
        #expect(frame.chroma(18, 16) == (150, 108))
    }

    @Test func withoutDetectionsTheWholeFrameDims() {
        let frame = TestFrame.uniform(width: 8, height: 8, y: 16, u: 128, v: 255)
        frame.withPlanes { SpotlightAnnotator(level: 0.5).draw(on: $0, context: context([])) }
        #expect(frame.y.allSatisfy { $0 == 16 })
        #expect(frame.v.allSatisfy { $0 == 192 })  // 128 + 127 × 0.5 = 191.5
    }
}

@Suite struct AnnotationStageTests {
    @Test func onlySelectedStagesAreDrawnInOrder() {
        let stage = AnnotationStage(annotators: [SpotlightAnnotator(), BoxAnnotator(thickness: 2)], sources: ["detector"])
        let frame = TestFrame.uniform(width: 64, height: 48, y: 200, u: 128, v: 128)
        let mine = Detection(box: BoundingBox(x: 10, y: 10, width: 20, height: 20), className: "car", classID: 2, confidence: 1)
        let theirs = Detection(box: BoundingBox(x: 40, y: 10, width: 20, height: 20), className: "car", classID: 2, confidence: 1)
        let composite = CompositeContext(pts: .seconds(1), frameIndex: 3, latestDetections: [
            "detector": Detections(pts: .seconds(1), source: "detector", items: [mine]),
            "other": Detections(pts: .seconds(1), source: "other", items: [theirs]),
        ])
        frame.withPlanes { stage.composite(onto: $0, context: composite) }
        let colour = YUVColor(ClassPalette.standardColours[2])
        #expect(frame.luma(10, 10) == colour.y)  // outline drawn after the spotlight, undimmed
        #expect(frame.luma(20, 20) == 200)  // inside the spotlight
        #expect(frame.luma(40, 10) == 71 && frame.luma(50, 20) == 71)  // the other stage's box is ignored
    }
}
