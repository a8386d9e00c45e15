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

        public init(
            pool: PoolConfiguration, compositors: [any CompositingStage] = [],
            analysis: [(stage: any AnalysisStage, schedule: any AnalysisSchedule)] = [],
            observer: (any FramePathObserver)? = nil, clock: any MonotonicClock = SystemClock(),
            inputRestarts: Bool = false, outputSizeRule: OutputSizeRule? = nil, timestampJumpLimit: Duration? = nil
        ) {
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

    // Processing-thread state.
    private var copyPool: CopyPool?
    private var pushedFormat: VideoFormat?
    private let outputFitter: OutputFitter?
    /// The last timestamp handed to the output and the shift applied to keep output timestamps increasing.
    private var lastPushedPTS: GstClockTime?
    /// Added to every input PTS (wrapping arithmetic: it may be "negative" after a forward jump was closed up).
    private var ptsShift: GstClockTime = 0

    private let negotiated = Mutex<VideoFormat?>(nil)
    private let outputFailure = Mutex<GStreamerError?>(nil)
    private let fit = Mutex<OutputFit?>(nil)
    /// Set by ``abort(cause:)``: frames not yet delivered are dropped with this cause.
    private let abortCause = Mutex<DropCause?>(nil)
    private let aborted = Atomic<Bool>(false)
    private let copiedFrames = Atomic<Int>(0)
    private let arrivedFrames = Atomic<Int>(0)
    private let outputFrames = Atomic<Int>(0)
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
            outputFitter = configuration.outputSizeRule.flatMap { rule in
                (try? output.child(named: Self.outputFitName)).map { OutputFitter(element: $0, rule: rule) }
            }
        } else {
            appSource = nil
            outputFitter = nil
        }
        pool = FramePool(configuration: configuration.pool, clock: configuration.clock)
        handoff = FrameHandoff(capacity: configuration.pool.capacity)
        slots = .allocate(capacity: configuration.pool.capacity)
        slots.initialize(repeating: Slot(), count: configuration.pool.capacity)
        let board = DetectionBoard()
        self.board = board
        lanes = configuration.analysis.map {
            AnalysisLane(
                stage: $0.stage, schedule: $0.schedule, board: board, observer: configuration.observer,
                clock: configuration.clock)
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

    /// Stops admitting frames (a producer waiting for a slot wakes up) and lets queued frames drain.
    public func stopAdmitting() {
        pool.close()
        handoff.finish()
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

    /// The format negotiated with the decoder, once the first frame arrived.
    public var format: VideoFormat? { negotiated.withLock { $0 } }
    /// Frames copied to make them writable for compositing.
    public var copies: Int { copiedFrames.load(ordering: .relaxed) }
    /// Frames that came out of the decoder so far (admitted or not).
    public var decodedCount: Int { arrivedFrames.load(ordering: .relaxed) }
    /// Frames pushed to the output (or discarded after processing when there is none).
    public var outputCount: Int { outputFrames.load(ordering: .relaxed) }
    /// CPU time each analysis stage's thread spent analysing, by stage name.
    public var analysisCPUTime: [String: Duration] {
        Dictionary(lanes.map { ($0.stage.name, $0.cpuTime) }, uniquingKeysWith: +)
    }
    /// Why the output refused frames, if it did.
    public var failure: GStreamerError? { outputFailure.withLock { $0 } }
    /// How frames were padded for the encoder, when they had to be.
    public var outputFit: OutputFit? { fit.withLock { $0 } }
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
        slx_sample_unref(sample)
        let clock = configuration.clock
        let arrival = clock.now()
        let frameIndex = decodedFrames
        decodedFrames += 1
        arrivedFrames.store(decodedFrames, ordering: .relaxed)
        let pts = duration(fromClockTime: slx_buffer_pts(buffer))
        let observer = configuration.observer
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
            let cause = abortCause.withLock { $0 } ?? .interrupted
            observer?.frameDropped(index: frameIndex, pts: pts, cause: cause, at: clock.now())
            return GST_FLOW_EOS
        }
    }

    func appSinkReachedEndOfStream() {
        // A restartable input's end is decided by the runner (it may reconnect).
        if !configuration.inputRestarts { handoff.finish() }
    }
}

