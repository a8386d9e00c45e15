import StreamLensCore

/// Thresholds and sizes of a ``RunRecorder``.
public struct RecorderConfiguration: Sendable, Equatable {
    /// A source silent for longer than this (while the pool is not full) is stalled. Default 1 s.
    public var stallThreshold: Duration
    /// Slots in the frame pool, so the recorder can tell a full pool (backpressure) from a silent source when the
    /// runner does not say; nil: the pool counts as not full unless ``RunRecorder/poll(at:poolFull:)`` says so.
    public var poolCapacity: Int?
    /// Blocked intervals closer together than this are one episode. Default 100 ms.
    public var blockedMergeGap: Duration
    /// Buckets of the downsampled timeline kept for plots (even, at least 2). Default 2000.
    public var timelineBuckets: Int

    public init(
        stallThreshold: Duration = .seconds(1), poolCapacity: Int? = nil, blockedMergeGap: Duration = .milliseconds(100),
        timelineBuckets: Int = 2000
    ) {
        precondition(stallThreshold > .zero, "the stall threshold must be positive")
        precondition(timelineBuckets >= 2 && timelineBuckets % 2 == 0, "timelineBuckets must be even and at least 2")
        self.stallThreshold = stallThreshold
        self.poolCapacity = poolCapacity
        self.blockedMergeGap = blockedMergeGap
        self.timelineBuckets = timelineBuckets
    }
}
