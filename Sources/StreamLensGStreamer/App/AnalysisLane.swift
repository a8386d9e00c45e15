import Foundation
import Synchronization
internal import CGStreamer
import StreamLensCore
#if canImport(Glibc)
import Glibc
#endif

/// One analysis stage on its own thread with a small mailbox.
///
/// The processing thread asks ``isDue(pts:)``, then either waits for room in the lane (lossless runs) or skips the
/// frame when the lane is busy (live runs), and hands a frame with ``submit(buffer:format:pts:frameIndex:)``, which
/// scales it into the lane's canvas before waking the lane. The stage itself never runs on a GStreamer streaming
/// thread. A frame scaled into the canvas is the lane's only job: the next one needs the canvas.
///
/// A lane that ``readsInPlace`` (frame-accurate runs, where the frame waits for its results anyway) lends the stage
/// the frame itself when the stage wants it at its own size and it is I420: no copy, no canvas. Such frames queue, up
/// to ``lentFrameQueueDepth`` of them, so that a frame the stage is slow on (a sign read by OCR) does not stop the
/// processing thread from taking the next ones — they are held for their results anyway, and the decoder keeps
/// decoding meanwhile. The lane drops its reference on each before it reports the job finished, so the frame is
/// drawn on in place afterwards.
///
/// ## Thread Safety
/// `condition` guards `jobs` and `stopping`. The canvas and a lent frame's ``BorrowedFrame`` are written by the
/// processing thread only while no job uses them, and read (and the borrowed frame released) by the lane thread only
/// while its job is queued.
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
    private var stopping = false
    /// Set by ``cancelWaits()``: waits for this lane return at once (the run is being stopped hard).
    private var cancelled = false
    /// A submitted frame: where it is and, when it was lent, which of ``lentFrames`` holds it.
    private struct Job {
        var pts: Duration
        var frameIndex: Int
        var lentFrame: Int?
    }

    /// Jobs submitted and not finished, oldest first; the first is the one being analysed. At most one reads the
    /// canvas, and up to ``lentFrameQueueDepth`` are lent frames.
    private var jobs: [Job] = []
    private var finishedJobs: [FinishedJob] = []
    private var canvas: AnalysisCanvas?
    /// Lent frames queue this deep: the sign reader, due every second frame, over the dashcam job's hold of eight
    /// frames (the detector's 0.3 s). The frames are held for their results anyway: a deeper queue costs no memory.
    static let lentFrameQueueDepth = 4
    /// The frames lent to the stage (none unless the lane ``readsInPlace``), used in turn (``nextLentFrame``): jobs
    /// finish in order, so with fewer lent jobs than places the next place is free. Each is given back by the lane
    /// thread when the stage returns.
    private let lentFrames: [BorrowedFrame]
    private var nextLentFrame = 0
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
        lentFrames = (0..<(readsInPlace ? Self.lentFrameQueueDepth : 0)).map { _ in BorrowedFrame() }
        jobs.reserveCapacity(lentFrames.count + 1)
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
        return jobs.isEmpty
    }

    /// Waits until the lane is idle, or until ``cancelWaits()``.
    func waitUntilIdle() {
        condition.lock()
        while !jobs.isEmpty && !cancelled { condition.wait() }
        condition.unlock()
    }

    /// Whether a frame of `format` can be submitted now: it would be lent and one of ``lentFrames`` is free, or it
    /// would be scaled into the canvas and no job reads the canvas.
    func hasRoom(for format: VideoFormat) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return hasRoomLocked(lending: lends(format))
    }

    /// Waits until ``hasRoom(for:)``, or until ``cancelWaits()``.
    func waitForRoom(for format: VideoFormat) {
        let lending = lends(format)
        condition.lock()
        while !hasRoomLocked(lending: lending) && !cancelled { condition.wait() }
        condition.unlock()
    }

    private func hasRoomLocked(lending: Bool) -> Bool {
        let lentJobs = jobs.count { $0.lentFrame != nil }
        return lending ? lentJobs < lentFrames.count : lentJobs == jobs.count
    }

    /// Whether a frame of `format` is lent to the stage as it is rather than scaled into the canvas.
    private func lends(_ format: VideoFormat) -> Bool { !lentFrames.isEmpty && wantsFullSize(format) }

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
    /// The lane must have room (``hasRoom(for:)``). False when the frame could not be read (it is then not analysed).
    @discardableResult
    func submit(buffer: UnsafeMutablePointer<GstBuffer>, format: VideoFormat, pts: Duration, frameIndex: Int) -> Bool {
        precondition(hasRoom(for: format), "AnalysisLane.submit without room in the lane")
        // A frame the stage cannot be given is a failed analysis, counted and reported: it used to pass silently,
        // and a stage that never got one (an interlaced source before the canvas took its mode) vanished from the
        // report while the run exited 0.
        var lentFrame: Int?
        if lends(format) {
            guard lentFrames[nextLentFrame].lend(buffer, format: format) else { return failedToCopy(format, pts: pts) }
            lentFrame = nextLentFrame
            nextLentFrame = (nextLentFrame + 1) % lentFrames.count
        } else {
            if canvas?.sourceFormat !== format {
                canvas = AnalysisCanvas(
                    sourceFormat: format, targetWidth: stage.analysisWidth(forSourceWidth: format.width))
            }
            guard let canvas, canvas.draw(from: buffer) else { return failedToCopy(format, pts: pts) }
        }
        schedule.markStarted(pts: pts)
        lastCountedMiss = nil
        condition.lock()
        jobs.append(Job(pts: pts, frameIndex: frameIndex, lentFrame: lentFrame))
        condition.broadcast()
        condition.unlock()
        return true
    }

    private func failedToCopy(_ format: VideoFormat, pts: Duration) -> Bool {
        observer?.analysisFailed(stage: stage.name, pts: pts, error: AnalysisCopyFailed(format: format))
        return false
    }

    /// Whether the stage would get frames of `format` at their own size in the canvas's layout (I420): then the
    /// canvas would only be a copy.
    private func wantsFullSize(_ format: VideoFormat) -> Bool {
        format.layout == .i420 && (stage.analysisWidth(forSourceWidth: format.width) ?? format.width) >= format.width
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
            while jobs.isEmpty && !stopping { condition.wait() }
            guard let current = jobs.first else {
                condition.unlock()
                break
            }
            condition.unlock()
            let lent = current.lentFrame.map { lentFrames[$0] }
            let detections = analyze(pts: current.pts, frameIndex: current.frameIndex, lent: lent)
            // Before the job is reported finished: the frame path may then draw on the frame in place.
            lent?.giveBack()
            condition.lock()
            if keepsResults { finishedJobs.append(FinishedJob(frameIndex: current.frameIndex, detections: detections)) }
            jobs.removeFirst()
            condition.broadcast()
            condition.unlock()
        }
        stage.finish(at: lastPTS)
    }

    private func analyze(pts: Duration, frameIndex: Int, lent lentFrame: BorrowedFrame?) -> Detections? {
        let planes: YUVPlanes
        let source: VideoFormat
        if let lentFrame {
            guard let lent = lentFrame.lent else { return nil }
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
