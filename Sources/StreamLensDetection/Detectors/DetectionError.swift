/// Everything that can go wrong in the detection layer, each as one line: what failed, which file, what to do.
public enum DetectionError: Error, Sendable, CustomStringConvertible, Equatable {
    /// `--detector` text that names no backend.
    case unknownDetector(spec: String)
    /// A cascade name that is neither a known short name nor an existing file.
    case unknownCascade(name: String, searched: String)
    /// A packaged model (`--detector yolov8n`) is not installed in any of the `searched` folders; `install` says how.
    case modelNotInstalled(name: String, searched: [String], install: String)
    /// A model, cascade or class-names file does not exist or cannot be read.
    case fileNotFound(path: String, role: String)
    /// The file exists but OpenCV could not load it (`reason`, from the bridge, names the file).
    case modelLoadFailed(path: String, reason: String)
    /// The network's output shape matches no supported YOLO layout.
    case unsupportedModelOutput(path: String, reason: String)
    /// A class named in an allow/deny list is not among the model's class names.
    case unknownClass(name: String, available: String)
    /// An option is out of range.
    case invalidOption(String)
    /// The analysis frame cannot be handed to OpenCV.
    case unsupportedFrame(String)
    /// OpenCV failed while detecting on one frame.
    case detectionFailed(backend: String, reason: String)

    public var description: String {
        switch self {
        case .unknownDetector(let spec):
            "unknown detector '\(spec)': use hog, yolov8n, cascade:NAME|PATH (NAME: fullbody, upperbody, "
                + "frontalface, licence_plate) or onnx:PATH"
        case .unknownCascade(let name, let searched):
            "no cascade named '\(name)' in \(searched): give a known name ("
                + CascadeCatalog.knownCascades.keys.sorted().joined(separator: ", ")
                + ") or the path of a cascade XML file (Debian package opencv-data)"
        case .modelNotInstalled(let name, let searched, let install):
            "the \(name) model is not installed (looked in \(searched.joined(separator: ", "))): install it with "
                + install
        case .fileNotFound(let path, let role):
            "\(role) '\(path)' not found or not readable: check the path"
        case .modelLoadFailed(let path, let reason):
            reason.contains(path) ? "\(reason): check that the file is valid for this backend"
                : "cannot load '\(path)': \(reason): check that the file is valid for this backend"
        case .unsupportedModelOutput(let path, let reason):
            reason.contains(path) ? "\(reason): export a YOLOv5, v8 or v11 detector to ONNX"
                : "model '\(path)' is not a supported YOLO detector: \(reason): export YOLOv5, v8 or v11 to ONNX"
        case .unknownClass(let name, let available):
            "unknown class '\(name)' in the class filter: use one of the model's classes (\(available))"
        case .invalidOption(let message):
            "invalid detector option: \(message)"
        case .unsupportedFrame(let message):
            "cannot analyse the frame: \(message)"
        case .detectionFailed(let backend, let reason):
            "\(backend) detection failed: \(reason)"
        }
    }
}
