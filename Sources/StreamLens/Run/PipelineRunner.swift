import Foundation
import StreamLensCore
import StreamLensGStreamer
import StreamLensStats

/// Runs one pipeline: input → frame path (pool, analysis, compositing) → output, until end-of-stream, an error or an
/// interrupt; then finalizes the output.
///
/// The calling thread runs the control loop (bus messages, interrupts, ticks); frames never pass through it.
public final class PipelineRunner {
    /// What a run did, beyond what the statistics recorder counted.
    public struct Outcome: Sendable {
        /// The input was live (it never prerolled).
        public var live: Bool
        public var policy: BackpressurePolicy
        /// The decoder's format, when a frame arrived.
        public var format: VideoFormat?
        /// Frames copied to make them writable.
        public var copies: Int
        /// Frames that left StreamLens.
        public var outputFrames: Int
        /// The run stopped because the user asked.
        public var interrupted: Bool
        /// The run stopped on an error (the output was still finalized where possible).
        public var error: RunError?
        /// What each stage reported about itself at the end.
        public var stageDetails: [String: ReportValue] = [:]
        /// Wall time from PLAYING to the end.
        public var wallTime: Duration
    }

    /// Things that want to hear about the run while it goes (progress line, statistics).
    public struct Hooks {
        /// Called once the pipeline is live or prerolled, before frames flow, with the media duration when known.
        public var started: (_ live: Bool, _ policy: BackpressurePolicy, _ duration: Duration?) -> Void = { _, _, _ in }
        /// Called when the first frame's format is known.
        public var formatNegotiated: (VideoFormat) -> Void = { _ in }
        /// Called when the input reached its end (or was cut off); the output may still be draining.
        public var inputEnded: (_ now: Duration) -> Void = { _ in }
        /// Called about ten times a second from the control loop.
        public var tick: (_ now: Duration, _ path: FramePath) -> Void = { _, _ in }
        /// A GStreamer warning (one line).
        public var warning: (String) -> Void = { _ in }
        public init() {}
    }

    /// The stages of a run, built once the input's format is known (nil when a live source has not said yet).
    public struct Stages {
        public var compositors: [any CompositingStage]
        public var analysis: [(stage: any AnalysisStage, schedule: any AnalysisSchedule)]
        /// What each stage reports about itself at the end of the run, by stage name (JSON-encodable).
        public var details: [String: () -> any Encodable]

        public init(
            compositors: [any CompositingStage] = [],
            analysis: [(stage: any AnalysisStage, schedule: any AnalysisSchedule)] = [],
            details: [String: () -> any Encodable] = [:]
        ) {
            self.compositors = compositors
            self.analysis = analysis
            self.details = details
        }
    }

    public let configuration: RunConfiguration
    private let makeStages: (VideoFormat?) throws(RunError) -> Stages
    private let observer: (any FramePathObserver)?
    private let clock: any MonotonicClock
    private let interrupt: InterruptSignal

    /// - Parameter stages: builds the stages after the input prerolled, from its format when known.
    public init(
        configuration: RunConfiguration,
        stages: @escaping (VideoFormat?) throws(RunError) -> Stages = { _ in Stages() },
        observer: (any FramePathObserver)? = nil,
        clock: any MonotonicClock = SystemClock(),
        interrupt: InterruptSignal = InterruptSignal()
    ) {
        self.configuration = configuration
        self.makeStages = stages
        self.observer = observer
        self.clock = clock
        self.interrupt = interrupt
    }

