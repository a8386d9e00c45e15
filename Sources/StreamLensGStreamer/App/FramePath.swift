import Foundation
import Synchronization
internal import CGStreamer
internal import CGStreamerShim
import StreamLensCore

/// The frame path: decoded frames leave the input pipeline's appsink, take a slot in the ``FramePool``, are analysed
/// (a downscaled copy, on each stage's own thread) and composited (in place, in frame order) on the processing
/// thread, then pushed into the output pipeline's appsrc — or discarded when there is no output.
///
/// Frames stay in the decoder's native I420/NV12 buffers. A frame is copied (once, into a recycled buffer from a
/// `GstBufferPool`) only when a compositing stage must write to it and the decoder still holds a reference.
///
/// ## Thread Safety
/// Three kinds of threads meet here: the input's streaming thread (``AppSinkDelegate`` callbacks: arrival, pool
/// admission, drops), the processing thread (everything after admission) and one thread per analysis lane. Slot
/// contents pass from the first to the second through the pool and the ``FrameHandoff``, which order them; counters
/// are atomics.
public final class FramePath: @unchecked Sendable {
    /// Everything the frame path does besides moving frames.
    public struct Configuration: Sendable {
        public var pool: PoolConfiguration
        /// Drawn in this order on every frame.
        public var compositors: [any CompositingStage]
        /// Each stage with the schedule that picks its frames.
        public var analysis: [(stage: any AnalysisStage, schedule: any AnalysisSchedule)]
        public var observer: (any FramePathObserver)?
        public var clock: any MonotonicClock
        /// The input may be restarted (a reconnecting network source): its end-of-stream does not end the frame
        /// path; the runner ends it with ``FramePath/stopAdmitting()``.
        public var inputRestarts: Bool
        /// Sizes the output accepts; frames are padded to them in the output's ``FramePath/outputFitName`` element.
        /// Nil: frames go out at their size.
        public var outputSizeRule: OutputSizeRule?
        /// A forward step of the output timestamps larger than this is taken as damage and closed up, like a
        /// backward one (a damaged MPEG-TS can stamp frames hours ahead). Nil: forward steps always pass (live
        /// inputs, whose gaps are real time).
        public var timestampJumpLimit: Duration?
        /// Frame-accurate annotations (`--sync-analysis`): each frame is drawn with the results of its own analysis,
        /// or with boxes interpolated between the two analysed frames around it. Frames wait (in a bounded hold)
        /// for those results, analysis never skips a due frame and keeps its base cadence. Off: frames are drawn
        /// at once with each stage's newest result (live sources: never wait).
        public var synchronizesAnalysis: Bool

        public init(
            pool: PoolConfiguration, compositors: [any CompositingStage] = [],
            analysis: [(stage: any AnalysisStage, schedule: any AnalysisSchedule)] = [],
            observer: (any FramePathObserver)? = nil, clock: any MonotonicClock = SystemClock(),
            inputRestarts: Bool = false, outputSizeRule: OutputSizeRule? = nil, timestampJumpLimit: Duration? = nil,
            synchronizesAnalysis: Bool = false
        ) {
            self.synchronizesAnalysis = synchronizesAnalysis
            self.pool = pool
            self.compositors = compositors
            self.analysis = analysis
            self.observer = observer
            self.clock = clock
            self.inputRestarts = inputRestarts
            self.outputSizeRule = outputSizeRule
            self.timestampJumpLimit = timestampJumpLimit
        }
    }

    /// One pool slot's frame, written by the streaming thread on admission and read by the processing thread.
    private struct Slot {
        var buffer: UnsafeMutablePointer<GstBuffer>?
        var format: VideoFormat?
        var frameIndex = 0
        var pts: Duration?
        var arrival = Duration.zero
        var poolWait = Duration.zero
    }

    public let configuration: Configuration
    public let pool: FramePool
    /// The newest detections of each analysis stage.
    public let board: DetectionBoard
    private let handoff: FrameHandoff
    private let slots: UnsafeMutablePointer<Slot>
    private let lanes: [AnalysisLane]
    /// The input's appsink and pipeline: replaced (on the control thread, once the old input is at NULL) when a
    /// lost live input is reopened; read only by `start()`.
    private var appSink: UnsafeMutablePointer<GstAppSink>
    private let appSource: UnsafeMutablePointer<GstAppSrc>?
    // Keep the pipelines alive as long as their elements are used.
    private var input: Pipeline
    private let output: Pipeline?

    // Streaming-thread state: touched only by the appsink callbacks, which GStreamer serializes.
    private var currentFormat: VideoFormat?
    private var decodedFrames = 0
    /// The PTS of the last frame that arrived, and whether a stop has cut the stream (``endAtFirstGap()``).
    private var lastArrivedPTS: Duration?
    /// The last arrived frame's time as the decoder stamped it (``followingOn(_:buffer:)``).
    private var lastDecoderPTS: Duration?
    /// When the last frame with a time arrived (``continuingAfterReopen(_:arrival:)``).
    private var lastTimedArrival: Duration?
    /// Added to a reopened input's times so that they go on from the run's (``continuingAfterReopen(_:arrival:)``).
    private var reopenedInputOffset = Duration.zero
    private var cutByStop = false

