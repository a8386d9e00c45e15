import Testing
@testable import StreamLensCompositing

@Suite struct AnnotationConfigurationTests {
    @Test func boxesAndLabelsAreOnByDefault() throws {
        let stage = try #require(try AnnotationConfiguration().makeStage())
        #expect(stage.annotators.count == 2)
        #expect(stage.annotators[0] is BoxAnnotator && stage.annotators[1] is LabelAnnotator)
        #expect(stage.sources == nil)
    }

    @Test func everythingOnPutsTheSpotlightFirst() throws {
        let configuration = AnnotationConfiguration(
            speedLimitBadge: "bottom-left", hud: "top-right", spotlight: 0.25, sources: ["detector", "signs"])
        let stage = try #require(try configuration.makeStage { HUDSnapshot(framesPerSecond: 25, droppedFrames: 0) })
        #expect(stage.annotators.count == 5)
        #expect((stage.annotators[0] as? SpotlightAnnotator)?.level == 0.25)
        #expect((stage.annotators[3] as? SpeedLimitBadgeAnnotator)?.corner == .bottomLeft)
        #expect((stage.annotators[4] as? HUDAnnotator)?.corner == .topRight)
        #expect(stage.sources == ["detector", "signs"])
    }

    @Test func nothingToDrawMakesNoStage() throws {
        #expect(try AnnotationConfiguration(boxes: false, labels: false, speedLimitBadge: "off", hud: "off").makeStage() == nil)
        // A HUD without figures to show is left out.
        #expect(try AnnotationConfiguration(boxes: false, labels: false, hud: "top-left").makeStage() == nil)
    }

    @Test func badCornerIsRejectedWithTheKeyAndTheChoices() {
        #expect(throws: OverlayError.invalidSpecification(
            "speed_limit_badge: middle", reason: "use top-left, top-right, bottom-left, bottom-right or off")) {
            try AnnotationConfiguration(speedLimitBadge: "middle").makeStage()
        }
        #expect(throws: OverlayError.invalidSpecification("spotlight: 1.5", reason: "the level must be within 0…1")) {
            try AnnotationConfiguration(spotlight: 1.5).makeStage()
        }
    }

    @Test(arguments: [(1920, 1080, ColorMatrix.bt709), (1280, 720, .bt709), (768, 576, .bt601), (640, 480, .bt601), (3840, 2160, .bt709)])
    func colourMatrixIsAssumedFromTheFrameSize(width: Int, height: Int, matrix: ColorMatrix) {
        #expect(ColorMatrix.assumed(forWidth: width, height: height) == matrix)
    }
}
