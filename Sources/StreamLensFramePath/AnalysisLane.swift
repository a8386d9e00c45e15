import Foundation
import Synchronization
import StreamLensGStreamer
import StreamLensCore
#if canImport(Glibc)
import Glibc
#endif

/// One analysis stage on its own thread with a one-frame mailbox.
///
/// The processing thread asks ``isDue(pts:)``, then either waits for the lane (lossless runs) or skips the frame when
/// the lane is busy (live runs), and hands a frame with ``submit(buffer:format:pts:frameIndex:)``, which scales it into
/// the lane's canvas before waking the lane. The stage itself never runs on a GStreamer streaming thread.
///
/// A lane that ``readsInPlace`` (frame-accurate runs, where the frame waits for its results anyway) lends the stage
/// the frame itself when the stage wants it at its own size and it is I420: no copy, no canvas. The lane drops its
/// reference before it reports the job finished, so the frame is drawn on in place afterwards.
///
/// ## Thread Safety
/// `condition` guards `busy`, `job` and `stopping`. The canvas and the borrowed frame are written by the processing
/// thread only while the lane is idle and read (and the borrowed frame released) by the lane thread only while it
/// is busy.
final class AnalysisLane: @unchecked Sendable {
    /// A finished job, kept for the processing thread when the lane ``keepsResults``.
    struct FinishedJob {
        var frameIndex: Int
        /// Nil when the stage threw.
        var detections: Detections?
    }

    let stage: any AnalysisStage
    /// Frame-accurate runs: every finished job is also kept (in order) until ``takeFinishedJobs(_:)``, so that
    /// frames can be drawn with the results of the frame they belong to rather than the newest ones.
    let keepsResults: Bool
    /// Frames the stage would get at their own size are lent to it as they are (see the type's documentation).
    let readsInPlace: Bool
    let schedule: any AnalysisSchedule
    private let board: DetectionBoard
    private let observer: (any FramePathObserver)?
    private let clock: any MonotonicClock
    private let condition = NSCondition()
    private var busy = false
    private var stopping = false
    /// Set by ``cancelWaits()``: waits for this lane return at once (the run is being stopped hard).
    private var cancelled = false
    private var job: (pts: Duration, frameIndex: Int)?
    private var finishedJobs: [FinishedJob] = []
    private var canvas: AnalysisCanvas?
    /// The frame being analysed in place, if it is; given back by the lane thread when the stage returns.
    private let borrowed = BorrowedFrame()
    private var lastPTS: Duration = .zero
    /// The busy-lane miss counted last since the last submission (``countsMissedAnalysis(pts:)``).
    private var lastCountedMiss: Duration?
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    private let cpuNanoseconds = Atomic<Int64>(0)

    /// CPU time the lane's thread spent inside the stage (threads the stage starts itself are not included).
    var cpuTime: Duration { .nanoseconds(cpuNanoseconds.load(ordering: .relaxed)) }

    init(
        stage: any AnalysisStage, schedule: any AnalysisSchedule, board: DetectionBoard,
        observer: (any FramePathObserver)?, clock: any MonotonicClock, keepsResults: Bool = false,
        readsInPlace: Bool = false
    ) {
        self.stage = stage
        self.keepsResults = keepsResults
        self.readsInPlace = readsInPlace
        finishedJobs.reserveCapacity(4)
        self.schedule = schedule
        self.board = board
        self.observer = observer
        self.clock = clock
    }

    func start() {
        // The thread holds the lane weakly and signals `finished` after its last use of it, so that a stopped lane is
        // freed by whoever stops it (a GStreamer element stops and frees its lanes many times in one process).
        let finished = finished
        let thread = Thread { [weak self] in
            self?.run()
            finished.signal()
        }
        thread.name = "streamlens-analysis-\(stage.name)"
        self.thread = thread
        thread.start()
    }

    func isDue(pts: Duration) -> Bool { schedule.isDue(pts: pts) }

    /// A due frame found the lane busy and goes on unanalysed: whether that is a missed analysis to count. A busy
    /// lane misses one analysis per interval, not one per frame: the schedule calls every frame due until the next
    /// submission, so the first such frame counts, then one per interval (every one with an interval of zero).
    /// The submitting thread only, as ``submit(buffer:format:pts:frameIndex:)``.
    func countsMissedAnalysis(pts: Duration) -> Bool {
        if let last = lastCountedMiss, pts >= last, pts - last < schedule.currentInterval { return false }
        lastCountedMiss = pts
        return true
    }

