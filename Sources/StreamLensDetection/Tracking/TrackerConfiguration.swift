/// Tuning of ``ByteTracker``.
public struct TrackerConfiguration: Sendable, Equatable {
    /// A detection at or above the confidence threshold continues a track when its box overlaps the track's
    /// predicted box at least this much (IoU; the first association round). Low on purpose: at a 0.3 s cadence a
    /// walker's person-sized box moves by half its width between analyses, and the prediction is only as good as
    /// the velocity estimated from a few sightings.
    public var matchThreshold: Double = 0.1
    /// A low-confidence detection (between ``ObjectDetectionStage/Configuration/trackingFloor`` and the confidence
    /// threshold) continues a track, in the second round, only when it overlaps the track's predicted box at least
    /// this much: such boxes are often false, so they must sit where the track is expected.
    public var lowConfidenceMatchThreshold: Double = 0.3
    /// A track seen once has no velocity yet: its box and the detections are widened by this fraction of their width
    /// and height on each side before their overlap is taken, so that an object moving most of its width between two
    /// analyses (a passing car at 0.3 s, a walker at a lengthened cadence) is linked at its second sighting.
    public var unknownMotionMargin: Double = 0.5
    /// A track is confirmed (gets an id and is reported) at its this-many-th sighting within the re-identification
    /// window; tracks born on the tracker's first analysed frame are confirmed at once, so a video's first frame is
    /// drawn with its boxes.
    public var confirmationHits: Int = 2
    /// A confirmed track missed by more analysed frames in a row than this ends (its id is not reused).
    public var maxMissedAnalyses: Int = 5
    /// A track unseen for longer than this much stream time ends, even if few analyses missed it: the
    /// re-identification window in which a lost track keeps its id and is matched again on its predicted box.
    public var reidentificationWindow: Duration = .seconds(3)
    /// A track missed on more analysed frames in a row than this is kept (its id survives the occlusion) but not
    /// shown: its box would go on moving by its last velocity while the object may have stopped or gone. One miss is
    /// drawn (at the predicted box), as detectors miss a frame now and then. Times the detector did not run
    /// (``ByteTracker/advance(to:)``) are not misses.
    public var maxMissedAnalysesShown: Int = 1
    /// Weight of the newest detection in the box that is drawn, against the track's predicted box (1: the detection
    /// as found).
    public var smoothing: Double = 0.35
    /// At most this many tracks are reported per frame: tracks seen in this frame first, then by confidence.
    public var maxConcurrent: Int = 5
    /// A track not seen for this much stream time ends even without analyses (a paused or tripped detector must not
    /// leave stale boxes on screen); ``ByteTracker/advance(to:)`` applies it.
    public var maxAge: Duration = .seconds(30)
    /// Report only one subject: the largest box, kept (locked) until its track ends.
    public var primarySubjectOnly: Bool = false
    /// Only detections of the same class continue a track.
    public var matchClassNames: Bool = true
    /// The motion model's noise.
    public var noise = KalmanBoxFilter.Noise()

    public init() {}

    /// Checks ranges; throws ``DetectionError/invalidOption(_:)``.
    public func validate() throws {
        guard (0...1).contains(matchThreshold), (0...1).contains(lowConfidenceMatchThreshold) else {
            throw DetectionError.invalidOption(
                "track match thresholds \(matchThreshold), \(lowConfidenceMatchThreshold) must lie in 0…1")
        }
        guard smoothing > 0, smoothing <= 1 else {
            throw DetectionError.invalidOption("box smoothing \(smoothing) is outside (0, 1]")
        }
        guard unknownMotionMargin >= 0 else { throw DetectionError.invalidOption("unknown-motion margin < 0") }
        guard confirmationHits >= 1 else { throw DetectionError.invalidOption("track confirmation hits < 1") }
        guard maxMissedAnalyses >= 0 else { throw DetectionError.invalidOption("max missed analyses < 0") }
        guard maxMissedAnalysesShown >= 0 else { throw DetectionError.invalidOption("max missed analyses shown < 0") }
        guard maxConcurrent >= 1 else { throw DetectionError.invalidOption("max concurrent detections < 1") }
        guard maxAge > .zero else { throw DetectionError.invalidOption("max detection age must be positive") }
        guard reidentificationWindow > .zero else {
            throw DetectionError.invalidOption("re-identification window must be positive")
        }
    }
}
