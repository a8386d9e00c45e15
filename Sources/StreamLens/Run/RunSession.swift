import Foundation
import Synchronization
import StreamLensCompositing
import StreamLensCore
import StreamLensGStreamer
import StreamLensStats
import StreamLensTelemetry

/// One run as the command line does it: build the stages a configuration asks for, run with a statistics recorder,
/// show progress, print the summary, write the report files, and return the process exit status.
///
/// Files are never half-written under their names: the video, timeline, events and subtitles are written as
/// `NAME.partial` and renamed when the run finished or was interrupted (the video only when finalized, see
/// ``PipelineRunner``); a failed run keeps them as `NAME.partial`, or removes them when no frame went through. The
/// report and HTML page appear whole. An output that would overwrite the input, or two outputs naming one file, are
/// refused with exit status 2 before anything is opened.
public final class RunSession {
    /// Exit statuses.
    public enum ExitStatus {
        public static let success: Int32 = 0
        public static let failure: Int32 = 1
        /// Bad arguments, a bad pipeline file, or outputs refused before anything was opened.
        public static let usage: Int32 = 2
        public static let interrupted: Int32 = 130
    }

    public let configuration: RunConfiguration
    public let interrupt: InterruptSignal
    private let clock: any MonotonicClock = SystemClock()

    public init(configuration: RunConfiguration, interrupt: InterruptSignal = InterruptSignal()) {
        var configuration = configuration
        // An interrupted run holds part of the video: it must not replace a whole one an earlier run left under the
        // same name (a re-run with new options, stopped halfway, replaced a finished 250-frame file with 38 frames).
        // Decided before the run, while every existing file is still the earlier run's.
        if configuration.finalPaths.contains(where: { FileManager.default.fileExists(atPath: $0) }) {
            configuration.interruptedRunKeepsPartial = true
        }
        self.configuration = configuration
        self.interrupt = interrupt
    }

