import Foundation
import StreamLensCore
import Testing

@testable import StreamLensDetection

/// Decoding of YOLO outputs from models whose outputs are known exactly (scripts/datasets/make-test-onnx.py).
///
/// Every test analyses a 640×360 frame that stands for a 1280×720 source. The 320×320 network input holds it
/// letterboxed at scale 0.5 (320×180) with 70 rows of padding above, so a network box (cx, cy, w, h) lands at
/// source x = 4·(cx − w/2), y = 4·(cy − h/2 − 70), size 4·w × 4·h, clamped to the frame.
@Suite("ONNX YOLO detector")
struct ONNXDetectorTests {
    static func options(_ configure: (inout ONNXDetector.Options) -> Void = { _ in }) throws -> ONNXDetector.Options {
        var options = ONNXDetector.Options()
        options.inputWidth = 320
        options.inputHeight = 320
        options.classNamesPath = try TestEnvironment.onnxFixture("classes.txt")
        configure(&options)
        return options
    }

    static func detect(model: String, options: ONNXDetector.Options) throws -> (ONNXDetector, [Detection]) {
        let detector = try ONNXDetector(modelPath: try TestEnvironment.onnxFixture(model), options: options)
        let image = OwnedYUVImage(layout: .i420, width: 640, height: 360, fill: (16, 128, 128))
        let detections = try TestFrames.withFrame(image, sourceWidth: 1280, sourceHeight: 720) {
            try detector.detect($0)
        }
        return (detector, detections)
    }

    struct Expected: CustomStringConvertible {
        var className: String
        var confidence: Double
        var box: [Int]
        var description: String { "\(className) \(confidence) \(box)" }
    }

    static func summary(_ detections: [Detection]) -> [String] {
        detections.map { "\($0.className) \(String(format: "%.2f", $0.confidence)) \($0.box.rounded)" }
    }