    var isIdle: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !busy
    }

    /// Waits until the lane is idle, or until ``cancelWaits()``.
    func waitUntilIdle() {
        condition.lock()
        while busy && !cancelled { condition.wait() }
        condition.unlock()
    }

    /// Makes ``waitUntilIdle()`` and ``stop()`` return without waiting for a stage that may never finish.
    func cancelWaits() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Calls `body` with each job finished since the last call, oldest first (lanes that ``keepsResults``).
    func takeFinishedJobs(_ body: (FinishedJob) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        for job in finishedJobs { body(job) }
        finishedJobs.removeAll(keepingCapacity: true)
    }

    /// Scales the frame into the canvas (or lends it as it is, when the lane ``readsInPlace``) and wakes the lane.
    /// The lane must be idle. False when the frame could not be read (it is then not analysed).
    @discardableResult
    func submit(buffer: FrameBuffer, format: VideoFormat, pts: Duration, frameIndex: Int) -> Bool {
        // A frame the stage cannot be given is a failed analysis, counted and reported: it used to pass silently,
        // and a stage that never got one (an interlaced source before the canvas took its mode) vanished from the
        // report while the run exited 0.
        if readsInPlace && wantsFullSize(format) {
            guard borrowed.lend(buffer, format: format) else { return failedToCopy(format, pts: pts) }
        } else {
            if canvas?.sourceFormat !== format {
                canvas = AnalysisCanvas(
                    sourceFormat: format, targetWidth: stage.analysisWidth(forSourceWidth: format.width),
                    colours: stage.analysisColours)
            }
            guard let canvas, canvas.draw(from: buffer) else { return failedToCopy(format, pts: pts) }
        }
        schedule.markStarted(pts: pts)
        lastCountedMiss = nil
        condition.lock()
        precondition(!busy, "AnalysisLane.submit while the lane is busy")
        busy = true
        job = (pts, frameIndex)
        condition.broadcast()
        condition.unlock()
        return true
    }

    private func failedToCopy(_ format: VideoFormat, pts: Duration) -> Bool {
        observer?.analysisFailed(stage: stage.name, pts: pts, error: AnalysisCopyFailed(format: format))
        return false
    }

    /// Whether the stage would get frames of `format` at their own size, in the canvas's layout (I420) and in the
    /// colours it reads: then the canvas would only be a copy. (A stage that asks for BT.601 gets a converted copy of
    /// a BT.709 frame, at any size.)
    private func wantsFullSize(_ format: VideoFormat) -> Bool {
        format.layout == .i420 && (stage.analysisWidth(forSourceWidth: format.width) ?? format.width) >= format.width
            && (stage.analysisColours == .source || format.usesBT601Matrix)
    }

    /// Lets the current job finish, calls the stage's `finish(at:)` on the lane thread, and ends the thread.
    func stop() {
        condition.lock()
        stopping = true
        let giveUpSoon = cancelled
        condition.broadcast()
        condition.unlock()
        guard thread != nil else { return }
        // After cancelWaits() a stuck stage gets two seconds; its thread is then left to finish on its own.
        if giveUpSoon { _ = finished.wait(timeout: .now() + 2) } else { finished.wait() }
    }

    private func run() {
        while true {
            condition.lock()
            while job == nil && !stopping { condition.wait() }
            guard let current = job else {
                condition.unlock()
                break
            }
            condition.unlock()
            let detections = analyze(pts: current.pts, frameIndex: current.frameIndex)
            // Before the job is reported finished: the frame path may then draw on the frame in place.
            borrowed.giveBack()
            condition.lock()
            if keepsResults { finishedJobs.append(FinishedJob(frameIndex: current.frameIndex, detections: detections)) }
            job = nil
            busy = false
            condition.broadcast()
            condition.unlock()
        }
        stage.finish(at: lastPTS)
    }

    private func analyze(pts: Duration, frameIndex: Int) -> Detections? {
        let planes: YUVPlanes
        let source: VideoFormat
        if let lent = borrowed.lent {
            (planes, source) = lent
        } else if let canvas {
            (planes, source) = (canvas.planes, canvas.sourceFormat)
        } else {
            return nil
        }
        lastPTS = pts
        let frame = AnalysisFrame(
            pts: pts, frameIndex: frameIndex, planes: planes, sourceWidth: source.width, sourceHeight: source.height)
        let start = clock.now()
        let cpuStart = Self.threadCPUTime()
        defer { cpuNanoseconds.add(Self.threadCPUTime() - cpuStart, ordering: .relaxed) }
        do {
            let detections = try stage.analyze(frame)
            let latency = clock.now() - start
            schedule.recordCompletion(latency: latency)
            board.post(detections)
            observer?.analysisCompleted(stage: stage.name, pts: pts, latency: latency, count: detections.count)
            return detections
        } catch let declined as AnalysisDeclined {
            board.post(declined.held)
            observer?.analysisSkipped(stage: stage.name, pts: pts)
            return declined.held
        } catch {
            schedule.recordCompletion(latency: clock.now() - start)
            observer?.analysisFailed(stage: stage.name, pts: pts, error: error)
            return nil
        }
    }

    /// CPU time of the calling thread, in nanoseconds.
    private static func threadCPUTime() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}

/// A frame could not be read or scaled into the analysis copy.
struct AnalysisCopyFailed: Error, CustomStringConvertible {
    let format: VideoFormat
    var description: String {
        "could not make the analysis copy of a \(format.width)×\(format.height) frame (GStreamer's video converter refused the format)"
    }
}
