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

        public init(
            pool: PoolConfiguration, compositors: [any CompositingStage] = [],
            analysis: [(stage: any AnalysisStage, schedule: any AnalysisSchedule)] = [],
            observer: (any FramePathObserver)? = nil, clock: any MonotonicClock = SystemClock()
        ) {
            self.pool = pool
            self.compositors = compositors
            self.analysis = analysis
            self.observer = observer
            self.clock = clock
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
    private let appSink: UnsafeMutablePointer<GstAppSink>
    private let appSource: UnsafeMutablePointer<GstAppSrc>?
    // Keep the pipelines alive as long as their elements are used.
    private let input: Pipeline
    private let output: Pipeline?

    // Streaming-thread state: touched only by the appsink callbacks, which GStreamer serializes.
    private var currentFormat: VideoFormat?
    private var decodedFrames = 0

    // Processing-thread state.
    private var copyPool: CopyPool?
    private var pushedFormat: VideoFormat?

    private let negotiated = Mutex<VideoFormat?>(nil)
    private let outputFailure = Mutex<GStreamerError?>(nil)
    private let copiedFrames = Atomic<Int>(0)
    private let outputFrames = Atomic<Int>(0)
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
        } else {
            appSource = nil
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

    /// The format negotiated with the decoder, once the first frame arrived.
    public var format: VideoFormat? { negotiated.withLock { $0 } }
    /// Frames copied to make them writable for compositing.
    public var copies: Int { copiedFrames.load(ordering: .relaxed) }
    /// Frames pushed to the output (or discarded after processing when there is none).
    public var outputCount: Int { outputFrames.load(ordering: .relaxed) }
    /// CPU time each analysis stage's thread spent analysing, by stage name.
    public var analysisCPUTime: [String: Duration] {
        Dictionary(lanes.map { ($0.stage.name, $0.cpuTime) }, uniquingKeysWith: +)
    }
    /// Why the output refused frames, if it did.
    public var failure: GStreamerError? { outputFailure.withLock { $0 } }
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
            observer?.frameDropped(index: frameIndex, pts: pts, cause: .interrupted, at: clock.now())
            return GST_FLOW_EOS
        }
    }

    func appSinkReachedEndOfStream() {
        handoff.finish()
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
                    index: slot.frameIndex, pts: slot.pts, cause: .streamError, at: outputAt)
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
        if pushedFormat !== format {
            gst_app_src_set_caps(appSource, format.caps)
            pushedFormat = format
        }
        // gst_app_src_push_buffer takes the buffer (transfer full) and blocks while the appsrc queue is full.
        let flow = gst_app_src_push_buffer(appSource, buffer)
        guard flow == GST_FLOW_OK else {
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
/// the output releases them, so steady state allocates nothing.
private final class CopyPool {
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
