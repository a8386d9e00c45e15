import Foundation
import StreamLensCore
import Testing

@testable import StreamLensDetection

@Suite("Detector options and setup")
struct ObjectDetectionSetupTests {
    @Test("--detector values", arguments: [
        ("hog", DetectorSpec.hog),
        ("cascade:fullbody", .cascade("fullbody")),
        ("cascade", .cascade("")),
        ("cascade:/data/my cascade.xml", .cascade("/data/my cascade.xml")),
        ("onnx:models/yolov8n.onnx", .onnx(path: "models/yolov8n.onnx")),
        ("ONNX:C:/weird:name.onnx", .onnx(path: "C:/weird:name.onnx")),
    ])
    func parse(text: String, expected: DetectorSpec) throws {
        #expect(try DetectorSpec(parsing: text) == expected)
    }

    @Test("Unknown --detector values are rejected", arguments: ["yolo", "onnx", "onnx:", "hog:x", "", "cascade:"])
    func parseErrors(text: String) {
        #expect(throws: DetectionError.unknownDetector(spec: text)) { _ = try DetectorSpec(parsing: text) }
    }

    @Test("Backend defaults: analysis width 640 (the ONNX input size for ONNX), 0.3 s cadence, the source's colours (BT.601 for ONNX)")
    func defaults() throws {
        let hog = try ObjectDetectionSetup.make(ObjectDetectionOptions(detector: .hog))
        #expect(hog.stage.preferredAnalysisWidth == 640)
        #expect(hog.schedule.currentInterval == .milliseconds(300))
        #expect(hog.stage.name == "objects")
        #expect(hog.stage.analysisColours == .source)
        var onnx = ObjectDetectionOptions(detector: .onnx(path: try TestEnvironment.onnxFixture("yolov8-fixed.onnx")))
        onnx.inputSize = 320
        onnx.everyNthFrame = 4
        let built = try ObjectDetectionSetup.make(onnx, loading: .now)
        #expect(built.stage.preferredAnalysisWidth == 320)
        #expect(built.schedule.report.currentFrameStride == 4)
        // The network's input is converted to BGR by OpenCV, which assumes BT.601.
        #expect(built.stage.analysisColours == .bt601)
    }

    /// A class given by id ("--classes 0") kept nothing: the model filtered by id, then the stage by name.
    @Test("Options reach the detector: thresholds, classes by name or id, max concurrent (ONNX end to end)",
          arguments: [["person"], ["0"], ["0", "person"]])
    func optionsReachDetector(classes: [String]) throws {
        var options = ObjectDetectionOptions(detector: .onnx(path: try TestEnvironment.onnxFixture("yolov8-fixed.onnx")))
        options.inputSize = 320
        options.classNamesPath = try TestEnvironment.onnxFixture("classes.txt")
        options.confidenceThreshold = 0.58
        options.allowedClasses = classes
        options.maxConcurrent = 2
        let built = try ObjectDetectionSetup.make(options)
        let image = OwnedYUVImage(layout: .i420, width: 640, height: 360)
        let result = try TestFrames.withFrame(image, sourceWidth: 1280, sourceHeight: 720) {
            try built.stage.analyze($0)
        }
        #expect(result.items.map(\.box.rounded) == [[320, 160, 160, 320], [416, 160, 160, 320]])
        #expect(result.items.map(\.trackID) == [1, 2])
        #expect(built.stage.report.backend.hasPrefix("onnx:"))
    }