    @Test("YOLOv8 layout: thresholds, per-class NMS, letterbox mapping and clamping to the pixel")
    func yolov8Decoding() throws {
        let (detector, detections) = try Self.detect(model: "yolov8-fixed.onnx", options: try Self.options())
        #expect(detector.resolvedLayout == .v8)
        #expect(Self.summary(detections) == [
            "person 0.90 [320, 160, 160, 320]",
            "person 0.85 [416, 160, 160, 320]",
            "car 0.70 [320, 160, 160, 320]",
            "person 0.60 [880, 280, 240, 160]",
            "person 0.55 [1160, 0, 120, 200]",
        ])
        // Exact coordinates, not only rounded ones: the mapping is pure scaling of whole numbers.
        #expect(detections[0].box == BoundingBox(x: 320, y: 160, width: 160, height: 320))
        #expect(detections.map(\.classID) == [0, 0, 1, 0, 0])
        #expect(detections.allSatisfy { $0.trackID == nil })
    }

    /// One NaN candidate made a full-frame box and dropped the real one; a negative width emptied the frame; a
    /// score of 5 was reported as confidence 5.
    @Test("Broken model outputs: NaN, infinite and negative candidates are dropped, scores above 1 clamped")
    func malformedOutputs() throws {
        let (_, detections) = try Self.detect(model: "yolov8-malformed.onnx", options: try Self.options())
        #expect(Self.summary(detections) == [
            "car 1.00 [920, 440, 160, 160]",
            "person 0.90 [320, 160, 160, 320]",
        ])
        #expect(detections.allSatisfy { $0.confidence <= 1 })
    }

    @Test("YOLOv5 layout: score is objectness × best class score")
    func yolov5Decoding() throws {
        let (detector, detections) = try Self.detect(model: "yolov5-fixed.onnx", options: try Self.options())
        #expect(detector.resolvedLayout == .v5)
        #expect(Self.summary(detections) == [
            "person 0.95 [480, 160, 400, 400]",
            "dog 0.80 [160, 440, 160, 160]",
            "person 0.54 [960, 560, 160, 160]",
        ])
        #expect(abs(detections[2].confidence - 0.54) < 1e-6)
    }

    @Test("Layout is recognised from the shape alone, without a class-names file (COCO names then)")
    func layoutWithoutClassNames() throws {
        let options = try Self.options { $0.classNamesPath = nil }
        let (v8, v8Detections) = try Self.detect(model: "yolov8-fixed.onnx", options: options)
        #expect(v8.resolvedLayout == .v8)
        #expect(v8Detections.map(\.className) == ["person", "person", "bicycle", "person", "person"])
        let (v5, v5Detections) = try Self.detect(model: "yolov5-fixed.onnx", options: options)
        #expect(v5.resolvedLayout == .v5)
        #expect(v5Detections.count == 3)
    }

    @Test(
        "Thresholds change what survives",
        arguments: [
            (0.50, 0.45, 5), (0.58, 0.45, 4), (0.75, 0.45, 2), (0.95, 0.45, 0),
            // NMS at 0.2 also drops the 0.85 person (IoU 0.25 with the 0.90 one); at 0.9 it keeps the 0.80 one.
            (0.50, 0.20, 4), (0.50, 0.90, 6),
        ])
    func thresholds(confidence: Double, nms: Double, expectedCount: Int) throws {
        let options = try Self.options {
            $0.confidenceThreshold = confidence
            $0.nmsThreshold = nms
        }
        let (_, detections) = try Self.detect(model: "yolov8-fixed.onnx", options: options)
        #expect(detections.count == expectedCount)
        #expect(detections.allSatisfy { $0.confidence >= confidence })
    }

    @Test("Class allow and deny lists, by name or id")
    func classFilters() throws {
        let allowPerson = try Self.options { $0.allowedClasses = ["person"] }
        #expect(try Self.detect(model: "yolov8-fixed.onnx", options: allowPerson).1.map(\.className)
            == ["person", "person", "person", "person"])
        let denyPerson = try Self.options { $0.deniedClasses = ["0"] }
        #expect(try Self.summary(Self.detect(model: "yolov8-fixed.onnx", options: denyPerson).1)
            == ["car 0.70 [320, 160, 160, 320]"])
        let allowDog = try Self.options { $0.allowedClasses = ["dog"] }
        #expect(try Self.summary(Self.detect(model: "yolov5-fixed.onnx", options: allowDog).1)
            == ["dog 0.80 [160, 440, 160, 160]"])
    }

    @Test("A class filter naming an unknown class is rejected with the class name")
    func unknownClass() throws {
        let options = try Self.options { $0.allowedClasses = ["zebra"] }
        let error = #expect(throws: DetectionError.self) {
            _ = try ONNXDetector(modelPath: try TestEnvironment.onnxFixture("yolov8-fixed.onnx"), options: options)
        }
        #expect(error?.description == "unknown class 'zebra' in the class filter: use one of the model's classes "
            + "(person, car, dog; or ids 0…2)")
    }

    @Test("The network sees RGB in 0…1, letterboxed with grey 114")
    func letterboxedInput() throws {
        // A pure-red frame (BT.601 video range Y 81, U 90, V 240 → R 254, G 0, B 0) fills 320×180 of the 320×320
        // input; the other 320×140 are padding 114. The probe model answers one box with centre
        // (300·mean R, 300·mean G + 150), width 300·mean B and height 10 in network pixels.
        let options = try Self.options {
            $0.layout = .v8
            $0.classNamesPath = nil
        }
        let detector = try ONNXDetector(modelPath: try TestEnvironment.onnxFixture("probe-v8.onnx"), options: options)
        let image = OwnedYUVImage(layout: .i420, width: 640, height: 360, fill: (81, 90, 240))
        // Analysis frame = source: network x = frame x · 0.5, network y = frame y · 0.5 + 70.
        let detections = try TestFrames.withFrame(image) { try detector.detect($0) }
        try #require(detections.count == 1)
        let box = detections[0].box
        #expect(abs(box.height - 20) < 1e-3)
        let meanR = (box.x + box.width / 2) * 0.5 / 300
        let meanG = ((box.y + box.height / 2) * 0.5 + 70 - 150) / 300
        let meanB = box.width * 0.5 / 300
        let padMean = (140.0 / 320.0) * 114 / 255
        let frameShare = 180.0 / 320.0
        // Swapped channels, a missing 1/255 scale or black padding would each be off by far more than 0.005.
        #expect(abs(meanR - (frameShare * 254 / 255 + padMean)) < 0.005, "mean R \(meanR)")
        #expect(abs(meanG - padMean) < 0.005, "mean G \(meanG)")
        #expect(abs(meanB - padMean) < 0.005, "mean B \(meanB)")
    }

    @Test("The centroid model finds a bright square on black at its centre", arguments: [(100, 60), (40, 251), (250, 130)])
    func centroidModel(x: Int, y: Int) throws {
        // 320×320 frame = network input: no scaling, no padding. A 40×40 white square at (x, y).
        let detector = try ONNXDetector(modelPath: try TestEnvironment.onnxFixture("centroid-v8.onnx"), options: try Self.options())
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 320)
        image.withPlanes { planes in
            for row in y..<(y + 40) {
                for column in x..<(x + 40) { planes.y.base[row * planes.y.stride + column] = 235 }
            }
        }
        let detections = try TestFrames.withFrame(image) { try detector.detect($0) }
        try #require(detections.count == 1)
        let box = detections[0].box
        #expect(detections[0].className == "person")
        #expect(abs(box.center.x - Double(x + 20)) < 0.5, "centre x \(box.center.x)")
        #expect(abs(box.center.y - Double(y + 20)) < 0.5, "centre y \(box.center.y)")
        // The model's box is always 64×64 network pixels.
        #expect(abs(box.width - 64) < 1e-3 && abs(box.height - 64) < 1e-3)
    }

    @Test("A missing model is one error naming the file")
    func missingModel() {
        let error = #expect(throws: DetectionError.self) {
            _ = try ONNXDetector(modelPath: "/nonexistent/yolo.onnx")
        }
        #expect(error?.description == "ONNX model '/nonexistent/yolo.onnx' not found or not readable: check the path")
    }

    @Test("A file that is no ONNX network is one error naming the file")
    func corruptModel() throws {
        let directory = try TestEnvironment.temporaryDirectory("corrupt")
        let path = directory.appendingPathComponent("broken.onnx").path
        try Data("this is not a protobuf".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: DetectionError.self) { _ = try ONNXDetector(modelPath: path) }
        guard case .modelLoadFailed(let failedPath, _) = error else {
            Issue.record("expected modelLoadFailed, got \(String(describing: error))")
            return
        }
        #expect(failedPath == path)
        #expect(error?.description.contains("'\(path)'") == true)
        #expect(error?.description.contains("\n") == false)
    }

    @Test("A class-names file that does not fit the output shape is reported, not misdecoded")
    func classCountMismatch() throws {
        let directory = try TestEnvironment.temporaryDirectory("names")
        let names = directory.appendingPathComponent("two.txt").path
        try Data("a\nb\n".utf8).write(to: URL(fileURLWithPath: names))
        let options = try Self.options { $0.classNamesPath = names }
        let error = #expect(throws: DetectionError.self) {
            _ = try Self.detect(model: "yolov8-fixed.onnx", options: options)
        }
        #expect(error?.description.contains("has output 1x7x16 (expected 1x6xN or 1xNx7 for 2 class names)") == true,
            "\(String(describing: error))")
    }
}
