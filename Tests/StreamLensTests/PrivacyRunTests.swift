import Foundation
import StreamLensCore
import StreamLensDetection
import StreamLensOptions
import Synchronization
import Testing
@testable import StreamLens

/// `--blur faces` end to end on real photographs of faces pasted into real street footage
/// (scripts/datasets/make-privacy-testset.sh: a footballer from Debian's opencv-doc and an astronaut from scikit-image's data,
/// moving and growing across bikes.mp4), checked with an independent detector: OpenCV's Haar frontal-face cascade
/// (Debian opencv-data), not the CenterFace network that finds the faces to blur.
@Suite struct PrivacyRunTests {
    static let testset = repositoryRoot.appendingPathComponent(".media-cache/privacy-testset")
    static let clip = testset.appendingPathComponent("faces-bikes.mp4")
    static var isReady: Bool {
        CenterFaceDetector.installedPath() != nil && FileManager.default.fileExists(atPath: clip.path)
    }
    static let notReady: Comment = "needs bash scripts/models/install-privacy-models.sh and bash scripts/datasets/make-privacy-testset.sh"

    /// Where the testset's JSON says each face is on each frame (x, y, side).
    struct Listing: Decodable {
        struct Face: Decodable { var name: String; var x, y, size: Double }
        struct Frame: Decodable { var index: Int; var faces: [Face] }
        var frames: [Frame]
    }

    /// Per face name, the frames of `file` on which the Haar cascade finds a face centred on it.
    static func haarFaces(in file: URL, listing: Listing) async throws -> (frames: Int, found: [String: Int]) {
        let detector = try CascadeDetector(cascade: "frontalface")
        let found = Mutex<[String: Int]>([:])
        let decoded = try await decode(file) { planes, index in
            guard index < listing.frames.count else { return }
            let frame = AnalysisFrame(
                pts: .zero, frameIndex: index, planes: planes, sourceWidth: planes.width, sourceHeight: planes.height)
            let boxes = (try? detector.detect(frame)) ?? []
            for face in listing.frames[index].faces {
                let centre = (x: face.x + face.size / 2, y: face.y + face.size / 2)
                if boxes.contains(where: {
                    abs($0.box.center.x - centre.x) < face.size * 0.75 && abs($0.box.center.y - centre.y) < face.size * 0.75
                }) {
                    found.withLock { $0[face.name, default: 0] += 1 }
                }
            }
        }
        return (decoded.frames.count, found.withLock { $0 })
    }

    @Test(.enabled(if: isReady, notReady))
    func noPastedFaceIsFoundInTheBlurredOutput() async throws {
        let listing = try JSONDecoder().decode(
            Listing.self, from: Data(contentsOf: Self.testset.appendingPathComponent("faces-bikes.json")))
        let folder = try makeTemporaryFolder()
        let output = folder.appendingPathComponent("blurred.mp4")
        let reportPath = folder.appendingPathComponent("report.json")
        let result = try await runTool([
            "run", "--input", Self.clip.path, "--output", output.path, "--blur", "faces", "--report", reportPath.path,
            "--quiet",
        ], timeout: .seconds(600))
        #expect(result.status == 0, "stderr: \(result.standardError)")

        let input = try await Self.haarFaces(in: Self.clip, listing: listing)
        #expect(input.frames == 250)
        // The independent detector sees both faces in the input on nearly every frame…
        #expect((input.found["messi5"] ?? 0) >= 200, "\(input.found)")
        #expect((input.found["astronaut"] ?? 0) >= 200, "\(input.found)")
        // …and neither on any frame of the output.
        let blurred = try await Self.haarFaces(in: output, listing: listing)
        #expect(blurred.frames == 250)
        #expect(blurred.found.isEmpty, "faces found after blurring: \(blurred.found)")

        let report = try Report(reportPath)
        let privacy = try #require((report.json["stage_details"] as? [String: Any])?["privacy"] as? [String: Any])
        #expect(privacy["analysed_frames"] as? Int == 250, "\(privacy)")
        #expect(privacy["failures"] as? Int == 0, "\(privacy)")
        let face = try #require((privacy["kinds"] as? [String: Any])?["face"] as? [String: Any], "\(privacy)")
        #expect(face["frames_blurred"] as? Int == 250, "\(face)")
        #expect((face["detections"] as? Int ?? 0) >= 500, "\(face)")
        #expect((face["longest_gap_s"] as? Double ?? 9) < 1, "\(face)")
    }

    @Test func blurSettingsWithoutBlurAreOneLine() async throws {
        let result = try await runTool(["run", "--input", "videotestsrc num-buffers=3", "--blur-style", "solid"])
        #expect(result.status == 2)
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("needs --blur faces"), "\(result.standardError)")
    }

    @Test func anUnknownKindIsOneLine() async throws {
        let result = try await runTool(["run", "--input", "videotestsrc num-buffers=3", "--blur", "faces,cats"])
        #expect(result.status == 2)
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("cannot blur 'cats': use faces, plates or off"), "\(result.standardError)")
    }
}

/// `stages.privacy` in a pipeline file.
@Suite struct PrivacyPipelineFileTests {
    @Test func theSectionSetsEverySettingAndBlurOffTurnsItOff() throws {
        let configuration = try PipelineFile.parse("""
            source: { input: a.mp4 }
            stages: { privacy: { blur: faces, style: pixelate, margin: 0.3, confidence: 0.4, hold: 0.5 } }
            """, file: "p.yaml")
        var expected = PrivacyOptions()
        expected.style = .pixelate
        expected.margin = 0.3
        expected.confidence = 0.4
        expected.hold = .milliseconds(500)
        #expect(configuration.privacy == expected)
        #expect(configuration.privacySetIn?.key == "stages.privacy")
        // Without `blur`, faces; `blur: off`, nothing.
        let bare = try PipelineFile.parse("source: { input: a.mp4 }\nstages: { privacy: { style: solid } }\n", file: "p.yaml")
        #expect(bare.privacy?.kinds == [.faces])
        let off = try PipelineFile.parse("source: { input: a.mp4 }\nstages: { privacy: { blur: off } }\n", file: "p.yaml")
        #expect(off.privacy == nil)
        #expect(throws: (any Error).self) {
            try PipelineFile.parse("source: { input: a.mp4 }\nstages: { privacy: { blur: cats } }\n", file: "p.yaml")
        }
        let both = try PipelineFile.parse(
            "source: { input: a.mp4 }\nstages: { privacy: { blur: \"plates, faces\" } }\n", file: "p.yaml")
        #expect(both.privacy?.kinds == [.plates, .faces])
    }
}

/// The kinds `--blur` and the element's `kinds` accept are the schema's list, and each has its detector.
@Suite struct PrivacyKindTests {
    @Test func theKindsAreTheSchemasList() {
        #expect(PrivacyKind.allCases.map(\.rawValue) == OptionSchema.blurKinds)
        #expect(OptionSchema.blur.property(of: OptionSchema.Element.blur)?.defaultValue == .text("faces"))
    }
}