    // Processing-thread state.
    private var copyPool: CopyPool?
    private var pushedFormat: VideoFormat?
    private let outputFitter: OutputFitter?
    /// The output's capsfilter that pins frames to the first size when the input changes size partway.
    private let firstSizeFilter: UnsafeMutablePointer<GstElement>?
    /// The first format pushed to the output.
    private var firstPushedFormat: VideoFormat?
    /// The last timestamp handed to the output and the shift applied to keep output timestamps increasing.
    private var lastPushedPTS: GstClockTime?
    /// Added to every input PTS (wrapping arithmetic: it may be "negative" after a forward jump was closed up).
    private var ptsShift: GstClockTime = 0

    private let negotiated = Mutex<VideoFormat?>(nil)
    private let outputFailure = Mutex<GStreamerError?>(nil)
    private let fit = Mutex<OutputFit?>(nil)
    private let sizeChange = Mutex<InputSizeChange?>(nil)
    /// Set by ``abort(cause:)``: frames not yet delivered are dropped with this cause.
    private let abortCause = Mutex<DropCause?>(nil)
    /// Set by ``stopAdmitting(refusedAs:)``: why a frame that arrives after admission stopped is dropped.
    private let refusedCause = Mutex<DropCause>(.interrupted)
    private let aborted = Atomic<Bool>(false)
    /// Set by ``endAtFirstGap()``.
    private let stopCutsAtGap = Atomic<Bool>(false)
    /// Set by ``replaceInput(with:sinkName:)``: the next frame to arrive is the reopened input's first.
    private let inputReopened = Atomic<Bool>(false)
    private let copiedFrames = Atomic<Int>(0)
    private let arrivedFrames = Atomic<Int>(0)
    private let outputFrames = Atomic<Int>(0)
    private let writtenFrames: WrittenFrameCount?
    private let timestampShifts = Atomic<Int>(0)
    private let processingDone = DispatchSemaphore(value: 0)
    private var processingThread: Thread?

    /// Connects to the appsink named `sinkName` in `input` and, when given, the appsrc named `sourceName` in `output`.
    public init(
        configuration: Configuration, input: Pipeline, sinkName: String, output: Pipeline?, sourceName: String
    ) throws(GStreamerError) {
        self.configuration = configuration
        self.input = input
        self.output = output
        guard let sink = slx_as_app_sink(try input.child(named: sinkName)) else { throw .elementNotFound(name: sinkName) }
        appSink = sink
        if let output {
            guard let source = slx_as_app_src(try output.child(named: sourceName)) else {
                throw .elementNotFound(name: sourceName)
            }
            appSource = source
            writtenFrames = WrittenFrameCount(downstreamOf: source)
            outputFitter = configuration.outputSizeRule.flatMap { rule in
                (try? output.child(named: Self.outputFitName)).map { OutputFitter(element: $0, rule: rule) }
            }
            firstSizeFilter = try? output.child(named: Self.firstSizeName)
        } else {
            appSource = nil
            writtenFrames = nil
            outputFitter = nil
            firstSizeFilter = nil
        }
        pool = FramePool(configuration: configuration.pool, clock: configuration.clock)
        handoff = FrameHandoff(capacity: configuration.pool.capacity)
        slots = .allocate(capacity: configuration.pool.capacity)
        slots.initialize(repeating: Slot(), count: configuration.pool.capacity)
        let board = DetectionBoard()
        self.board = board
        lanes = configuration.analysis.map {
            // A lossless run waits for its lanes anyway, so stretching a cadence under load would only make the
            // results depend on how busy the machine is: the same file gets the same analyses on every machine.
            if configuration.synchronizesAnalysis || configuration.pool.policy == .block {
                $0.schedule.keepBaseCadence()
            }
            if configuration.synchronizesAnalysis { $0.stage.resultsWillBeAwaited() }
            return AnalysisLane(
                stage: $0.stage, schedule: $0.schedule, board: board, observer: configuration.observer,
                clock: configuration.clock, keepsResults: configuration.synchronizesAnalysis,
                readsInPlace: configuration.synchronizesAnalysis)
        }
    }

    deinit {
        for index in 0..<configuration.pool.capacity {
            if let buffer = slots[index].buffer { slx_buffer_unref(buffer) }
        }
        slots.deinitialize(count: configuration.pool.capacity)
        slots.deallocate()
    }

    /// Takes frames from `newInput`'s appsink named `sinkName` from now on: a lost live input reopened as a fresh
    /// pipeline (``Configuration/inputRestarts``). The old input must be at NULL (its streaming threads joined), so
    /// that the appsink callbacks never run on two threads at once. Frame numbering and the pool carry on.
    public func replaceInput(with newInput: Pipeline, sinkName: String) throws(GStreamerError) {
        guard let sink = slx_as_app_sink(try newInput.child(named: sinkName)) else {
            throw .elementNotFound(name: sinkName)
        }
        input = newInput
        appSink = sink
        inputReopened.store(true, ordering: .sequentiallyConsistent)
        installCallbacks(on: sink, delegate: self)
    }

