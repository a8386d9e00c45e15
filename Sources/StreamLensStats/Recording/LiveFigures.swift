/// Percentiles and per-stage counts while a run goes (for metrics); heavier than ``RunSnapshot`` because
/// percentiles walk the histograms, so read it on a scrape, not on every frame.
public struct LiveFigures: Sendable, Equatable {
    public var latencyMilliseconds: PercentileSummary
    public var jitterMilliseconds: JitterSummary
    /// Per analysis stage: completed, skipped and failed so far.
    public var analysis: [String: AnalysisStageReport]
    /// Total time in stalls and blocked on the pool so far, in milliseconds.
    public var stalledMilliseconds: Double
    public var blockedMilliseconds: Double
    /// Reopenings of a lost live input so far.
    public var reconnects: ReconnectSummary
    /// Damaged-data reports from the input's decoders and demuxers so far.
    public var decodeErrors: Int
}
