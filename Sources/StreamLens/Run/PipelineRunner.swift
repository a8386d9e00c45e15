import Foundation
import StreamLensCore
import StreamLensFramePath
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
        /// Of those, the frames that reached the output's muxer or sink; nil where that cannot be counted (RTP).
        public var writtenFrames: Int?
        /// The run stopped because the user asked.
        public var interrupted: Bool
        /// The run stopped on an error (the output was still finalized where possible).
        public var error: RunError?
        /// The run was stopped without draining (second interrupt, or draining outlasted the shutdown grace).
        public var hardStopped = false
        /// The output reached end-of-stream: its muxer finalized the file (also after a hard stop, when the output
        /// still moved).
        public var outputFinalized = false
        /// Where a file output ended up, and whether it is complete.
        public var outputFile: OutputFileReport?
        /// How frames were padded for the encoder, when their size had to change.
        public var outputFit: OutputFit?
        /// The input changed frame size partway; later frames were scaled to the first size.
        public var inputSizeChange: InputSizeChange?
        /// Times output timestamps were shifted because the input's went backwards, repeated or jumped too far.
        public var timestampRepairs = 0
        /// What each stage reported about itself at the end.
        public var stageDetails: [String: ReportValue] = [:]
        /// Wall time from PLAYING to the end.
        public var wallTime: Duration
        /// Frames were drawn with their own analysis results (``SyncAnalysisMode``); nil when nothing was analysed.
        public var synchronizedAnalysis: Bool?
        /// Resident file pages handed back once the run was under way (``StartupPages``), KiB; nil when none were.
        public var startupPagesReleasedKibibytes: Int?
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
        /// A GStreamer warning, or news about the input (lost, back), as one line.
        public var warning: (String) -> Void = { _ in }
        /// What the run is doing about an interrupt (one line).
        public var notice: (String) -> Void = { _ in }
        /// An input decoder or demuxer skipped damaged data.
        public var decodeError: () -> Void = {}
        /// An attempt to reopen a lost live input began.
        public var reconnectAttempted: () -> Void = {}
        /// A lost live input delivered frames again, `outage` after the last frame before the loss.
        public var inputReconnected: (_ outage: Duration) -> Void = { _ in }
        /// The run ended while a lost live input was still away, `outage` after the last frame before the loss.
        public var inputStayedLost: (_ outage: Duration) -> Void = { _ in }
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

    /// Decoding threads for a frame-accurate file run with analysis: one. Its frames wait for analysis (which gets
    /// both cores), so the decoder is not what the run waits for, and each libav frame thread keeps its own decoding
    /// context and reference frames: one thread instead of libav's one per core took 20 MiB off the peak of the
    /// 1080p dashcam job (docs/figures/performance.md). Nil (the decoder's own choice) for every other run: a plain
    /// transcode or a live source wants the decoder's full speed (DecoderThreadRuleTests). To measure the difference,
    /// decode the same file with `gst-launch-1.0 … ! avdec_h264 max-threads=N ! …` rather than through a switch here.
    var decoderThreads: Int? {
        configuration.isFrameAccurateFileRun ? 1 : nil
    }
    private let startEarly: () throws(RunError) -> Void
    private let makeStages: (VideoFormat?, BackpressurePolicy) throws(RunError) -> Stages
    private let observer: (any FramePathObserver)?
    private let clock: any MonotonicClock
    private let interrupt: InterruptSignal

    /// - Parameters:
    ///   - startEarly: what may start before the input opens, once the configuration's checks passed (the sign
    ///     reader's engines of a frame-accurate file run: ``EarlyStages``).
    ///   - stages: builds the stages after the input prerolled, from its format when known and the pool policy.
    public init(
        configuration: RunConfiguration,
        startEarly: @escaping () throws(RunError) -> Void = {},
        stages: @escaping (VideoFormat?, BackpressurePolicy) throws(RunError) -> Stages = { _, _ in Stages() },
        observer: (any FramePathObserver)? = nil,
        clock: any MonotonicClock = SystemClock(),
        interrupt: InterruptSignal = InterruptSignal()
    ) {
        self.configuration = configuration
        self.startEarly = startEarly
        self.makeStages = stages
        self.observer = observer
        self.clock = clock
        self.interrupt = interrupt
    }

    /// Runs to the end. Throws for failures before frames flow (bad input, bad output, bad description, an output
    /// that would overwrite the input); failures during the run end it gracefully and come back in
    /// ``Outcome/error``.
    public func run(hooks: Hooks = Hooks()) throws(RunError) -> Outcome {
        try DestinationCheck.check(configuration)
        do { try configuration.input.validate() } catch {
            guard let place = configuration.inputSetIn else { throw error }
            throw .invalidConfiguration(file: place.file, key: place.key, problem: error.description)
        }
        try configuration.output.validate()
        try startEarly()
        do { try GStreamer.initialize() } catch { throw .gstreamer(error) }

        let input = try makePipeline(
            configuration.input.pipelineDescription, label: "input", userText: configuration.input.label)
        if let threads = decoderThreads { input.limitVideoDecoderThreads(to: threads) }
        let live = try preroll(input)
        let policy = configuration.backpressure ?? .automatic(isLive: live)
        // The output's latency allowance on live runs: the frames the pool can hold, at 30 fps.
        let latencyBound = Duration.milliseconds(34 * configuration.poolCapacity)
        let output = try configuration.output
            .pipelineDescription(live: live, encoderPreset: configuration.encoderPreset, latencyBound: latencyBound)
            .map { description throws(RunError) in
                try makePipeline(description, label: "output", userText: configuration.output.label)
            }
        let partialFile = configuration.output.partialFile
        partialFile?.removeStale()
        // Every library is loaded and initialised now, the input prerolled and the output built: what only that took
        // is handed back before frames start to fill the memory (``StartupPages``; RunControl hands back the rest).
        let startupPagesReleased = StartupPages.release()

        let stages = try makeStages(input.negotiatedFormat(atInputOf: InputSource.sinkName), policy)
        let path: FramePath
        do {
            path = try FramePath(
                configuration: .init(
                    pool: PoolConfiguration(capacity: configuration.poolCapacity, policy: policy),
                    compositors: stages.compositors, analysis: stages.analysis, observer: observer, clock: clock,
                    inputRestarts: live && configuration.reconnects, outputSizeRule: configuration.output.sizeRule,
                    timestampJumpLimit: live ? nil : Self.fileTimestampJumpLimit,
                    synchronizesAnalysis: configuration.syncAnalysis.isOn(policy: policy)),
                input: input, sinkName: InputSource.sinkName, output: output, sourceName: OutputTarget.sourceName)
        } catch { throw .gstreamer(error) }
        hooks.started(live, policy, live ? nil : input.queryDuration())
        if configuration.reconnect == true, !live {
            // Reopening a source that is read like a file (an HTTP download) would start it again from its beginning.
            let asked = configuration.reconnectSetIn.map { "\($0.file): '\($0.key)'" } ?? "--reconnect"
            hooks.warning(
                "\(asked) applies to live sources; '\(configuration.input.label)' is read like a file (not live), so a "
                    + "lost connection ends the run with the frames so far")
        }
        path.start()
        do {
            try startPlaying(input: input, output: output, live: live)
        } catch {
            path.abort(cause: .streamError)
            _ = try? input.setState(.null, within: RunControl.stateChangeLimit)
            _ = try? output?.setState(.null, within: RunControl.stateChangeLimit)
            partialFile?.discard()
            throw error
        }
        let control = RunControl(
            configuration: configuration, input: input, output: output, path: path, live: live, hooks: hooks,
            observer: observer, clock: clock, interrupt: interrupt)
        let result = control.run()
        var outcome = Outcome(
            live: live, policy: policy, format: path.format, copies: path.copies, outputFrames: path.outputCount,
            interrupted: result.interrupted, error: result.failure, wallTime: result.wallTime)
        outcome.hardStopped = result.hardStopped
        let releases = [startupPagesReleased].compactMap { $0 } + result.startupPageReleases
        if !releases.isEmpty { outcome.startupPagesReleasedKibibytes = releases.map(\.kibibytes).reduce(0, +) }
        outcome.writtenFrames = path.writtenCount
        outcome.outputFinalized = result.outputFinalized
        outcome.outputFit = path.outputFit
        outcome.inputSizeChange = path.inputSizeChange
        if !stages.analysis.isEmpty { outcome.synchronizedAnalysis = path.configuration.synchronizesAnalysis }
        outcome.timestampRepairs = path.timestampRepairs
        outcome.stageDetails = stages.details.compactMapValues { ReportValue(encoding: $0()) }
        let analysisCPU = path.analysisCPUTime
        if !analysisCPU.isEmpty {
            // The stages' own CPU time: what the pipeline costs beyond its analysis is the rest of the process's.
            outcome.stageDetails["analysis_cpu_ms"] = .object(analysisCPU.mapValues { .number($0.milliseconds) })
        }
        if let partialFile, case .file(_, let container) = configuration.output {
            outcome.outputFile = settle(partialFile, container: container, outcome: &outcome)
        }
        // A sink description writes where it likes, so its file cannot be kept as NAME.partial: say it may be cut.
        if case .description = configuration.output, result.hardStopped, !result.outputFinalized {
            hooks.warning(
                "the output was stopped before it finalized: what it wrote may be unplayable (an MP4 needs its end; "
                    + "Matroska stays readable)")
        }
        return outcome
    }

    /// Gives a file output its final name when it is complete (finalized, no error, at least one frame).
    /// Otherwise: a Matroska file stopped hard is readable as written and takes its name too (unfinalized); anything
    /// else stays `NAME.partial`, or is removed when it holds no frame. A run that keeps its files partial when
    /// interrupted (``RunConfiguration/interruptedRunKeepsPartial``) names none after an interrupt.
    private func settle(_ file: PartialFile, container: OutputTarget.Container, outcome: inout Outcome) -> OutputFileReport {
        let hasFrames = outcome.outputFrames > 0 && (FileOnDisk.size(of: file.partialPath) ?? 0) > 0
        let mayTakeItsName = outcome.error == nil && configuration.namesFiles(afterInterrupt: outcome.interrupted)
        let finished = mayTakeItsName && outcome.outputFinalized && hasFrames
        if finished || (mayTakeItsName && hasFrames && container.readableUnfinalized) {
            do {
                try file.commit()
                return OutputFileReport(path: file.destination, state: finished ? .complete : .unfinalized)
            } catch {
                outcome.error = error
                return OutputFileReport(path: file.partialPath, state: .partial)
            }
        }
        guard hasFrames else {
            if outcome.outputFrames > 0, FileOnDisk.size(of: file.partialPath) == nil, outcome.error == nil {
                // Frames went into a file that is no longer there (deleted, or its folder, while the run wrote it):
                // whatever the run did, nothing of it is kept.
                outcome.error = .outputRemoved(path: file.partialPath)
            }
            file.discard()
            return OutputFileReport(path: file.partialPath, state: .removed)
        }
        return OutputFileReport(path: file.partialPath, state: .partial)
    }

    /// Output to PAUSED, input to PLAYING, output to PLAYING; each change bounded (a sink opening a FIFO waits for a
    /// reader forever), and an interrupt meanwhile ends the start.
    private func startPlaying(input: Pipeline, output: Pipeline?, live: Bool) throws(RunError) {
        let limit = configuration.startupTimeout
        let interrupt = interrupt
        let interrupted = { interrupt.isRaised }
        do {
            if let output, try output.setState(.paused, within: limit, stopWaiting: interrupted) == nil {
                if interrupted() { throw RunError.interruptedBeforeStart }
                throw RunError.outputFailed(detail: "it did not start within \(limit.secondsText) s (a sink waiting for a reader or a device?)")
            }
            guard try input.setState(.playing, within: limit, stopWaiting: interrupted) != nil else {
                if interrupted() { throw RunError.interruptedBeforeStart }
                throw RunError.noFrames(input: configuration.input.label, waited: limit)
            }
            if live, let output { output.shareClockAndBaseTime(with: input) }
            if let output, try output.setState(.playing, within: limit, stopWaiting: interrupted) == nil {
                if interrupted() { throw RunError.interruptedBeforeStart }
                throw RunError.outputFailed(detail: "it did not start playing within \(limit.secondsText) s")
            }
        } catch let error as RunError {
            throw error
        } catch let error as GStreamerError {
            throw FailureClassifier(configuration: configuration)
                .classify(error, input: input, output: output, framesSeen: false)
        } catch {
            throw .outputFailed(detail: "\(error)")
        }
        if interrupt.isRaised { throw .interruptedBeforeStart }
    }

    /// In a file, a timestamp further ahead than this is damage, not a gap: the output closes it up.
    static let fileTimestampJumpLimit = Duration.seconds(60)

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
    /// Errors found here (not a video, missing plugin) become one clear error before anything is written; an
    /// interrupt ends the wait.
    private func preroll(_ input: Pipeline) throws(RunError) -> Bool {
        let classifier = FailureClassifier(configuration: configuration)
        let change: Pipeline.StateChange?
        let interrupt = interrupt
        do {
            change = try input.setState(
                .paused, within: configuration.startupTimeout, stopWaiting: { interrupt.isRaised })
        } catch {
            throw classifier.classify(error, input: input, output: nil, framesSeen: false)
        }
        guard let change else {
            if interrupt.isRaised { throw .interruptedBeforeStart }
            throw .noFrames(input: configuration.input.label, waited: configuration.startupTimeout)
        }
        if change == .noPreroll { return true }
        let deadline = clock.now() + configuration.startupTimeout
        var missingPlugin: String?
        while clock.now() < deadline {
            if interrupt.isRaised {
                _ = try? input.setState(.null, within: RunControl.stateChangeLimit)
                throw .interruptedBeforeStart
            }
            switch input.nextMessage(timeout: .milliseconds(50)) {
            case .error(let error):
                throw missingPlugin.map { .missingPlugin(detail: $0) }
                    ?? classifier.classify(error, input: input, output: nil, framesSeen: false)
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
}
