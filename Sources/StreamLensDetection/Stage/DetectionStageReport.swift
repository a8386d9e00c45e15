import StreamLensCore

/// What an ``ObjectDetectionStage`` did, for the run report (`--report`) and logs. Encodes as JSON with
/// snake_case keys and durations in milliseconds.
public struct DetectionStageReport: Sendable, Equatable, Encodable {
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

    enum CodingKeys: String, CodingKey {
        case stage, backend, failures, timeouts
        case analysedFrames = "analysed_frames"
        case reportedDetections = "reported_detections"
        case breakerTrips = "breaker_trips"
        case breakerProbes = "breaker_probes"
        case framesSkippedByBreaker = "frames_skipped_by_breaker"
        case breakerState = "breaker_state"
        case tracksStarted = "tracks_started"
        case tracksFinished = "tracks_finished"
        case inferenceMedian = "inference_median_ms"
        case inferenceP95 = "inference_p95_ms"
        case lastError = "last_error"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stage, forKey: .stage)
        try container.encode(backend, forKey: .backend)
        try container.encode(analysedFrames, forKey: .analysedFrames)
        try container.encode(reportedDetections, forKey: .reportedDetections)
        try container.encode(failures, forKey: .failures)
        try container.encode(timeouts, forKey: .timeouts)
        try container.encode(breakerTrips, forKey: .breakerTrips)
        try container.encode(breakerProbes, forKey: .breakerProbes)
        try container.encode(framesSkippedByBreaker, forKey: .framesSkippedByBreaker)
        try container.encode(breakerState.rawValue, forKey: .breakerState)
        try container.encode(tracksStarted, forKey: .tracksStarted)
        try container.encode(tracksFinished, forKey: .tracksFinished)
        try container.encodeIfPresent(inferenceMedian.map { ($0.milliseconds * 1000).rounded() / 1000 }, forKey: .inferenceMedian)
        try container.encodeIfPresent(inferenceP95.map { ($0.milliseconds * 1000).rounded() / 1000 }, forKey: .inferenceP95)
        try container.encodeIfPresent(lastError, forKey: .lastError)
    }
}