    /// Runs to the end. Throws for failures before frames flow (bad input, bad output, bad description); failures
    /// during the run end it gracefully and come back in ``Outcome/error``.
    public func run(hooks: Hooks = Hooks()) throws(RunError) -> Outcome {
        try configuration.input.validate()
        try configuration.output.validate()
        do { try GStreamer.initialize() } catch { throw .gstreamer(error) }

        let input = try makePipeline(
            configuration.input.pipelineDescription, label: "input", userText: configuration.input.label)
        let live = try preroll(input)
        let policy = configuration.backpressure ?? .automatic(isLive: live)
        // The output's latency allowance on live runs: the frames the pool can hold, at 30 fps.
        let latencyBound = Duration.milliseconds(34 * configuration.poolCapacity)
        let output = try configuration.output
            .pipelineDescription(live: live, encoderPreset: configuration.encoderPreset, latencyBound: latencyBound)
            .map { description throws(RunError) in
                try makePipeline(description, label: "output", userText: configuration.output.label)
            }

        let stages = try makeStages(input.negotiatedFormat(atInputOf: InputSource.sinkName))
        let path: FramePath
        do {
            path = try FramePath(
                configuration: .init(
                    pool: PoolConfiguration(capacity: configuration.poolCapacity, policy: policy),
                    compositors: stages.compositors, analysis: stages.analysis, observer: observer, clock: clock),
                input: input, sinkName: InputSource.sinkName, output: output, sourceName: OutputTarget.sourceName)
        } catch { throw .gstreamer(error) }
        hooks.started(live, policy, live ? nil : input.queryDuration())
        path.start()
        do {
            try output?.setState(.paused)
            try input.setState(.playing)
            if live, let output { output.shareClockAndBaseTime(with: input) }
            try output?.setState(.playing)
        } catch {
            path.stopAdmitting()
            throw classify(error, input: input, output: output)
        }
        var outcome = controlLoop(input: input, output: output, path: path, live: live, policy: policy, hooks: hooks)
        outcome.stageDetails = stages.details.compactMapValues { ReportValue(encoding: $0()) }
        let analysisCPU = path.analysisCPUTime
        if !analysisCPU.isEmpty {
            // The stages' own CPU time: what the pipeline costs beyond its analysis is the rest of the process's.
            outcome.stageDetails["analysis_cpu_ms"] = .object(analysisCPU.mapValues { .number($0.milliseconds) })
        }
        return outcome
    }

    /// Builds a pipeline; a parse error quotes what the user wrote (`userText`), not the full generated description.
    private func makePipeline(_ description: String, label: String, userText: String) throws(RunError) -> Pipeline {
        do { return try Pipeline(description, label: label) } catch {
            if case .invalidDescription(_, let message) = error {
                throw .gstreamer(.invalidDescription(description: userText, message: message))
            }
            throw .gstreamer(error)
        }
    }

    /// Takes the input to PAUSED and waits for its first frame (files) or for it to report live; returns `isLive`.
    /// Errors found here (not a video, missing plugin) become one clear error before anything is written.
    private func preroll(_ input: Pipeline) throws(RunError) -> Bool {
        let change: Pipeline.StateChange
        do { change = try input.setState(.paused) } catch {
            throw classify(error, input: input, output: nil)
        }
        if change == .noPreroll { return true }
        let deadline = clock.now() + configuration.startupTimeout
        var missingPlugin: String?
        while clock.now() < deadline {
            switch input.nextMessage(timeout: .milliseconds(50)) {
            case .error(let error):
                throw missingPlugin.map { .missingPlugin(detail: $0) } ?? classify(error, input: input, output: nil)
            case .missingPlugin(let detail):
                missingPlugin = detail
            case .endOfStream:
                throw .noFrames(input: configuration.input.label, waited: .zero)
            default:
                break
            }
            switch input.waitForState(timeout: .zero) {
            case .success: return false
            case .noPreroll: return true
            default: continue
            }
        }
        throw .noFrames(input: configuration.input.label, waited: configuration.startupTimeout)
    }