    /// Installs the appsink callbacks and starts the processing and analysis threads. Call before PLAYING.
    public func start() {
        installCallbacks(on: appSink, delegate: self)
        for lane in lanes { lane.start() }
        let thread = Thread { [self] in
            processFrames()
            processingDone.signal()
        }
        thread.name = "streamlens-processing"
        thread.qualityOfService = .userInteractive
        processingThread = thread
        thread.start()
    }

    /// Waits until every admitted frame has been pushed and end-of-stream sent to the output; false on timeout.
    public func waitUntilDrained(timeout: Duration) -> Bool {
        processingDone.wait(timeout: .now() + .nanoseconds(Int(timeout.nanoseconds))) == .success
    }

    /// Stops admitting frames (a producer waiting for a slot wakes up) and lets queued frames drain. A frame the
    /// decoder still gives out is dropped as `refusedAs`: `interrupted` when the user stopped the run,
    /// `stream_error` when the input failed (a lost HTTP input's last frame was counted as interrupted).
    public func stopAdmitting(refusedAs cause: DropCause = .interrupted) {
        refusedCause.withLock { $0 = cause }
        pool.close()
        handoff.finish()
    }

    /// Called when a stop sends end-of-stream into the input: the frames the decoder still gives out are kept up to
    /// the first hole in their timestamps and dropped (as `interrupted`) from there on. A demuxer stopped midway has
    /// not passed on every frame the decoder reorders (B-frames): without the cut the output would end with a jump
    /// of 1–3 frames before its last one, and the report would call it a source gap.
    public func endAtFirstGap() {
        stopCutsAtGap.store(true, ordering: .sequentiallyConsistent)
    }

    /// Ends the frame path at once, without waiting for anything: admission stops, a push blocked on a full or
    /// failed output returns, waits for analysis lanes return, and every frame not yet delivered is dropped with
    /// `cause` (`stream_error` after an output failure, `interrupted` on a hard stop). The first cause given wins.
    /// The processing thread then finishes within a frame's compositing time.
    ///
    /// The output gets end-of-stream behind the frames it already accepted, so an output that still moves can
    /// finalize; one that is stuck stays stuck, but no longer holds the frame path.
    public func abort(cause: DropCause) {
        abortCause.withLock { if $0 == nil { $0 = cause } }
        aborted.store(true, ordering: .sequentiallyConsistent)
        stopAdmitting()
        for lane in lanes { lane.cancelWaits() }
        // gst_app_src_end_of_stream wakes a gst_app_src_push_buffer blocked on a full queue (it returns EOS) and
        // touches nothing downstream. (A flush-start would travel downstream and block this thread in a sink that
        // is stuck in a write.)
        if let appSource { _ = gst_app_src_end_of_stream(appSource) }
    }

    /// The name of the `videobox` in the output pipeline that pads frames to ``Configuration/outputSizeRule``.
    public static let outputFitName = "streamlens_fit"
    /// The name of the output pipeline's `capsfilter` (after a `videoscale`) that keeps the first frame size.
    public static let firstSizeName = "streamlens_first_size"

    /// The format negotiated with the decoder, once the first frame arrived.
    public var format: VideoFormat? { negotiated.withLock { $0 } }
    /// Frames copied to make them writable for compositing.
    public var copies: Int { copiedFrames.load(ordering: .relaxed) }
    /// Frames that came out of the decoder so far (admitted or not).
    public var decodedCount: Int { arrivedFrames.load(ordering: .relaxed) }
    /// Frames pushed to the output (or discarded after processing when there is none).
    public var outputCount: Int { outputFrames.load(ordering: .relaxed) }
    /// Frames that reached the output's muxer or sink (``WrittenFrameCount``); nil when the output has no such point
    /// (RTP, a `tee`) or there is no output.
    public var writtenCount: Int? { writtenFrames?.count }
    /// CPU time each analysis stage's thread spent analysing, by stage name.
    public var analysisCPUTime: [String: Duration] {
        Dictionary(lanes.map { ($0.stage.name, $0.cpuTime) }, uniquingKeysWith: +)
    }
    /// Why the output refused frames, if it did.
    public var failure: GStreamerError? { outputFailure.withLock { $0 } }
    /// How frames were padded for the encoder, when they had to be.
    public var outputFit: OutputFit? { fit.withLock { $0 } }
    /// The input's first change of frame size, when it changed size partway (later frames were scaled to the first).
    public var inputSizeChange: InputSizeChange? { sizeChange.withLock { $0 } }
    /// Times the output timestamps were shifted because the input's went backwards or repeated (concatenated
    /// recordings, a damaged file) or jumped past ``Configuration/timestampJumpLimit``.
    public var timestampRepairs: Int { timestampShifts.load(ordering: .relaxed) }

    /// Why a frame admitted but not delivered was dropped.
    private var undeliveredCause: DropCause { abortCause.withLock { $0 } ?? .streamError }
}

// MARK: - Streaming thread