    /// Runs and returns the exit status; every failure is one line on standard error.
    public func execute(installSignalHandlers: Bool = true) -> Int32 {
        if installSignalHandlers { interrupt.installSignalHandlers() }
        do { try DestinationCheck.check(configuration) } catch {
            printError(error)
            return error.exitStatus
        }
        let timelineFile = configuration.timelinePath.map(PartialFile.init(path:))
        let timeline: TimelineWriter?
        do {
            timeline = try timelineFile.map { file throws(StatsError) in try TimelineWriter(path: file.partialPath) }
        } catch {
            let cause = if case .cannotWrite(_, let reason) = error { "\(reason); " } else { "" }
            printError(RunError.cannotWrite(
                path: configuration.timelinePath ?? "", reason: cause + "check that the folder exists, is writable and has room"))
            return ExitStatus.failure
        }
        // Closing flushes the last rows on every way out; the files take their names only if the run finished or was
        // interrupted (set below once the run's outcome is known).
        var ending = RunEnding.failedBeforeStart
        defer {
            timeline?.close()
            if let line = timelineFile?.settle(after: ending, what: "timeline", writeFailure: timeline?.writeFailure) {
                print(line)
            }
        }
        let outputs: AnalysisOutputs
        do { outputs = try AnalysisOutputs(configuration: configuration) } catch {
            printError(error)
            return ExitStatus.failure
        }
        defer { outputs.close(after: ending).forEach { print($0) } }
        if let summary = outputs.telemetry?.summary { print(summary) }
        let recorder = RunRecorder(
            configuration: RecorderConfiguration(poolCapacity: configuration.poolCapacity), timeline: timeline)
        // MP4 and MOV files start at 0 whatever the first frame's stream time; their subtitles start with them (a
        // cue of an MPEG-TS or edited MP4 recording came 1.4 s or more late). Matroska and WebM keep stream time.
        if case .file(_, let container) = configuration.output, container == .mp4 || container == .mov {
            outputs.subtitleTimes(countFrom: { recorder.firstFramePTS })
        }
        var metrics: MetricsServer?
        if let port = configuration.metricsPort {
            do { metrics = try MetricsEndpoint.start(port: port, recorder: recorder) } catch {
                printError(error)
                return ExitStatus.failure
            }
        }
        defer { metrics.map(MetricsEndpoint.stop) }
        let progress = ProgressDisplay(enabled: configuration.showProgress)
        var totalDuration: Duration?
        var hooks = PipelineRunner.Hooks()
        hooks.warning = { progress.printAbove("streamlens: warning: \($0)") }
        hooks.notice = { progress.printAbove("streamlens: \($0)") }
        let hudFigures = Mutex(HUDSnapshot(framesPerSecond: 0, droppedFrames: 0))
        if configuration.statistics {
            hooks.started = { [clock] _, _, duration in
                totalDuration = duration
                recorder.runStarted(at: clock.now())
            }
            hooks.inputEnded = { now in recorder.sourceEnded(at: now) }
            hooks.formatNegotiated = { format in recorder.setNominalFrameDuration(format.frameDuration) }
            hooks.decodeError = { recorder.decodeErrorReported() }
            hooks.reconnectAttempted = { recorder.reconnectAttempted() }
            hooks.inputReconnected = { outage in recorder.inputReconnected(after: outage) }
            hooks.inputStayedLost = { outage in recorder.inputStayedLost(for: outage) }
            // The HUD reads its figures on every frame; they are refreshed with the progress line, ten times a
            // second, so drawing them costs no snapshot of the recorder per frame.
            hooks.tick = { now, path in
                let usage = path.pool.usage
                recorder.poll(at: now, poolFull: usage.busySlots >= path.configuration.pool.capacity)
                let snapshot = recorder.snapshot(at: now)
                hudFigures.withLock {
                    $0 = HUDSnapshot(framesPerSecond: snapshot.framesPerSecond, droppedFrames: snapshot.droppedTotal)
                }
                progress.show(ProgressLine.render(snapshot: snapshot, totalDuration: totalDuration))
            }
        }

        let outcome: PipelineRunner.Outcome
        do {
            let configuration = configuration
            let early = EarlyStages(configuration: configuration, outputs: outputs)
            let runner = PipelineRunner(
                configuration: configuration,
                startEarly: { () throws(RunError) in try early.start() },
                stages: { format, policy throws(RunError) in
                    try StageAssembly.build(
                        configuration, format: format, policy: policy, hud: { hudFigures.withLock { $0 } }, outputs: outputs,
                        early: early, warn: { message in progress.printAbove("streamlens: warning: \(message)") })
                },
                observer: configuration.statistics ? recorder : nil, clock: clock, interrupt: interrupt)
            outcome = try runner.run(hooks: hooks)
        } catch {
            progress.clear()
            printError(error)
            // The run never got going; its report still says so (zero frames, the error), unless the arguments were
            // wrong or the user stopped it before anything happened ("nothing was written": an empty report replaced
            // the good one of an earlier run). A report of an earlier run under its name is not replaced by this one:
            // it keeps its .partial name beside it.
            if configuration.statistics && error.exitStatus != ExitStatus.usage && error != .interruptedBeforeStart {
                recorder.finish(at: clock.now())
                let live = configuration.input.isExpectedLive
                let report = recorder.makeReport(context: context(
                    live: live, policy: configuration.backpressure ?? (live ? .drop : .block),
                    interrupted: false, error: error))
                let earlierReport = [configuration.reportPath, configuration.htmlPath].contains {
                    $0.map { FileManager.default.fileExists(atPath: $0) } ?? false
                }
                if !writeReports(report, keepingPartialNames: earlierReport) { return ExitStatus.failure }
            }
            return error.exitStatus
        }
        progress.clear()
        let namesFiles = configuration.namesFiles(afterInterrupt: outcome.interrupted)
        if outcome.error == nil && namesFiles {
            ending = .finished
        } else if outcome.outputFrames > 0 {
            ending = .stoppedPartway
        }
        // Files that grow with the run and could not be written to its end (a full disk) fail it: their last rows are
        // flushed now, and they keep their .partial names.
        timeline?.close()
        let streamEnd = recorder.lastFramePTS.map { $0 + (outcome.format?.frameDuration ?? .zero) }
        outputs.finishSubtitles(streamEnd: streamEnd)
        outputs.finishTelemetry(streamStart: recorder.firstFramePTS, streamEnd: streamEnd)
        var incomplete = outputs.writeFailures
        if let path = configuration.timelinePath, let reason = timeline?.writeFailure {
            incomplete.insert((path, reason), at: 0)
        }
        let filesError = incomplete.first.map { RunError.filesIncomplete(paths: incomplete.map(\.path), reason: $0.reason) }
        let error = outcome.error ?? filesError
        var status = outcome.interrupted ? ExitStatus.interrupted : ExitStatus.success
        if error != nil { status = ExitStatus.failure }
        guard configuration.statistics else {
            print("frames output \(outcome.writtenFrames ?? outcome.outputFrames) (statistics off)")
            RunSummary.outputLines(outcome).forEach { print($0) }
            if let error { printError(error) }
            return status
        }
        recorder.finish(at: clock.now())
        if let written = outcome.writtenFrames, written < outcome.outputFrames {
            // Handed to the output but lost inside it: with the element that failed, or in an encoder stopped hard.
            recorder.outputFramesNotWritten(outcome.outputFrames - written, cause: error == nil ? .interrupted : .streamError)
        }
        var report = recorder.makeReport(context: context(
            live: outcome.live, policy: outcome.policy, interrupted: outcome.interrupted, error: error,
            outcome: outcome))
        // A file whose frames end long before its declared duration was cut short before the run saw it: what is there
        // was processed, but a user (or a batch) taking the run for the whole recording should hear it. An MPEG stream
        // declares none (GStreamer's is estimated from its timestamps).
        let durationIsEstimated =
            if case .file(let path) = configuration.input { MPEGStreamFile.isMPEGStream(at: path) } else { false }
        if !outcome.live, !outcome.interrupted, error == nil, let declared = totalDuration, !durationIsEstimated,
            let lastFrame = recorder.lastFramePTS, let cut = InputCutShort(lastFrame: lastFrame, declared: declared)
        {
            report.run.inputCutShort = cut
            progress.printAbove(String(
                format: "streamlens: warning: the input ends at %.1f s, but its container says %.1f s: the file is cut "
                    + "short (a copy or recording that did not finish?)", cut.lastFrameSeconds, cut.declaredSeconds))
        }
        // Latency inside StreamLens stays small for a source that delivers later and later: the user watching a live
        // output behind the scene should hear why.
        if let behind = report.fellBehindRealTime {
            progress.printAbove(String(
                format: "streamlens: warning: the live source fell %.1f s behind real time (p95 %.1f s): the source, its "
                    + "decoder or this machine did not keep up; lower its size or frame rate, or analyse less often",
                behind.max / 1000, behind.p95 / 1000))
        }
        if !outcome.stageDetails.isEmpty { report.stageDetails = outcome.stageDetails }
        if outcome.timestampRepairs > 0 { report.frames.timestampRepairs = outcome.timestampRepairs }
        report.startupPagesReleasedMegabytes = outcome.startupPagesReleasedKibibytes.map {
            (Double($0) / 102.4).rounded() / 10
        }
        // A run that failed before its first frame has nothing to sum up: its error is the one line it says.
        if error == nil || report.frames.decoded > 0 {
            print(RunSummary.render(report, copies: outcome.copies))
            RunSummary.outputLines(outcome).forEach { print($0) }
        }
        if let error { printError(error) }
        // A stage that never worked is a failed run, though the video went through: what was asked was not done.
        if let (name, stage) = report.analysis.sorted(by: { $0.key < $1.key })
            .first(where: { $0.value.completed == 0 && $0.value.failed > 0 })
        {
            printError(RunError.analysisNeverWorked(
                stage: name, failures: stage.failed, lastError: stage.lastError ?? "no error message"))
            if status == ExitStatus.success { status = ExitStatus.failure }
        }
        if !writeReports(report, drive: outputs.telemetry?.profile, keepingPartialNames: !namesFiles) {
            status = ExitStatus.failure
        }
        return status
    }

