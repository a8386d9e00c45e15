internal import COpenCVDetection
import Foundation
import StreamLensCore

/// A YOLO detector (v5, v8 or v11 exported to ONNX) run with OpenCV's dnn module.
///
/// Each frame is converted to BGR in reused buffers, letterboxed into the network input (aspect kept, grey 114
/// padding), decoded according to the output layout (YOLOv5 `1×N×(5+C)` with objectness, YOLOv8/v11
/// `1×(4+C)×N`), thresholded, filtered by class and reduced with `cv::dnn::NMSBoxes` per class. Boxes come back
/// in source-frame pixels.
///
/// ## Thread Safety
/// One thread at a time (see ``ObjectDetector``); an OpenCV network is not re-entrant.
public final class ONNXDetector: ObjectDetector, @unchecked Sendable {
    /// How the first network output is laid out.
    public enum Layout: String, Sendable, Equatable, CaseIterable {
        /// Decide from the output shape (and the class count when a names file is given).
        case auto
        /// YOLOv5: rows of (cx, cy, w, h, objectness, class scores…).
        case v5
        /// YOLOv8/v11: columns of (cx, cy, w, h, class scores…).
        case v8
    }

    /// Tuning of the network and its decoding.
    public struct Options: Sendable, Equatable {
        /// Network input size in pixels (the size the model was exported with).
        public var inputWidth: Int = 640
        public var inputHeight: Int = 640
        /// Minimum score to keep a candidate (objectness × class score for v5).
        public var confidenceThreshold: Double = 0.5
        /// Overlap (IoU) above which the weaker of two boxes of one class is dropped.
        public var nmsThreshold: Double = 0.45
        public var layout: Layout = .auto
        /// One class name per line; nil: the 80 COCO names.
        public var classNamesPath: String?
        /// Keep only these classes (names or ids); empty: all.
        public var allowedClasses: [String] = []
        /// Drop these classes (names or ids).
        public var deniedClasses: [String] = []

        public init() {}
    }

    /// `onnx:<model path>`.
    public let backendName: String
    /// The network file.
    public let modelPath: String
    /// The options it was created with.
    public let options: Options
    /// The names detections are labelled with.
    public let classNames: ClassNames
    private let handle: OpenCVDetectorHandle

    /// Loads the network at `modelPath`. Throws one ``DetectionError`` naming the file when it is missing or not
    /// a network OpenCV can read.
    public init(modelPath: String, options: Options = Options()) throws {
        guard options.inputWidth >= 32, options.inputHeight >= 32 else {
            throw DetectionError.invalidOption("ONNX input size \(options.inputWidth)x\(options.inputHeight) < 32")
        }
        guard (0...1).contains(options.confidenceThreshold), (0...1).contains(options.nmsThreshold) else {
            throw DetectionError.invalidOption("confidence and NMS thresholds must lie in 0…1")
        }
        guard FileManager.default.isReadableFile(atPath: modelPath) else {
            throw DetectionError.fileNotFound(path: modelPath, role: "ONNX model")
        }
        let namesFromFile = try options.classNamesPath.map { try ClassNames(contentsOf: $0) }
        let classNames = namesFromFile ?? .coco
        let allowed = try classNames.ids(for: options.allowedClasses).map { Int32(clamping: $0) }
        let denied = try classNames.ids(for: options.deniedClasses).map { Int32(clamping: $0) }

        self.modelPath = modelPath
        self.options = options
        self.classNames = classNames
        self.backendName = "onnx:\(modelPath)"
        var raw = slcv_onnx_options()
        slcv_onnx_default_options(&raw)
        raw.input_width = Int32(clamping: options.inputWidth)
        raw.input_height = Int32(clamping: options.inputHeight)
        raw.confidence_threshold = Float(options.confidenceThreshold)
        raw.nms_threshold = Float(options.nmsThreshold)
        raw.layout = switch options.layout {
        case .auto: Int32(SLCV_YOLO_AUTO.rawValue)
        case .v5: Int32(SLCV_YOLO_V5.rawValue)
        case .v8: Int32(SLCV_YOLO_V8.rawValue)
        }
        // Only a names file tells the real class count; the COCO default is a guess and must not steer layout.
        raw.class_count = Int32(clamping: namesFromFile?.names.count ?? 0)
        raw.allowed_count = Int32(allowed.count)
        raw.denied_count = Int32(denied.count)
        handle = try allowed.withUnsafeBufferPointer { allowedIDs in
            try denied.withUnsafeBufferPointer { deniedIDs in
                raw.allowed_classes = allowedIDs.baseAddress
                raw.denied_classes = deniedIDs.baseAddress
                // The bridge copies both lists before returning.
                return try OpenCVDetectorHandle(
                    backendName: "onnx:\(modelPath)",
                    create: { detector, error, capacity in
                        slcv_detector_create_onnx(modelPath, &raw, detector, error, capacity)
                    },
                    loadError: { status, message in
                        status == SLCV_INVALID_ARGUMENT
                            ? .invalidOption(message) : .modelLoadFailed(path: modelPath, reason: message)
                    })
            }
        }
    }

    /// The layout the last frame was decoded with (``Layout/auto`` before the first frame).
    public var resolvedLayout: Layout {
        switch handle.resolvedLayout {
        case Int32(SLCV_YOLO_V5.rawValue): .v5
        case Int32(SLCV_YOLO_V8.rawValue): .v8
        default: .auto
        }
    }

    public func detect(_ frame: AnalysisFrame) throws -> [Detection] {
        let names = classNames
        do {
            return try handle.detect(frame) { names.name(of: $0) }
        } catch DetectionError.unsupportedModelOutput(_, let reason) {
            throw DetectionError.unsupportedModelOutput(path: modelPath, reason: reason)
        }
    }
}
