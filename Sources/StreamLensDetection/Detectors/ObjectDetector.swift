import StreamLensCore

/// Finds objects in one analysis frame. Every backend (HOG, cascade, ONNX YOLO, a test double) answers with the
/// same ``Detection`` contract, boxes already in source-frame pixels.
///
/// ## Thread Safety
/// A detector keeps reusable buffers (and an OpenCV object) and is used by one thread at a time: the analysis
/// thread of the stage that owns it.
public protocol ObjectDetector: AnyObject {
    /// Short description for reports and errors: `hog`, `cascade:frontalface`, `onnx:/models/yolov8n.onnx`.
    var backendName: String { get }
    /// Detections in source-frame pixels (analysis boxes scaled by ``AnalysisFrame/scaleToSource``), highest
    /// confidence first, without track ids.
    func detect(_ frame: AnalysisFrame) throws -> [Detection]
}