    /// The report's `run` section.
    private func context(
        live: Bool, policy: BackpressurePolicy, interrupted: Bool, error: RunError?,
        outcome: PipelineRunner.Outcome? = nil
    ) -> RunContext {
        RunContext(
            input: configuration.inputName ?? configuration.input.label,
            output: configuration.output == .null ? nil : configuration.output.label,
            live: live, policy: policy, poolCapacity: configuration.poolCapacity,
            interrupted: interrupted, error: error?.description,
            streamlensVersion: StreamLensVersion.current, gstreamerVersion: GStreamer.version,
            hardStop: outcome?.hardStopped == true ? true : nil, outputFile: outcome?.outputFile,
            outputFit: outcome?.outputFit.map {
                OutputFitReport(
                    mode: $0.mode, width: $0.width, height: $0.height, encodedWidth: $0.encodedWidth,
                    encodedHeight: $0.encodedHeight)
            }, syncAnalysis: outcome?.synchronizedAnalysis)
    }

    /// Writes the JSON report and the HTML page (each whole or not at all; as `NAME.partial` when
    /// `keepingPartialNames`); false when one could not be written.
    private func writeReports(_ report: RunReport, drive: DriveProfile? = nil, keepingPartialNames: Bool = false) -> Bool {
        do {
            if let path = configuration.reportPath {
                let data: Data
                do { data = try report.jsonData() } catch {
                    throw RunError.cannotWrite(path: path, reason: "the report could not be encoded: \(error)")
                }
                try PartialFile.write(data, to: path, keepingPartialName: keepingPartialNames)
            }
            if let path = configuration.htmlPath {
                let page: String
                do { page = try HTMLReport.render(report: report, drive: drive) } catch {
                    throw RunError.cannotWrite(path: path, reason: "the page could not be rendered: \(error)")
                }
                try PartialFile.write(Data(page.utf8), to: path, keepingPartialName: keepingPartialNames)
            }
            // Said like the other files kept partial: the user looks for the report under its name.
            for case let (path?, what) in [(configuration.reportPath, "report"), (configuration.htmlPath, "page")]
            where keepingPartialNames {
                print("\(what) kept as \(PartialFile(path: path).partialPath): the run did not finish, so it keeps its "
                    + ".partial name")
            }
            return true
        } catch {
            printError(error)
            return false
        }
    }
}

/// Prints `streamlens: error: …` on standard error, as one line (a message quoting a parser's multi-line text
/// is joined up).
public func printError(_ error: any Error) {
    let line = "\(error)".split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }.joined(separator: " ")
    try? FileHandle.standardError.write(contentsOf: Data("streamlens: error: \(line)\n".utf8))
}
