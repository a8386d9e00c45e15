/// Tuning of ``IoUTracker``.
public struct TrackerConfiguration: Sendable, Equatable {
    /// A detection continues a track when their boxes overlap at least this much (IoU, against the track's last
    /// box or its predicted box). Low on purpose: at a 0.3 s cadence a walker's person-sized box moves by half its
    /// width between analyses. On vtest.avi at 5 fps (HOG, fitted boxes) 0.3 gave 50 tracks, 0.2 gave 42 and 0.1
    /// gave 30 for about 15 people, with the same 3 id switches.
    public var matchThreshold: Double = 0.1
    /// A track survives this many analysed frames without a matching detection (short occlusions) before it ends.
    public var maxMissedAnalyses: Int = 5
    /// A track missed on more analysed frames in a row than this is kept (its id survives the occlusion) but not
    /// shown: its box would stay frozen where the person was last seen while they walked on, or across a cut (HOG's
    /// people stayed boxed 1.5 s after their last detection). One miss is drawn, as detectors miss a frame now and
    /// then. Times the detector did not run (``IoUTracker/advance(to:)``) are not misses.
    public var maxMissedAnalysesShown: Int = 1
    /// Weight of the newest box in the exponential moving average of a track's box (1: no smoothing).
    public var smoothing: Double = 0.35
    /// Weight of the newest displacement in a track's velocity estimate. The estimate predicts where a track is at
    /// the next analysis, for matching and as the prior of box smoothing (0: no prediction; plain EMA).
    public var motionSmoothing: Double = 0.5
    /// At most this many tracks are reported per frame: tracks seen in this frame first, then by confidence.
    public var maxConcurrent: Int = 5
    /// A track not seen for this much stream time ends even if few analyses missed it (a paused or tripped
    /// detector must not leave stale boxes on screen).
    public var maxAge: Duration = .seconds(30)
    /// Report only one subject: the largest box, kept (locked) until its track ends.
    public var primarySubjectOnly: Bool = false
    /// Only detections of the same class continue a track.
    public var matchClassNames: Bool = true

    public init() {}

    /// Checks ranges; throws ``DetectionError/invalidOption(_:)``.
    public func validate() throws {
        guard (0...1).contains(matchThreshold) else {
            throw DetectionError.invalidOption("track match threshold \(matchThreshold) is outside 0…1")
        }
        guard smoothing > 0, smoothing <= 1 else {
            throw DetectionError.invalidOption("box smoothing \(smoothing) is outside (0, 1]")
        }
        guard (0...1).contains(motionSmoothing) else {
            throw DetectionError.invalidOption("motion smoothing \(motionSmoothing) is outside 0…1")
        }
        guard maxMissedAnalyses >= 0 else { throw DetectionError.invalidOption("max missed analyses < 0") }
        guard maxMissedAnalysesShown >= 0 else { throw DetectionError.invalidOption("max missed analyses shown < 0") }
        guard maxConcurrent >= 1 else { throw DetectionError.invalidOption("max concurrent detections < 1") }
        guard maxAge > .zero else { throw DetectionError.invalidOption("max detection age must be positive") }
    }
}