    @Test("Setup rejects what it can check before loading")
    func earlyErrors() throws {
        #expect(throws: DetectionError.unknownCascade(name: "cats", searched: "/usr/share/opencv4/haarcascades")) {
            _ = try ObjectDetectionSetup.make(ObjectDetectionOptions(detector: .cascade("cats")))
        }
        var badClass = ObjectDetectionOptions(detector: .onnx(path: "/later/model.onnx"))
        badClass.deniedClasses = ["unicorn"]
        #expect(throws: DetectionError.self) { _ = try ObjectDetectionSetup.make(badClass) }
        // HOG reports only people and a cascade only its own class: a filter naming another would drop everything.
        var zebraPeople = ObjectDetectionOptions(detector: .hog)
        zebraPeople.allowedClasses = ["zebra"]
        #expect(throws: DetectionError.unknownClass(name: "zebra", available: "person; or id 0")) {
            _ = try ObjectDetectionSetup.make(zebraPeople)
        }
        var faces = ObjectDetectionOptions(detector: .cascade("frontalface"))
        faces.allowedClasses = ["face"]
        #expect(throws: Never.self) { _ = try ObjectDetectionSetup.make(faces) }
        faces.allowedClasses = ["person"]
        #expect(throws: DetectionError.unknownClass(name: "person", available: "face; or id 0")) {
            _ = try ObjectDetectionSetup.make(faces)
        }
        var people = ObjectDetectionOptions(detector: .hog)
        people.allowedClasses = ["person"]
        #expect(throws: Never.self) { _ = try ObjectDetectionSetup.make(people) }
        // Ids count too: HOG's one class is id 0; COCO's ids are 0…79.
        people.allowedClasses = ["0"]
        #expect(throws: Never.self) { _ = try ObjectDetectionSetup.make(people) }
        people.allowedClasses = ["1"]
        #expect(throws: DetectionError.unknownClass(name: "1", available: "person; or id 0")) {
            _ = try ObjectDetectionSetup.make(people)
        }
        var beyondCOCO = ObjectDetectionOptions(detector: .onnx(path: "/later/model.onnx"))
        beyondCOCO.allowedClasses = ["99"]
        #expect(throws: DetectionError.self) { _ = try ObjectDetectionSetup.make(beyondCOCO) }
        var badThreshold = ObjectDetectionOptions(detector: .hog)
        badThreshold.confidenceThreshold = 1.5
        #expect(throws: DetectionError.invalidOption("confidence and NMS thresholds must lie in 0…1")) {
            _ = try ObjectDetectionSetup.make(badThreshold)
        }
    }

    /// A names file saved on Windows ("\r\n") was read as one name, so every model output had the wrong shape.
    @Test("A class-names file with Windows line ends has one name a line")
    func classNamesWithWindowsLineEnds() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString).txt").path
        try "person\r\ncar\r\ndog\r\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try ClassNames(contentsOf: path).names == ["person", "car", "dog"])
    }

    @Test("HOG pyramid steps of 1 or less are refused with one line", arguments: [(1.0, 1.1), (1.05, 0.9)])
    func hogPyramidSteps(largePeopleStep: Double, smallPeopleStep: Double) {
        var options = HOGPeopleDetector.Options()
        options.pyramidScale = largePeopleStep
        options.smallPeoplePyramidScale = smallPeopleStep
        #expect(throws: DetectionError.invalidOption("HOG pyramid scale steps must be greater than 1")) {
            _ = try HOGPeopleDetector(options: options)
        }
    }

    @Test("Error messages are one line each", arguments: [
        DetectionError.unknownDetector(spec: "yolo"),
        .unknownCascade(name: "cats", searched: "/usr/share/opencv4/haarcascades"),
        .fileNotFound(path: "/m.onnx", role: "ONNX model"),
        .modelNotInstalled(name: "yolov8n", searched: ["/a", "/b"], install: YOLOModel.installHint),
        .modelLoadFailed(path: "/m.onnx", reason: "bad protobuf"),
        .unsupportedModelOutput(path: "/m.onnx", reason: "output 1x3"),
        .unknownClass(name: "zebra", available: "person, car"),
        .invalidOption("x"),
        .unsupportedFrame("y"),
        .detectionFailed(backend: "hog", reason: "z"),
    ])
    func oneLineErrors(error: DetectionError) {
        #expect(!error.description.contains("\n"))
        #expect(!error.description.isEmpty)
    }
}

@Suite("OpenCV runtime")
struct OpenCVRuntimeTests {
    @Test("Debian's OpenCV 4.6 is linked")
    func version() {
        #expect(OpenCVRuntime.version.hasPrefix("4.6."))
    }
}
