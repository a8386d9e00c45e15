import Foundation
import Synchronization
import StreamLensCore
import StreamLensGStreamer

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
    struct Slot {
        var buffer: FrameBuffer?
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
    let handoff: FrameHandoff
    let slots: UnsafeMutablePointer<Slot>
    let lanes: [AnalysisLane]
    /// The input's appsink and pipeline: replaced (on the control thread, once the old input is at NULL) when a
    /// lost live input is reopened; read only by `start()`.
    private var appSink: AppSink
    let appSource: AppSource?
    // Keep the pipelines alive as long as their elements are used.
    private var input: Pipeline
    private let output: Pipeline?

    // Streaming-thread state: touched only by the appsink callbacks, which GStreamer serializes.
    var currentFormat: VideoFormat?
    var decodedFrames = 0
    /// The PTS of the last frame that arrived, and whether a stop has cut the stream (``endAtFirstGap()``).
    var lastArrivedPTS: Duration?
    /// The last arrived frame's time as the decoder stamped it (``followingOn(_:buffer:)``).
    var lastDecoderPTS: Duration?
    /// When the last frame with a time arrived (``continuingAfterReopen(_:arrival:)``).
    var lastTimedArrival: Duration?
    /// Added to a reopened input's times so that they go on from the run's (``continuingAfterReopen(_:arrival:)``).
    var reopenedInputOffset = Duration.zero
    var cutByStop = false

    // Processing-thread state.
    var copyPool: CopyPool?
    var pushedFormat: VideoFormat?
    let outputFitter: OutputFitter?
    /// The output's capsfilter that pins frames to the first size when the input changes size partway.
    let firstSizeFilter: PipelineElement?
    /// The first format pushed to the output.
    var firstPushedFormat: VideoFormat?
    /// The last timestamp handed to the output and the shift applied to keep output timestamps increasing
    /// (GstClockTime nanoseconds).
    var lastPushedPTS: UInt64?
    /// Added to every input PTS (wrapping arithmetic: it may be "negative" after a forward jump was closed up).
    var ptsShift: UInt64 = 0

    let negotiated = Mutex<VideoFormat?>(nil)
    let outputFailure = Mutex<GStreamerError?>(nil)
    let fit = Mutex<OutputFit?>(nil)
    let sizeChange = Mutex<InputSizeChange?>(nil)
    /// Set by ``abort(cause:)``: frames not yet delivered are dropped with this cause.
    let abortCause = Mutex<DropCause?>(nil)
    /// Set by ``stopAdmitting(refusedAs:)``: why a frame that arrives after admission stopped is dropped.
    let refusedCause = Mutex<DropCause>(.interrupted)
    let aborted = Atomic<Bool>(false)
    /// Set by ``endAtFirstGap()``.
    let stopCutsAtGap = Atomic<Bool>(false)
    /// Set by ``replaceInput(with:sinkName:)``: the next frame to arrive is the reopened input's first.
    let inputReopened = Atomic<Bool>(false)
    let copiedFrames = Atomic<Int>(0)
    let arrivedFrames = Atomic<Int>(0)
    let outputFrames = Atomic<Int>(0)
    private let writtenFrames: WrittenFrameCount?
    let timestampShifts = Atomic<Int>(0)
    private let processingDone = DispatchSemaphore(value: 0)
    private var processingThread: Thread?

    /// Connects to the appsink named `sinkName` in `input` and, when given, the appsrc named `sourceName` in `output`.
    public init(
        configuration: Configuration, input: Pipeline, sinkName: String, output: Pipeline?, sourceName: String
    ) throws(GStreamerError) {
        self.configuration = configuration
        self.input = input
        self.output = output
        appSink = try input.appSink(named: sinkName)
        if let output {
            let source = try output.appSource(named: sourceName)
            appSource = source
            writtenFrames = source.countWrittenFrames()
            outputFitter = configuration.outputSizeRule.flatMap { rule in
                (try? output.element(named: Self.outputFitName)).map { OutputFitter(element: $0, rule: rule) }
            }
            firstSizeFilter = try? output.element(named: Self.firstSizeName)
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
            if let buffer = slots[index].buffer { buffer.release() }
        }
        slots.deinitialize(count: configuration.pool.capacity)
        slots.deallocate()
    }

    /// Takes frames from `newInput`'s appsink named `sinkName` from now on: a lost live input reopened as a fresh
    /// pipeline (``Configuration/inputRestarts``). The old input must be at NULL (its streaming threads joined), so
    /// that the appsink callbacks never run on two threads at once. Frame numbering and the pool carry on.
    public func replaceInput(with newInput: Pipeline, sinkName: String) throws(GStreamerError) {
        let sink = try newInput.appSink(named: sinkName)
        input = newInput
        appSink = sink
        inputReopened.store(true, ordering: .sequentiallyConsistent)
        sink.installCallbacks(delegate: self)
    }

    /// Installs the appsink callbacks and starts the processing and analysis threads. Call before PLAYING.
    public func start() {
        appSink.installCallbacks(delegate: self)
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
        appSource?.endOfStream()
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
    var undeliveredCause: DropCause { abortCause.withLock { $0 } ?? .streamError }
}