extension FramePath: AppSinkDelegate {
    func appSinkHasSample(_ sink: UnsafeMutablePointer<GstAppSink>) -> GstFlowReturn {
        guard let sample = gst_app_sink_pull_sample(sink) else { return GST_FLOW_EOS }
        guard let sampleBuffer = gst_sample_get_buffer(sample), let caps = gst_sample_get_caps(sample) else {
            slx_sample_unref(sample)
            return GST_FLOW_OK
        }
        if currentFormat.map({ !$0.matches(caps) }) ?? true {
            guard let format = VideoFormat(caps: caps) else {
                slx_sample_unref(sample)
                return GST_FLOW_NOT_NEGOTIATED
            }
            currentFormat = format
            negotiated.withLock { $0 = format }
        }
        // Keep the buffer and let the sample go now: when no one else (a decoder's reference list) holds the buffer,
        // ours is then the only reference and compositing can write to it without a copy.
        let buffer = slx_buffer_ref(sampleBuffer)!
        // Stream time, as players count it: the frame at the start of the file's segment is at 0 (an MP4 with
        // B-frames starts its first frame at 80 ms and says so in its edit list).
        let streamTime = slx_sample_stream_time(sample, slx_buffer_pts(sampleBuffer))
        slx_sample_unref(sample)
        let clock = configuration.clock
        let arrival = clock.now()
        let frameIndex = decodedFrames
        decodedFrames += 1
        arrivedFrames.store(decodedFrames, ordering: .relaxed)
        let pts = continuingAfterReopen(followingOn(duration(fromClockTime: streamTime), buffer: buffer), arrival: arrival)
        let observer = configuration.observer
        if stopCutsAtGap.load(ordering: .sequentiallyConsistent) {
            if !cutByStop, let pts, let last = lastArrivedPTS, let step = currentFormat?.frameDuration,
                FrameStep.skipsFrames(pts - last, nominal: step)
            {
                cutByStop = true
            }
            if cutByStop {
                slx_buffer_unref(buffer)
                observer?.frameCutByStop(index: frameIndex, pts: pts, at: arrival)
                return GST_FLOW_OK
            }
        }
        if let pts {
            lastArrivedPTS = pts
            lastTimedArrival = arrival
        }
        observer?.frameArrived(index: frameIndex, pts: pts, at: arrival, discontinuity: slx_buffer_is_discont(buffer) != 0)
        switch pool.admit() {
        case .admitted(let slot, let waited):
            slots[slot] = Slot(
                buffer: buffer, format: currentFormat, frameIndex: frameIndex, pts: pts,
                arrival: arrival, poolWait: waited)
            handoff.push(slot)
            return GST_FLOW_OK
        case .dropped:
            slx_buffer_unref(buffer)
            observer?.frameDropped(index: frameIndex, pts: pts, cause: .poolFull, at: clock.now())
            return GST_FLOW_OK
        case .closed:
            slx_buffer_unref(buffer)
            let cause = abortCause.withLock { $0 } ?? refusedCause.withLock { $0 }
            observer?.frameDropped(index: frameIndex, pts: pts, cause: cause, at: clock.now())
            return GST_FLOW_EOS
        }
    }

    /// A decoder that stamps every frame with the same time (libav's GIF decoder: all at 0, each 100 ms long) is
    /// read as frames following one another, each its own duration (or the format's frame duration) after the last:
    /// the analysis schedule, the report and the events see the times the output gets. Other timestamps that go
    /// backwards or jump (joined recordings) keep their own time here; the output alone is kept in order
    /// (``keepingTimestampsIncreasing(_:format:pts:)``).
    private func followingOn(_ pts: Duration?, buffer: UnsafeMutablePointer<GstBuffer>) -> Duration? {
        defer { lastDecoderPTS = pts }
        guard let pts, pts == lastDecoderPTS, let last = lastArrivedPTS else { return pts }
        let ownLength = duration(fromClockTime: slx_buffer_duration(buffer)).flatMap { $0 > .zero ? $0 : nil }
        return (ownLength ?? currentFormat?.frameDuration).map { last + $0 } ?? pts
    }

    /// A reopened live input (a fresh pipeline after an outage) may stamp its frames from its own start again:
    /// rtspsrc's first frame after a reconnect was at 0, so the output squeezed the outage out (a 30 s run gave a
    /// 22 s file), the timeline repeated its times and events would have too. Its times are moved onto the run's:
    /// its first frame comes as long after the last one before the outage as it arrived after it, so the outage is
    /// a gap in the timeline, as in the real scene. An input whose times already go on is left as it is.
    private func continuingAfterReopen(_ pts: Duration?, arrival: Duration) -> Duration? {
        guard let pts else { return nil }
        if inputReopened.exchange(false, ordering: .sequentiallyConsistent), let last = lastArrivedPTS,
            let lastArrival = lastTimedArrival
        {
            reopenedInputOffset = pts < last ? last + (arrival - lastArrival) - pts : .zero
        }
        return pts + reopenedInputOffset
    }

    func appSinkReachedEndOfStream() {
        // A restartable input's end is decided by the runner (it may reconnect).
        if !configuration.inputRestarts { handoff.finish() }
    }
}

// MARK: - Processing thread

extension FramePath {
    /// A frame taken from the pool, on its way to the output.
    private struct TakenFrame {
        var buffer: UnsafeMutablePointer<GstBuffer>
        var format: VideoFormat
        var frameIndex: Int
        var pts: Duration?
        var arrival: Duration
        var poolWait: Duration
    }

