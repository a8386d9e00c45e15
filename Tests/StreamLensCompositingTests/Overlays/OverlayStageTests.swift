import StreamLensCore
import Testing
@testable import StreamLensCompositing

@Suite struct OverlayStageTests {
    /// Composites one frame (160×120, luma 100) at `pts` with `detections` from stage "detector"; returns it.
    func frame(_ stage: OverlayStage, at pts: Duration, _ detections: [Detection]? = nil, analysedAt: Duration? = nil) -> TestFrame {
        let frame = TestFrame.uniform(width: 160, height: 120, y: 100, u: 128, v: 128)
        var latest: [String: Detections] = [:]
        if let detections { latest["detector"] = Detections(pts: analysedAt ?? pts, source: "detector", items: detections) }
        frame.withPlanes { stage.composite(onto: $0, context: CompositeContext(pts: pts, frameIndex: 0, latestDetections: latest)) }
        return frame
    }

    func person(_ x: Double, _ y: Double, track: Int? = nil) -> Detection {
        Detection(box: BoundingBox(x: x, y: y, width: 32, height: 32), className: "person", confidence: 0.9, trackID: track)
    }

    func followRule(maximumInstances: Int = 4, maximumAge: Duration = .seconds(30)) -> OverlayRule {
        OverlayRule(
            path: "marker.webm", trigger: .detection(className: "person", minimumConfidence: 0.5),
            placement: .box(anchor: .centre, scale: 1, minimumWidth: 16, maximumWidth: 64),
            maximumInstances: maximumInstances, maximumAge: maximumAge)
    }

    @Test func alwaysOnClipLoopsAtItsOwnRateFromTheFirstFrame() throws {
        let stage = OverlayStage(
            rules: [try OverlayRule.parseAlwaysOn("logo.webm@10,20,16,16")], loader: TestClipLoader(), loadsInBackground: false)
        stage.preroll()
        for k in 0..<12 {
            let output = frame(stage, at: .seconds(5) + .milliseconds(40 * k))
            #expect(output.luma(12, 22) == TestClipLoader.luma(ofFrame: k % 3), "video frame \(k)")
            #expect(output.luma(9, 20) == 100 && output.luma(26, 36) == 100)
        }
    }

