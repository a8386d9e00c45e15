import StreamLensCore

/// The recorder's counters at one moment, for the progress line and live metrics.
public struct RunSnapshot: Sendable, Equatable {
    /// Wall-clock time since the run started.
    public var elapsed: Duration
    public var decoded: Int
    /// Frames output, less those the sink reported dropping afterwards.
    public var output: Int
    /// Drops so far by cause (every cause present).
    public var dropped: [DropCause: Int]
    /// Gap events in the source timestamps.
    public var gaps: Int
    /// Media time covered by the output so far (last output PTS − first PTS); nil before the first output.
    public var mediaPosition: Duration?
    /// Output frame rate over the last second or so (whole-run average until the run loop has polled twice).
    public var framesPerSecond: Double
    /// True while the source is silent beyond the stall threshold.
    public var isStalled: Bool
    public var stalls: Int
    public var blockedEpisodes: Int
    /// How far the latest frame arrived behind real time (``RealTimeLag``); nil before a frame with a time.
    public var behindRealTime: Duration?

    /// Sum of ``dropped``.
    public var droppedTotal: Int { dropped.values.reduce(0, +) }

    /// Media time per wall-clock time: above 1 is faster than real time; nil until there is output.
    public var realTimeFactor: Double? {
        guard let mediaPosition, elapsed > .zero else { return nil }
        return mediaPosition / elapsed
    }

    public init(
        elapsed: Duration, decoded: Int, output: Int, dropped: [DropCause: Int], gaps: Int, mediaPosition: Duration?,
        framesPerSecond: Double, isStalled: Bool, stalls: Int, blockedEpisodes: Int, behindRealTime: Duration? = nil
    ) {
        self.elapsed = elapsed
        self.decoded = decoded
        self.output = output
        self.dropped = dropped
        self.gaps = gaps
        self.mediaPosition = mediaPosition
        self.framesPerSecond = framesPerSecond
        self.isStalled = isStalled
        self.stalls = stalls
        self.blockedEpisodes = blockedEpisodes
        self.behindRealTime = behindRealTime
    }
}