    private func processFrames() {
        // Without analysis there is nothing to wait for: frames take the plain path.
        if configuration.synchronizesAnalysis && !lanes.isEmpty {
            processFramesInSync()
        } else {
            processFramesWithNewestResults()
        }
        for lane in lanes { lane.stop() }
        if let appSource { _ = gst_app_src_end_of_stream(appSource) }
    }

    /// Takes the frame in `slotIndex` out of the pool slot (the slot itself stays taken); nil for an empty slot.
    private func take(slot slotIndex: Int) -> TakenFrame? {
        let slot = slots[slotIndex]
        slots[slotIndex].buffer = nil
        guard let buffer = slot.buffer, let format = slot.format else { return nil }
        return TakenFrame(
            buffer: buffer, format: format, frameIndex: slot.frameIndex, pts: slot.pts, arrival: slot.arrival,
            poolWait: slot.poolWait)
    }

    /// Hands the frame to every lane it is due for; returns the lanes (as bits) that took it. `waitForLanes`: a busy
    /// lane is waited for (lossless runs); otherwise it skips the frame.
    private func submitForAnalysis(_ frame: TakenFrame, waitForLanes: Bool, onIdle: (Int) -> Void = { _ in }) -> UInt64 {
        let pts = frame.pts ?? .zero
        var submitted: UInt64 = 0
        for (index, lane) in lanes.enumerated() where lane.isDue(pts: pts) {
            if waitForLanes {
                lane.waitUntilIdle()
                onIdle(index)
            }
            if lane.isIdle {
                if lane.submit(buffer: frame.buffer, format: frame.format, pts: pts, frameIndex: frame.frameIndex) {
                    submitted |= 1 << UInt64(index)
                }
            } else if lane.countsMissedAnalysis(pts: pts) {
                configuration.observer?.analysisSkipped(stage: lane.stage.name, pts: pts)
            }
        }
        return submitted
    }

    /// Draws `detections` on the frame, pushes it (or counts it dropped) and reports its timing. `poolSlot`: the
    /// slot it still holds, released once the frame has left.
    private func deliver(
        _ frame: TakenFrame, detections: [String: Detections], analysisLag: Duration?, poolSlot: Int?
    ) {
        let clock = configuration.clock
        var buffer = frame.buffer
        let compositeStart = clock.now()
        let context = CompositeContext(
            pts: frame.pts ?? .zero, frameIndex: frame.frameIndex, latestDetections: detections)
        if configuration.compositors.contains(where: { $0.willDraw(context) }) {
            buffer = makeWritable(buffer, format: frame.format)
            _ = frame.format.withMappedPlanes(buffer, writable: true) { planes in
                for stage in configuration.compositors { stage.composite(onto: planes, context: context) }
            }
        }
        let pushStart = clock.now()
        let delivered = push(buffer, format: frame.format, pts: frame.pts)
        let outputAt = clock.now()
        if let poolSlot { pool.release(slot: poolSlot) }
        if delivered {
            outputFrames.add(1, ordering: .relaxed)
            configuration.observer?.frameOutput(
                index: frame.frameIndex, pts: frame.pts,
                timing: FrameTiming(
                    arrival: frame.arrival, poolWait: frame.poolWait, compositeTime: pushStart - compositeStart,
                    pushTime: outputAt - pushStart, outputAt: outputAt, analysisLag: analysisLag))
        } else {
            configuration.observer?.frameDropped(
                index: frame.frameIndex, pts: frame.pts, cause: undeliveredCause, at: outputAt)
        }
    }

    /// Live behaviour: every frame is drawn at once with each stage's newest result, whatever frame it came from.
    private func processFramesWithNewestResults() {
        let lossless = configuration.pool.policy == .block
        while let slotIndex = handoff.next() {
            guard let frame = take(slot: slotIndex) else {
                pool.release(slot: slotIndex)
                continue
            }
            _ = submitForAnalysis(frame, waitForLanes: lossless)
            let pts = frame.pts ?? .zero
            let detections = configuration.compositors.isEmpty ? [:] : board.snapshot()
            var analysisLag: Duration?
            for (stage, result) in detections {
                let lag = pts - result.pts
                analysisLag = max(analysisLag ?? .zero, lag)
                configuration.observer?.analysisDrawn(stage: stage, lag: lag)
            }
            deliver(frame, detections: detections, analysisLag: analysisLag, poolSlot: slotIndex)
        }
    }
}

// MARK: - Frame-accurate analysis

extension FramePath {
    /// The most frames held for analysis results, whatever the interval: a 1080p I420 frame is 3 MB. With a longer
    /// interval, frames beyond the hold are drawn with the last result before them.
    public static let maximumHeldFrames = 32
    /// The most bytes of frames held: ``maximumHeldFrames`` 1080p frames. A 4K frame is 12 MB, so a 4K run holds at
    /// most 8 (the default 0.3 s interval at 25 fps), whatever interval a pipeline file asks for.
    public static let maximumHeldBytes = maximumHeldFrames * 1920 * 1080 * 3 / 2
    /// A held frame whose next frame has not come from the decoder within this time is drawn with what is known
    /// (a decoder that waits for its own buffers to come back must never wait on the hold).
    static let heldFrameInputWait = Duration.seconds(2)
    /// The output appsrc's own queue (`max-buffers` in the output description).
    static let outputQueueFrames = 2
    /// The deepest output queue a frame-accurate run asks for: one result releases up to a hold of frames at once.
    /// (appsrc also stops at its `max-bytes`, 200 000 by default: at 1080p its queue holds one frame whatever this
    /// asks; lifting that cost 2–15 MiB and no steady wall gain: BENCHMARKS.md, round 5.)
    static let outputQueueLimit = 8

