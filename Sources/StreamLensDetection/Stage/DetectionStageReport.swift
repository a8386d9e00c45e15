import StreamLensCore

/// What an ``ObjectDetectionStage`` did, for the run report (`--report`) and logs.
public struct DetectionStageReport: Sendable, Equatable {
    /// Stage name and detector backend (`hog`, `cascade:frontalface`, `onnx:PATH`).
    public var stage: String
    public var backend: String
    /// Frames the detector ran on successfully.
    public var analysedFrames: Int
    /// Detections reported (after tracking and the concurrency cap), summed over frames.
    public var reportedDetections: Int
    /// Detector calls that threw (model load failures included) or timed out.
    public var failures: Int
    public var timeouts: Int
    /// Times the circuit breaker opened, probes it let through, and frames it kept from the detector.
    public var breakerTrips: Int
    public var breakerProbes: Int
    public var framesSkippedByBreaker: Int
    public var breakerState: CircuitBreaker.State
    public var tracksStarted: Int
    public var tracksFinished: Int
    /// Inference time per analysed frame (detector call only), over the most recent frames.
    public var inferenceMedian: Duration?
    public var inferenceP95: Duration?
    /// The newest failure, as one line.
    public var lastError: String?
}
