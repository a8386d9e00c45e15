import StreamLensCore
import StreamLensGStreamer

/// One analysis stage run by a GStreamer element exactly as the command line's frame path runs it: an
/// ``AnalysisLane`` (its own thread, a one-frame mailbox, a downscaled I420 copy made by `GstVideoConverter`) fed
/// from the element's `transform_ip`.
///
/// The streaming thread calls ``offer(_:format:pts:frameIndex:waitWhenBusy:)`` for every buffer: a frame due for
/// analysis is copied into the lane when it is idle; when it is busy the frame is skipped (live) or, with
/// `waitWhenBusy` (files), the streaming thread waits for the lane first — as the command line does for files, so
/// every due frame is analysed. The newest result is read with ``latest``.
///
/// ## Thread Safety
/// ``offer(_:format:pts:frameIndex:waitWhenBusy:)`` and ``finish()`` are called from the element's streaming
/// thread, ``stop()`` from the state-change thread once streaming has stopped (GStreamer serializes the two); the
/// lane and its board synchronize themselves.
public final class ElementAnalysis: @unchecked Sendable {
    /// What ``offer(_:format:pts:frameIndex:waitWhenBusy:)`` did with a frame.
    public enum Outcome: Sendable, Equatable {
        /// The schedule did not want this frame.
        case notDue
        /// The frame went to the analysis thread.
        case submitted
        /// The analysis thread was busy and the element does not wait: the frame went on unanalysed.
        case skipped
    }

    public let stage: any AnalysisStage
    public let schedule: any AnalysisSchedule
    private let observer: (any FramePathObserver)?
    private let clock: any MonotonicClock
    private let board = DetectionBoard()
    private var lane: AnalysisLane?
    /// The frame last handed to the lane, and the one whose result ``forgetLatest()`` discards when it comes.
    private var lastSubmittedPTS: Duration?
    private var staleResultPTS: Duration?

    /// - Parameter observer: hears of completed, skipped and failed analyses (the element's counters).
    public init(
        stage: any AnalysisStage, schedule: any AnalysisSchedule, observer: (any FramePathObserver)? = nil,
        clock: any MonotonicClock = SystemClock()
    ) {
        self.stage = stage
        self.schedule = schedule
        self.observer = observer
        self.clock = clock
    }

    /// Hands the frame to the analysis thread when it is due (and the thread idle, or after waiting for it).
    @discardableResult
    public func offer(
        _ buffer: BufferHandle, format: VideoFormat, pts: Duration, frameIndex: Int, waitWhenBusy: Bool
    ) -> Outcome {
        let lane = runningLane()
        guard lane.isDue(pts: pts) else { return .notDue }
        if waitWhenBusy { lane.waitUntilIdle() }
        guard lane.isIdle else {
            if lane.countsMissedAnalysis(pts: pts) { observer?.analysisSkipped(stage: stage.name, pts: pts) }
            return .skipped
        }
        lane.submit(buffer: buffer.frameBuffer, format: format, pts: pts, frameIndex: frameIndex)
        lastSubmittedPTS = pts
        return .submitted
    }

    /// Waits until the frame last handed to the analysis thread has been analysed: its result (or the boxes a
    /// declining stage still holds) is then ``latest``. For elements that draw each frame with its own result
    /// (streamlensblur on files); returns at once when no frame is in analysis.
    public func waitForSubmitted() {
        lane?.waitUntilIdle()
    }

    /// The stage's newest result, if it has produced one (and it is not the forgotten frame's).
    public var latest: Detections? {
        guard let result = board.snapshot()[stage.name] else { return nil }
        if let staleResultPTS, result.pts == staleResultPTS { return nil }
        staleResultPTS = nil
        return result
    }

    /// Forgets the newest result, and the result of a frame still in analysis when it comes: after a flushing seek
    /// or new caps they belong to frames that are gone (their boxes were drawn on the frames after a seek, or in the
    /// old size's coordinates). Never waits for the analysis thread.
    public func forgetLatest() {
        board.clear(source: stage.name)
        staleResultPTS = (lane?.isIdle ?? true) ? nil : lastSubmittedPTS
    }

    /// Waits for the frame in analysis, lets the stage finish (it flushes its events: a sign still in view becomes
    /// its event) and ends the thread. A later ``offer(_:format:pts:frameIndex:waitWhenBusy:)`` starts a new one.
    public func finish() {
        lane?.stop()
        lane = nil
    }

    /// Same as ``finish()``: the element stops.
    public func stop() { finish() }

    private func runningLane() -> AnalysisLane {
        if let lane { return lane }
        let started = AnalysisLane(stage: stage, schedule: schedule, board: board, observer: observer, clock: clock)
        started.start()
        lane = started
        return started
    }
}