    /// The frames a run with these lanes holds at most: the longest gap between analysed frames, so that every
    /// frame between two analysed ones (and the later one) can wait for the later one's result. At most
    /// ``maximumHeldFrames`` and ``maximumHeldBytes`` of frames `frameBytes` large. Frames the decoder delivers
    /// meanwhile wait in the pool, which is not emptied into the hold: held frames are 3 MB each at 1080p (measured:
    /// BENCHMARKS.md, issue 13).
    public static func holdLimit(frameGaps: [Int], frameBytes: Int) -> Int {
        let byBytes = maximumHeldBytes / max(1, frameBytes)
        return max(1, min(maximumHeldFrames, byBytes, frameGaps.max() ?? 0))
    }

    /// What the processing thread knows of one lane's results in a frame-accurate run.
    private struct LaneResults {
        /// Results of analysed frames, oldest first: the newest one at or before the oldest held frame, and all later.
        var results: [(frameIndex: Int, detections: Detections)] = []
        /// Storage reused for interpolated boxes.
        var blended: [Detection] = []
        var lastSubmitted = -1
        var lastFinished = -1
        /// A job was handed to the lane and has not finished.
        var outstanding: Bool { lastSubmitted > lastFinished }

        /// Whether the frame `frameIndex` can be drawn: the lane finished a frame at or after it, or nothing it is
        /// running can tell more and the frame cannot wait for later frames (`mustFlush`).
        func isReady(_ frameIndex: Int, mustFlush: Bool) -> Bool {
            lastFinished >= frameIndex || (!outstanding && mustFlush)
        }
    }

    /// Frames wait in a first-in first-out hold (frames leave the pool when they enter it, so that the decoder can
    /// deliver the later frames whose analysis they wait for) until every lane has results that bracket them; then
    /// they are drawn in order, each with the results of its own analysis or boxes interpolated between the two
    /// analysed frames around it. At most ``holdLimit(frameGaps:)`` frames are held: when the hold is
    /// full or the input ended, the oldest frame waits only for analyses already running, then is drawn with what
    /// is known. After ``abort(cause:)`` held frames are dropped at once.
    private func processFramesInSync() {
        var laneResults = Array(repeating: LaneResults(), count: lanes.count)
        var held: [TakenFrame] = []
        var holdLimit = Self.maximumHeldFrames
        held.reserveCapacity(holdLimit)
        var drawn: [String: Detections] = [:]
        var inputEnded = false
        var inputPaused = false
        var sized = false

        func collect(_ index: Int) {
            lanes[index].takeFinishedJobs { job in
                laneResults[index].lastFinished = max(laneResults[index].lastFinished, job.frameIndex)
                if let detections = job.detections { laneResults[index].results.append((job.frameIndex, detections)) }
            }
        }

        while true {
            if aborted.load(ordering: .sequentiallyConsistent) {
                for frame in held { deliver(frame, detections: [:], analysisLag: nil, poolSlot: nil) }
                held.removeAll()
                processFramesWithNewestResults()
                return
            }
            for index in lanes.indices { collect(index) }
            // The oldest frame may not wait for frames after it: the hold is full, the input ended or paused.
            var mustFlush: Bool { inputEnded || inputPaused || held.count >= holdLimit }
            while let head = held.first, laneResults.allSatisfy({ $0.isReady(head.frameIndex, mustFlush: mustFlush) }) {
                held.removeFirst()
                deliverSynced(head, laneResults: &laneResults, drawn: &drawn)
            }
            if held.isEmpty && inputEnded { return }
            if mustFlush && !held.isEmpty {
                // It waits for an analysis already running (an abort ends the wait).
                if let index = laneResults.indices.first(where: { laneResults[$0].outstanding }) {
                    lanes[index].waitUntilIdle()
                    collect(index)
                }
                continue
            }
            let next = held.isEmpty ? handoff.next().map(FrameHandoff.Next.slot) ?? .finished
                : handoff.next(waitingAtMost: Self.heldFrameInputWait)
            switch next {
            case .finished:
                inputEnded = true
            case .timedOut:
                inputPaused = true
            case .slot(let slotIndex):
                inputPaused = false
                guard let frame = take(slot: slotIndex) else {
                    pool.release(slot: slotIndex)
                    continue
                }
                if !sized {
                    sized = true
                    let frameDuration = frame.format.frameDuration ?? .milliseconds(33)
                    holdLimit = Self.holdLimit(
                        frameGaps: lanes.map { $0.schedule.maximumFrameGap(frameDuration: frameDuration) },
                        frameBytes: Int(frame.format.info.size))
                    // One result releases up to an interval of frames at once: an output queue that takes them all
                    // keeps the encoder busy with them while the next analysed frame is analysed (measured:
                    // BENCHMARKS.md, issue 13).
                    let releasedTogether = min(holdLimit, Self.outputQueueLimit)
                    if let appSource, releasedTogether > Self.outputQueueFrames {
                        gst_app_src_set_max_buffers(appSource, guint64(releasedTogether))
                    }
                }
                let submitted = submitForAnalysis(frame, waitForLanes: true, onIdle: collect)
                for index in lanes.indices where submitted & (1 << UInt64(index)) != 0 {
                    laneResults[index].lastSubmitted = frame.frameIndex
                }
                held.append(frame)
                pool.release(slot: slotIndex)
            }
        }
    }

