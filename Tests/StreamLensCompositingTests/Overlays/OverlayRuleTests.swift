import Testing
@testable import StreamLensCompositing

@Suite struct OverlayRuleTests {
    @Test(arguments: [
        ("logo.webm@10,20", "logo.webm", OverlayRule.Placement.fixed(x: 10, y: 20, width: nil, height: nil)),
        ("/m/a@b.webm@-5,7,128,64", "/m/a@b.webm", .fixed(x: -5, y: 7, width: 128, height: 64)),
        ("x.png@ 1, 2", "x.png", .fixed(x: 1, y: 2, width: nil, height: nil)),
    ])
    func alwaysOnSpecificationsParse(specification: String, path: String, placement: OverlayRule.Placement) throws {
        let rule = try OverlayRule.parseAlwaysOn(specification)
        #expect(rule.path == path)
        #expect(rule.placement == placement)
        #expect(rule.trigger == .always)
    }

    @Test(arguments: [
        ("logo.webm", "expected PATH@x,y or PATH@x,y,w,h"),
        ("@1,2", "the path is empty"),
        ("logo.webm@1", "expected two or four whole numbers after '@': x,y or x,y,w,h"),
        ("logo.webm@1,2,3", "expected two or four whole numbers after '@': x,y or x,y,w,h"),
        ("logo.webm@a,2", "expected two or four whole numbers after '@': x,y or x,y,w,h"),
        ("logo.webm@1,2,0,5", "width and height must be positive"),
    ])
    func badSpecificationsSayWhatIsWrong(specification: String, reason: String) {
        #expect(throws: OverlayError.invalidSpecification(specification, reason: reason)) {
            try OverlayRule.parseAlwaysOn(specification)
        }
    }

    @Test func configurationBuildsEachKindOfRule() throws {
        var marker = OverlayRuleConfiguration(clip: "marker.webm", when: "class:person", at: "box:top")
        marker.scale = 0.5
        marker.minWidth = 40
        marker.maxWidth = 200
        marker.minConfidence = 0.6
        marker.maxAge = 12
        marker.fadeIn = 0.5
        let rule = try marker.makeRule(baseDirectory: "/clips")
        #expect(rule.path == "/clips/marker.webm")
        #expect(rule.trigger == .detection(className: "person", minimumConfidence: 0.6))
        #expect(rule.placement == .box(anchor: .top, scale: 0.5, minimumWidth: 40, maximumWidth: 200))
        #expect(rule.maximumAge == .seconds(12) && rule.fadeIn == .milliseconds(500) && rule.fadeOut == .milliseconds(300))

        let sign = try OverlayRuleConfiguration(clip: "/abs/s.webm", when: "speed_limit=30", at: "bottom-right", size: "96,96").makeRule()
        #expect(sign.trigger == .speedLimit(value: "30"))
        #expect(sign.placement == .corner(.bottomRight, margin: 16, width: 96, height: 96))

        // Spaces after the commas, as people write them.
        let spaced = try OverlayRuleConfiguration(clip: "/abs/logo.webm", at: "10, 20", size: "64, 32").makeRule()
        #expect(spaced.placement == .fixed(x: 10, y: 20, width: 64, height: 32))
    }

    @Test(arguments: [
        (OverlayRuleConfiguration(clip: "a.webm", when: "sometimes"), "unknown 'when: sometimes'; use always, class:NAME, speed_limit or speed_limit=VALUE"),
        // The clip would never show: no read value is "abc".
        (OverlayRuleConfiguration(clip: "a.webm", when: "speed_limit=abc"), "'when: speed_limit=abc' needs a speed value, e.g. speed_limit=50"),
        (OverlayRuleConfiguration(clip: "a.webm", at: "box:middle"), "unknown box anchor 'box:middle'; use box:centre, box:top, box:bottom or box:top-left…"),
        (OverlayRuleConfiguration(clip: "a.webm", at: "box:centre"), "an always-on overlay has no box to anchor to"),
        (OverlayRuleConfiguration(clip: "a.webm", size: "10"), "size must be two positive whole numbers: w,h"),
        (OverlayRuleConfiguration(clip: "a.webm", at: "left"), "'at' must be x,y, a frame corner (top-left…) or box:ANCHOR"),
    ])
    func badConfigurationsAreRejected(configuration: OverlayRuleConfiguration, reason: String) {
        let error = #expect(throws: OverlayError.self) { try configuration.makeRule() }
        guard case .invalidSpecification(_, let actual) = error else { return }
        #expect(actual == reason)
    }

    @Test(arguments: [(10.0, 32), (32.0, 32), (35.0, 32), (36.0, 40), (100.0, 98), (1000.0, 238), (250.0, 238)])
    func boxScaledSizesSnapToFewSteps(target: Double, width: Int) {
        // Steps from 32 by ×1.25: 32, 40, 50, 62.5, 78.1, 97.7, 122, 152.6, 190.7, 238.4 (≤ 256), rounded to even.
        #expect(OverlayStage.sizeStep(for: target, minimum: 32, maximum: 256) == width)
    }
}
