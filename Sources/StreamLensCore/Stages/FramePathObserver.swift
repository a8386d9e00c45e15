/// Timing of one frame that reached the output, from the frame path's clock.
public struct FrameTiming: Sendable, Equatable {
    /// When the frame arrived from the decoder.
    public var arrival: Duration
    /// How long the decoder waited for a pool slot.
    public var poolWait: Duration
    /// Time spent in compositing stages (including a copy to make the frame writable).
    public var compositeTime: Duration
    /// Time spent handing the frame to the output (blocks when the output is slow).
    public var pushTime: Duration
    /// When the frame left StreamLens.
    public var outputAt: Duration
    /// Age of the newest analysis result drawn on this frame (frame PTS − result PTS); nil when none was drawn.
    public var analysisLag: Duration?

    public init(
        arrival: Duration, poolWait: Duration, compositeTime: Duration, pushTime: Duration, outputAt: Duration,
        analysisLag: Duration?
    ) {
        self.arrival = arrival
        self.poolWait = poolWait
        self.compositeTime = compositeTime
        self.pushTime = pushTime
        self.outputAt = outputAt
        self.analysisLag = analysisLag
    }

    /// End-to-end time inside StreamLens.
    public var latency: Duration { outputAt - arrival }
}

/// Receives every event on the frame path: the statistics recorder implements it.
///
/// ## Thread Safety
/// Called from the decoder's streaming thread (arrivals, drops), the processing thread (outputs) and analysis
/// threads (analysis results); implementations must be thread-safe and must not block.
public protocol FramePathObserver: AnyObject, Sendable {
    /// A decoded frame reached the pool. `index` counts decoded frames from 0.
    func frameArrived(index: Int, pts: Duration?, at time: Duration, discontinuity: Bool)
    /// A frame never reached the output.
    func frameDropped(index: Int, pts: Duration?, cause: DropCause, at time: Duration)
    /// A frame left StreamLens.
    func frameOutput(index: Int, pts: Duration?, timing: FrameTiming)
    /// A frame was due for analysis by `stage` but the stage was busy (live sources): not a drop.
    func analysisSkipped(stage: String, pts: Duration)
    /// `stage` analysed the frame at `pts` in `latency`, finding `count` detections.
    func analysisCompleted(stage: String, pts: Duration, latency: Duration, count: Int)
    /// `stage` threw while analysing the frame at `pts`.
    func analysisFailed(stage: String, pts: Duration, error: any Error)
    /// The output sink reported its totals of late buffers it dropped (QoS).
    func sinkReportedDrops(total: UInt64)
    /// `stage`'s results were drawn on a frame `lag` of stream time away from the frame they were computed on:
    /// zero for a frame drawn with its own results; for boxes interpolated between two analysed frames, the
    /// distance to the nearer one; for the newest result (live runs), the frame's PTS minus the result's.
    func analysisDrawn(stage: String, lag: Duration)
    /// A frame came out of the decoder after a stop had cut the stream before it (see `FramePath.endAtFirstGap()`):
    /// decoded and dropped as `interrupted`, and not a gap of the source.
    func frameCutByStop(index: Int, pts: Duration?, at time: Duration)
}

extension FramePathObserver {
    public func analysisDrawn(stage: String, lag: Duration) {}

    public func frameCutByStop(index: Int, pts: Duration?, at time: Duration) {
        frameArrived(index: index, pts: pts, at: time, discontinuity: false)
        frameDropped(index: index, pts: pts, cause: .interrupted, at: time)
    }
}