    /// Draws a held frame with, per lane, the results of its own analysis, boxes interpolated between the analysed
    /// frames before and after it, or (when there is no later result) the last result before it; then drops the
    /// results no later frame needs.
    private func deliverSynced(_ frame: TakenFrame, laneResults: inout [LaneResults], drawn: inout [String: Detections]) {
        // Emptying the dictionary first leaves each lane's blend storage uniquely referenced: reused, not copied.
        drawn.removeAll(keepingCapacity: true)
        let pts = frame.pts ?? .zero
        var analysisLag: Duration?
        for index in laneResults.indices {
            let name = lanes[index].stage.name
            guard let beforeIndex = laneResults[index].results.lastIndex(where: { $0.frameIndex <= frame.frameIndex })
            else { continue }
            let before = laneResults[index].results[beforeIndex]
            let lag: Duration
            if before.frameIndex == frame.frameIndex {
                drawn[name] = before.detections
                lag = .zero
            } else if beforeIndex + 1 < laneResults[index].results.count {
                let after = laneResults[index].results[beforeIndex + 1]
                let fraction = Double(frame.frameIndex - before.frameIndex) / Double(after.frameIndex - before.frameIndex)
                DetectionInterpolation.blend(
                    before.detections, after.detections, fraction: fraction, into: &laneResults[index].blended)
                drawn[name] = Detections(pts: before.detections.pts, source: name, items: laneResults[index].blended)
                lag = max(.zero, min(pts - before.detections.pts, after.detections.pts - pts))
            } else {
                drawn[name] = before.detections
                lag = max(.zero, pts - before.detections.pts)
            }
            analysisLag = max(analysisLag ?? .zero, lag)
            configuration.observer?.analysisDrawn(stage: name, lag: lag)
            // Later frames need at most the newest result at or before this one.
            if beforeIndex > 0 { laneResults[index].results.removeFirst(beforeIndex) }
        }
        deliver(frame, detections: drawn, analysisLag: analysisLag, poolSlot: nil)
    }
}

extension FramePath {
    /// Hands `buffer` (owned) to the output at `pts` (the frame's stream time); true when it was accepted (or there
    /// is no output).
    private func push(_ buffer: UnsafeMutablePointer<GstBuffer>, format: VideoFormat, pts: Duration?) -> Bool {
        guard let appSource else {
            slx_buffer_unref(buffer)
            return true
        }
        if aborted.load(ordering: .sequentiallyConsistent) {
            slx_buffer_unref(buffer)
            return false
        }
        if pushedFormat !== format {
            if let first = firstPushedFormat {
                keepFirstSize(first, whenChangingTo: format, at: pts)
            } else {
                firstPushedFormat = format
            }
            let padding = outputFitter?.fit(format)
            if let padding { fit.withLock { $0 = padding } }
            gst_app_src_set_caps(appSource, format.caps)
            pushedFormat = format
        }
        let buffer = keepingTimestampsIncreasing(buffer, format: format, pts: clockTime(from: pts))
        // gst_app_src_push_buffer takes the buffer (transfer full) and blocks while the appsrc queue is full; abort()
        // ends the appsrc's stream, which makes a blocked push return.
        let flow = gst_app_src_push_buffer(appSource, buffer)
        guard flow == GST_FLOW_OK else {
            // EOS after abort() is ours, not the output's failure.
            if aborted.load(ordering: .sequentiallyConsistent) { return false }
            outputFailure.withLock {
                if $0 == nil {
                    let reason = String(cString: gst_flow_get_name(flow))
                    $0 = .streamError(source: "output", message: "the output refused a frame (\(reason))", debug: nil)
                }
            }
            return false
        }
        return true
    }

    /// An input that changes frame size (or pixel shape, or colours) partway — recordings joined end to end, a stream
    /// switching resolution — made the encoder renegotiate, which MP4 and Matroska muxers refuse: the run failed
    /// there. The output keeps the first format instead: from the first change on, the output's capsfilter pins the
    /// first frame's size, pixel aspect and colorimetry, and `videoscale` scales later frames into it (black borders
    /// keep their shape). Until then the filter is open and `videoscale` passes frames through untouched.
    private func keepFirstSize(_ first: VideoFormat, whenChangingTo format: VideoFormat, at pts: Duration?) {
        guard let firstSizeFilter, sizeChange.withLock({ $0 == nil }) else { return }
        var firstInfo = first.info
        var newInfo = format.info
        let sameShape = first.width == format.width && first.height == format.height
            && firstInfo.par_n * newInfo.par_d == newInfo.par_n * firstInfo.par_d
            && gst_video_colorimetry_is_equal(&firstInfo.colorimetry, &newInfo.colorimetry) != 0
        guard !sameShape else { return }
        // The size the first frames were encoded at (after padding for the encoder, if any).
        let fitted: (width: Int, height: Int) = outputFitter?.fitted(first) ?? (first.width, first.height)
        let aspect = "\(firstInfo.par_n)/\(max(1, firstInfo.par_d))"
        let colorimetryText = gst_video_colorimetry_to_string(&firstInfo.colorimetry)
        defer { g_free(colorimetryText) }
        var caps = "video/x-raw,width=\(fitted.width),height=\(fitted.height),pixel-aspect-ratio=\(aspect)"
        if let colorimetryText { caps += ",colorimetry=" + String(cString: colorimetryText) }
        slx_object_set_caps(firstSizeFilter, "caps", caps)
        sizeChange.withLock {
            $0 = InputSizeChange(
                firstWidth: first.width, firstHeight: first.height, width: format.width, height: format.height,
                at: pts)
        }
    }