    /// Watches both buses until the output has finalized (or, without output, the frame path has drained).
    private func controlLoop(
        input: Pipeline, output: Pipeline?, path: FramePath, live: Bool, policy: BackpressurePolicy, hooks: Hooks
    ) -> Outcome {
        let start = clock.now()
        var failure: RunError?
        var missingPlugin: String?
        var inputEnded = false
        var outputEnded = output == nil
        var drainedAt: Duration?
        var interruptedAt: Duration?
        var formatReported = false
        var lastTick = start
        var inputEndReported = false

        func fail(_ error: RunError) {
            if failure == nil { failure = error }
            path.stopAdmitting()
        }

        while true {
            let now = clock.now()
            if let message = input.nextMessage(timeout: .milliseconds(20)) {
                switch message {
                case .endOfStream: inputEnded = true
                case .error(let error):
                    inputEnded = true
                    fail(missingPlugin.map { .missingPlugin(detail: $0) } ?? classify(error, input: input, output: output))
                case .missingPlugin(let detail): missingPlugin = detail
                case .warning(let source, let message): hooks.warning("\(source): \(message)")
                default: break
                }
            }
            while let output, !outputEnded, let message = output.nextMessage(timeout: .zero) {
                switch message {
                case .endOfStream: outputEnded = true
                case .error(let error):
                    outputEnded = true
                    fail(.gstreamer(error))
                case .qualityOfService(_, _, let dropped, _): observer?.sinkReportedDrops(total: dropped)
                case .latencyChanged: output.recalculateLatency()
                case .warning(let source, let message): hooks.warning("\(source): \(message)")
                default: break
                }
            }
            if !formatReported, let format = path.format {
                formatReported = true
                hooks.formatNegotiated(format)
            }
            if drainedAt == nil, path.waitUntilDrained(timeout: .zero) { drainedAt = now }
            if let drainedAt {
                if outputEnded { break }
                if now - drainedAt > .seconds(30) {
                    fail(.gstreamer(.stateChangeFailed(pipeline: "output", state: "end-of-stream within 30 s")))
                    break
                }
            }
            if interrupt.isRaised && interruptedAt == nil {
                interruptedAt = now
                input.sendEndOfStream()
            }
            // A source that ignores end-of-stream is cut off; frames already admitted still reach the output.
            if let interruptedAt, !inputEnded, now - interruptedAt > .seconds(3) {
                inputEnded = true
                path.stopAdmitting()
            }
            if !formatReported, now - start > configuration.startupTimeout {
                fail(.noFrames(input: configuration.input.label, waited: configuration.startupTimeout))
            }
            if inputEnded && !inputEndReported {
                inputEndReported = true
                hooks.inputEnded(now)
            }
            if now - lastTick >= .milliseconds(100) {
                lastTick = now
                hooks.tick(now, path)
            }
        }
        if failure == nil, let outputFailure = path.failure { failure = .gstreamer(outputFailure) }
        hooks.tick(clock.now(), path)
        _ = try? input.setState(.null)
        _ = try? output?.setState(.null)
        return Outcome(
            live: live, policy: policy, format: path.format, copies: path.copies, outputFrames: path.outputCount,
            interrupted: interruptedAt != nil, error: failure, wallTime: clock.now() - start)
    }

    /// Turns a GStreamer error into the clearest ``RunError``.
    private func classify(_ error: GStreamerError, input: Pipeline, output: Pipeline?) -> RunError {
        if case .stateChangeFailed(let pipeline, _) = error {
            // The reason is usually an ERROR already on the bus.
            let bus = pipeline == "output" ? output : input
            while let message = bus?.nextMessage(timeout: .milliseconds(100)) {
                if case .error(let detailed) = message { return classify(detailed, input: input, output: output) }
            }
        }
        if case .streamError(let source, let message, _) = error {
            let decodeFailure = message.contains("Could not determine type of stream")
                || message.contains("No decoder available") || message.contains("not-negotiated")
                || source.hasPrefix("typefind") || source.contains("decodebin")
            if decodeFailure, case .file = configuration.input {
                return .inputNotVideo(input: configuration.input.label, detail: message)
            }
            // uridecodebin names its source element "source"; cameras and network sources keep their factory names.
            let sourceElements = ["source", "filesrc", "v4l2src", "rtspsrc", "souphttpsrc", "udpsrc"]
            if sourceElements.contains(where: source.hasPrefix) {
                switch configuration.input {
                case .uri, .camera, .file: return .inputUnavailable(input: configuration.input.label, detail: message)
                case .description: break
                }
            }
            if case .file(let path, _) = configuration.output, source.hasPrefix("filesink") {
                return .outputUnwritable(path: path, reason: message)
            }
        }
        return .gstreamer(error)
    }
}
