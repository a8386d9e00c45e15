import Foundation

/// Which detector backend to run, as written on the command line
/// (`--detector hog|yolov8n|cascade:NAME|PATH|onnx:PATH`), in a pipeline file (`detector: { backend: … }`) and on the
/// `streamlensdetect` element (`detector=…`).
public enum DetectorSpec: Sendable, Equatable, CustomStringConvertible {
    /// OpenCV's HOG people detector.
    case hog
    /// A Haar/LBP cascade: a short name of ``CascadeCatalog`` (`fullbody`, `upperbody`, `frontalface`,
    /// `licence_plate`…) or the path of an XML file. `cascade` alone means `frontalface`.
    case cascade(String)
    /// A YOLO v5/v8/v11 network exported to ONNX.
    case onnx(path: String)
    /// Ultralytics YOLOv8n on COCO, installed by scripts/models/install-detector-model.sh (``YOLOModel``): run as an ONNX
    /// network, keeping the road classes unless a class filter is given.
    case yolov8n

    /// Parses the command-line form; throws ``DetectionError/unknownDetector(spec:)``.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let (kind, argument) = Self.split(trimmed)
        switch kind.lowercased() {
        case "hog" where argument == nil:
            self = .hog
        case "cascade" where argument?.isEmpty != true:
            // `cascade` alone is the default cascade; `cascade:` with nothing after it is a name left out.
            self = .cascade(argument ?? "")
        case YOLOModel.name where argument == nil:
            self = .yolov8n
        case "onnx" where argument?.isEmpty == false:
            self = .onnx(path: argument!)
        default:
            throw DetectionError.unknownDetector(spec: text)
        }
    }

    public var description: String {
        switch self {
        case .hog: "hog"
        case .cascade(let name): name.isEmpty ? "cascade" : "cascade:\(name)"
        case .onnx(let path): "onnx:\(path)"
        case .yolov8n: YOLOModel.name
        }
    }

    /// Throws ``DetectionError/modelNotInstalled(name:searched:install:)`` when this detector's model is one a
    /// user installs (`yolov8n`) and it is not there: the command line and pipeline files check it before a run
    /// starts, so that the fix is said at once, in one line.
    public func checkInstalled() throws {
        if case .yolov8n = self { _ = try YOLOModel.requireInstalled() }
    }

    private static func split(_ text: String) -> (String, String?) {
        guard let colon = text.firstIndex(of: ":") else { return (text, nil) }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}