    /// Encoders and muxers refuse timestamps that go backwards (concatenated recordings start again at zero, a
    /// damaged file repeats or jumps). When a frame's PTS is not after the last one pushed, or is further ahead than
    /// ``Configuration/timestampJumpLimit``, it and every later frame are shifted by the same amount so that it
    /// lands one frame after the last one; smaller forward jumps (gaps) pass unchanged. `streamTime` is the frame's
    /// PTS in stream time, which the output gets instead of the decoder's (they differ by the segment's start).
    private func keepingTimestampsIncreasing(
        _ buffer: UnsafeMutablePointer<GstBuffer>, format: VideoFormat, pts streamTime: GstClockTime
    ) -> UnsafeMutablePointer<GstBuffer> {
        let original = slx_buffer_pts(buffer)
        guard streamTime != slx_clock_time_none() else { return buffer }
        var pts = streamTime &+ ptsShift
        let jumpLimit = configuration.timestampJumpLimit.map { clockTime(from: $0) }
        if let last = lastPushedPTS, pts <= last || jumpLimit.map({ pts - last > $0 }) == true {
            let step = format.frameDuration.map { clockTime(from: $0) } ?? 1_000_000
            ptsShift &+= last &+ step &- pts
            pts = last &+ step
            timestampShifts.add(1, ordering: .relaxed)
        }
        lastPushedPTS = pts
        guard pts != original else { return buffer }
        // Only the buffer's metadata is copied when someone else holds it; the pixels stay shared.
        let writable = slx_buffer_make_writable(buffer)!
        slx_buffer_set_pts(writable, pts)
        return writable
    }

    /// Returns a buffer compositing may write: `buffer` itself when no one else holds it, otherwise a copy in a
    /// recycled buffer (the original is released).
    private func makeWritable(_ buffer: UnsafeMutablePointer<GstBuffer>, format: VideoFormat) -> UnsafeMutablePointer<GstBuffer> {
        if slx_buffer_is_writable(buffer) != 0 { return buffer }
        if copyPool?.format !== format { copyPool = CopyPool(format: format) }
        guard let copy = copyPool?.copy(of: buffer) else { return slx_buffer_make_writable(buffer) }
        copiedFrames.add(1, ordering: .relaxed)
        slx_buffer_unref(buffer)
        return copy
    }
}

/// A `GstVideoBufferPool` of frames in one format, for the copies compositing needs: buffers return to the pool when
/// the output releases them, so steady state allocates nothing. (Internal: the plugin's drawing elements use it too.)
final class CopyPool {
    let format: VideoFormat
    private let pool: UnsafeMutablePointer<GstBufferPool>

    init?(format: VideoFormat) {
        self.format = format
        guard let pool = gst_video_buffer_pool_new() else { return nil }
        self.pool = pool
        let config = gst_buffer_pool_get_config(pool)
        gst_buffer_pool_config_set_params(config, format.caps, guint(format.info.size), 0, 0)
        guard gst_buffer_pool_set_config(pool, config) != 0, gst_buffer_pool_set_active(pool, 1) != 0 else {
            gst_object_unref(UnsafeMutableRawPointer(pool))
            return nil
        }
    }

    deinit {
        gst_buffer_pool_set_active(pool, 0)
        gst_object_unref(UnsafeMutableRawPointer(pool))
    }

    /// A pooled buffer holding the pixels and timestamps of `source`.
    func copy(of source: UnsafeMutablePointer<GstBuffer>) -> UnsafeMutablePointer<GstBuffer>? {
        var target: UnsafeMutablePointer<GstBuffer>?
        guard gst_buffer_pool_acquire_buffer(pool, &target, nil) == GST_FLOW_OK, let target else { return nil }
        var from = GstVideoFrame()
        var to = GstVideoFrame()
        guard gst_video_frame_map(&from, &format.info, source, GST_MAP_READ) != 0 else {
            slx_buffer_unref(target)
            return nil
        }
        defer { gst_video_frame_unmap(&from) }
        guard gst_video_frame_map(&to, &format.info, target, GST_MAP_WRITE) != 0 else {
            slx_buffer_unref(target)
            return nil
        }
        _ = gst_video_frame_copy(&to, &from)
        gst_video_frame_unmap(&to)
        _ = gst_buffer_copy_into(target, source, slx_buffer_copy_metadata(), 0, gsize.max)
        return target
    }
}