// MARK: - Processing thread

extension FramePath {
    private func processFrames() {
        let clock = configuration.clock
        let lossless = configuration.pool.policy == .block
        while let slotIndex = handoff.next() {
            let slot = slots[slotIndex]
            slots[slotIndex].buffer = nil
            guard var buffer = slot.buffer, let format = slot.format else {
                pool.release(slot: slotIndex)
                continue
            }
            let pts = slot.pts ?? .zero
            for lane in lanes where lane.isDue(pts: pts) {
                if lossless { lane.waitUntilIdle() }
                if lane.isIdle {
                    lane.submit(buffer: buffer, format: format, pts: pts, frameIndex: slot.frameIndex)
                } else {
                    configuration.observer?.analysisSkipped(stage: lane.stage.name, pts: pts)
                }
            }
            let compositeStart = clock.now()
            var analysisLag: Duration?
            if !configuration.compositors.isEmpty {
                buffer = makeWritable(buffer, format: format)
                let context = CompositeContext(pts: pts, frameIndex: slot.frameIndex, latestDetections: board.snapshot())
                for detections in context.latestDetections.values {
                    analysisLag = max(analysisLag ?? .zero, pts - detections.pts)
                }
                _ = format.withMappedPlanes(buffer, writable: true) { planes in
                    for stage in configuration.compositors { stage.composite(onto: planes, context: context) }
                }
            }
            let pushStart = clock.now()
            let delivered = push(buffer, format: format)
            let outputAt = clock.now()
            pool.release(slot: slotIndex)
            if delivered {
                outputFrames.add(1, ordering: .relaxed)
                configuration.observer?.frameOutput(
                    index: slot.frameIndex, pts: slot.pts,
                    timing: FrameTiming(
                        arrival: slot.arrival, poolWait: slot.poolWait, compositeTime: pushStart - compositeStart,
                        pushTime: outputAt - pushStart, outputAt: outputAt, analysisLag: analysisLag))
            } else {
                configuration.observer?.frameDropped(
                    index: slot.frameIndex, pts: slot.pts, cause: undeliveredCause, at: outputAt)
            }
        }
        for lane in lanes { lane.stop() }
        if let appSource { _ = gst_app_src_end_of_stream(appSource) }
    }

    /// Hands `buffer` (owned) to the output; true when it was accepted (or there is no output).
    private func push(_ buffer: UnsafeMutablePointer<GstBuffer>, format: VideoFormat) -> Bool {
        guard let appSource else {
            slx_buffer_unref(buffer)
            return true
        }
        if aborted.load(ordering: .sequentiallyConsistent) {
            slx_buffer_unref(buffer)
            return false
        }
        if pushedFormat !== format {
            let padding = outputFitter?.fit(format)
            if let padding { fit.withLock { $0 = padding } }
            gst_app_src_set_caps(appSource, format.caps)
            pushedFormat = format
        }
        let buffer = keepingTimestampsIncreasing(buffer, format: format)
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

    /// Encoders and muxers refuse timestamps that go backwards (concatenated recordings start again at zero, a
    /// damaged file repeats or jumps). When a frame's PTS is not after the last one pushed, or is further ahead than
    /// ``Configuration/timestampJumpLimit``, it and every later frame are shifted by the same amount so that it
    /// lands one frame after the last one; smaller forward jumps (gaps) pass unchanged.
    private func keepingTimestampsIncreasing(
        _ buffer: UnsafeMutablePointer<GstBuffer>, format: VideoFormat
    ) -> UnsafeMutablePointer<GstBuffer> {
        let original = slx_buffer_pts(buffer)
        guard original != slx_clock_time_none() else { return buffer }
        var pts = original &+ ptsShift
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