    /// Eight always-on clips and a cache of five: the first three were evicted during preroll and missing from the
    /// first frames (a QA run saw them late by up to 1.7 s, and 17–45 evictions).
    @Test func everyAlwaysOnClipIsDrawnFromTheFirstFrameWhateverTheCacheSize() throws {
        let loader = TestClipLoader()
        let rules = try (0..<8).map { try OverlayRule.parseAlwaysOn("logo\($0).webm@\(20 * $0),20,8,8") }
        let stage = OverlayStage(rules: rules, loader: loader, cacheCapacity: 5)
        stage.preroll()
        let output = frame(stage, at: .zero)
        for index in 0..<8 { #expect(output.luma(20 * index + 2, 22) == TestClipLoader.luma(ofFrame: 0), "clip \(index)") }
        #expect(stage.report.cache.evictions == 0)
        #expect(loader.loaded.count == 8)
    }

    @Test func missingClipWarnsOnceDisablesItsRuleAndTheRunGoesOn() throws {
        let warnings = WarningLog()
        let rules = [try OverlayRule.parseAlwaysOn("missing-logo.webm@0,0"), try OverlayRule.parseAlwaysOn("logo.webm@40,40,8,8")]
        let stage = OverlayStage(rules: rules, loader: TestClipLoader(), loadsInBackground: false, warn: warnings.record)
        stage.preroll()
        for k in 0..<5 {
            let output = frame(stage, at: .milliseconds(40 * k))
            #expect(output.luma(42, 42) == TestClipLoader.luma(ofFrame: k % 3))
            #expect(output.luma(2, 2) == 100)
        }
        #expect(warnings.all == [
            "overlay clip 'missing-logo.webm' does not exist or is not readable; check the path; that overlay rule is disabled, the run continues"
        ])
        #expect(stage.report.disabledClips == ["missing-logo.webm"])
    }

    @Test func missingClipFoundDuringTheRunAlsoWarnsOnce() throws {
        let warnings = WarningLog()
        let stage = OverlayStage(
            rules: [try OverlayRule.parseAlwaysOn("missing.webm@0,0")], loader: TestClipLoader(), warn: warnings.record)
        for k in 0..<4 {
            _ = frame(stage, at: .milliseconds(40 * k))
            stage.cache.waitUntilIdle()
        }
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.hasPrefix("overlay clip 'missing.webm' does not exist") == true)
    }

    @Test func detectionOverlayFadesInFollowsAndFadesOut() {
        let stage = OverlayStage(rules: [followRule()], loader: TestClipLoader(), loadsInBackground: false)
        // Box 32 wide → step 31.25 → a 30×30 clip centred on (56, 56).
        #expect(frame(stage, at: .zero, [person(40, 40)]).luma(56, 56) == 100)  // fade-in starts at 0
        // 150 ms: half faded in (level 128), clip frame ⌊151 / 40⌋ = 3 → 0 (luma 10): 5 + round(100 × 127 / 255).
        #expect(frame(stage, at: .milliseconds(150), [person(40, 40)]).luma(56, 56) == 55)
        let full = frame(stage, at: .milliseconds(300), [person(40, 40)])
        #expect(full.luma(56, 56) == 20 && full.luma(41, 41) == 20 && full.luma(40, 40) == 100)
        // The person moved (the boxes overlap, IoU 0.49): the overlay follows, now centred on (64, 60).
        let moved = frame(stage, at: .milliseconds(360), [person(48, 44)])
        #expect(moved.luma(64, 60) == 10 && moved.luma(44, 44) == 100)  // clip frame ⌊361 / 40⌋ = 9 → 0
        // A newer analysis without the person: fade out over 300 ms, then gone.
        #expect(frame(stage, at: .milliseconds(400), [], analysedAt: .milliseconds(400)).luma(64, 60) == 20)
        #expect(frame(stage, at: .milliseconds(550), [], analysedAt: .milliseconds(400)).luma(64, 60) == 60)
        #expect(frame(stage, at: .milliseconds(700), [], analysedAt: .milliseconds(400)).luma(64, 60) == 100)
        #expect(stage.report.activeOverlays == 0)
    }

    @Test func atMostNOverlaysPerRule() {
        let stage = OverlayStage(rules: [followRule(maximumInstances: 2)], loader: TestClipLoader(), loadsInBackground: false)
        let people = [person(0, 0, track: 1), person(60, 0, track: 2), person(120, 60, track: 3)]
        _ = frame(stage, at: .zero, people)
        let output = frame(stage, at: .seconds(1), people)
        let drawn = [(16, 16), (76, 16), (136, 76)].filter { output.luma($0.0, $0.1) != 100 }
        #expect(drawn.count == 2)
        #expect(stage.report.activeOverlays == 2)
    }

    @Test func overlayExpiresAtMaximumAgeAndReturnsOnlyWithANewAppearance() {
        let stage = OverlayStage(rules: [followRule(maximumAge: .seconds(1))], loader: TestClipLoader(), loadsInBackground: false)
        let tracked = [person(40, 40, track: 7)]
        _ = frame(stage, at: .zero, tracked)
        #expect(frame(stage, at: .milliseconds(500), tracked).luma(56, 56) != 100)
        // 850 ms: 150 ms before the end, half faded out; frame ⌊851 / 40⌋ = 21 → 0 (luma 10) → 5 + 50.
        #expect(frame(stage, at: .milliseconds(850), tracked).luma(56, 56) == 55)
        #expect(frame(stage, at: .seconds(1), tracked).luma(56, 56) == 100)
        #expect(frame(stage, at: .milliseconds(1500), tracked).luma(56, 56) == 100)  // still there, not re-triggered
        _ = frame(stage, at: .seconds(2), [])  // it leaves
        _ = frame(stage, at: .milliseconds(2500), tracked)  // and comes back: a new overlay, fading in
        #expect(frame(stage, at: .milliseconds(2800), tracked).luma(56, 56) != 100)
    }

    @Test func speedLimitEventsStartOverlaysWhenTheLimitChanges() {
        func sign(_ value: String) -> Detection {
            Detection(box: BoundingBox(x: 0, y: 0, width: 20, height: 20), className: "speed_limit", confidence: 0.9, text: value)
        }
        let anyLimit = OverlayRule(
            path: "sign.webm", trigger: .speedLimit(value: nil), placement: .corner(.topRight, margin: 0, width: 16, height: 16))
        let onlyEighty = OverlayRule(
            path: "eighty.webm", trigger: .speedLimit(value: "80"), placement: .fixed(x: 0, y: 100, width: 16, height: 16))
        let stage = OverlayStage(rules: [anyLimit, onlyEighty], loader: TestClipLoader(), loadsInBackground: false)
        _ = frame(stage, at: .zero, [sign("50")])
        var output = frame(stage, at: .milliseconds(400), [sign("50")], analysedAt: .zero)
        #expect(output.luma(150, 8) != 100)  // top-right corner
        #expect(output.luma(8, 108) == 100)  // 50 is not 80
        _ = frame(stage, at: .seconds(1), [sign("50")])
        #expect(stage.report.activeOverlays == 1)
        _ = frame(stage, at: .seconds(2), [sign("80")])
        output = frame(stage, at: .milliseconds(2400), [sign("80")])
        #expect(output.luma(8, 108) != 100)
        #expect(stage.report.activeOverlays == 3)
    }

    @Test func boxScaledOverlaysLoadOneClipPerSizeStep() {
        let loader = TestClipLoader()
        let stage = OverlayStage(rules: [followRule()], loader: loader, loadsInBackground: false)
        for (k, width) in [32.0, 33, 34, 60, 62].enumerated() {
            _ = frame(stage, at: .milliseconds(40 * k), [Detection(
                box: BoundingBox(x: 10, y: 10, width: width, height: 40), className: "person", confidence: 0.9, trackID: 1)])
        }
        #expect(loader.loaded.map(\.width) == [30, 60])
    }
}
