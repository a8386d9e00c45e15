import Foundation
import Synchronization
import StreamLensCompositing
import StreamLensCore
import StreamLensGStreamer
import StreamLensStats

/// One run as the command line does it: build the stages a configuration asks for, run with a statistics recorder,
/// show progress, print the summary, write the report files, and return the process exit status.
public final class RunSession {
    /// Exit statuses.
    public enum ExitStatus {
        public static let success: Int32 = 0
        public static let failure: Int32 = 1
        public static let interrupted: Int32 = 130
    }

    public let configuration: RunConfiguration
    public let interrupt: InterruptSignal
    private let clock: any MonotonicClock = SystemClock()

    public init(configuration: RunConfiguration, interrupt: InterruptSignal = InterruptSignal()) {
        self.configuration = configuration
        self.interrupt = interrupt
    }

    /// Runs and returns the exit status; every failure is one line on standard error.
    public func execute(installSignalHandlers: Bool = true) -> Int32 {
        if installSignalHandlers { interrupt.installSignalHandlers() }
        let timeline: TimelineWriter?
        do {
            timeline = try configuration.timelinePath.map { path throws(StatsError) in try TimelineWriter(path: path) }
        } catch {
            printError(error)
            return ExitStatus.failure
        }
        // Closing flushes the last rows, on every way out: errors, interrupts, the end.
        defer { timeline?.close() }
        let outputs: AnalysisOutputs
        do { outputs = try AnalysisOutputs(configuration: configuration) } catch {
            printError(error)
            return ExitStatus.failure
        }
        defer { outputs.close() }
        let recorder = RunRecorder(
            configuration: RecorderConfiguration(poolCapacity: configuration.poolCapacity), timeline: timeline)
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
        hooks.started = { [clock] _, _, duration in
            totalDuration = duration
            recorder.runStarted(at: clock.now())
        }
        hooks.inputEnded = { now in recorder.sourceEnded(at: now) }
        hooks.formatNegotiated = { format in recorder.setNominalFrameDuration(format.frameDuration) }
        // The HUD reads its figures on every frame; they are refreshed with the progress line, ten times a second,
        // so drawing them costs no snapshot of the recorder per frame.
        let hudFigures = Mutex(HUDSnapshot(framesPerSecond: 0, droppedFrames: 0))
        hooks.tick = { now, path in
            let usage = path.pool.usage
            recorder.poll(at: now, poolFull: usage.busySlots >= path.configuration.pool.capacity)
            let snapshot = recorder.snapshot(at: now)
            hudFigures.withLock {
                $0 = HUDSnapshot(framesPerSecond: snapshot.framesPerSecond, droppedFrames: snapshot.droppedTotal)
            }
            progress.show(ProgressLine.render(snapshot: snapshot, totalDuration: totalDuration))
        }
        hooks.warning = { progress.printAbove("streamlens: warning: \($0)") }

        let outcome: PipelineRunner.Outcome
        do {
            let configuration = configuration
            let runner = PipelineRunner(
                configuration: configuration,
                stages: { format throws(RunError) in
                    try StageAssembly.build(
                        configuration, format: format, hud: { hudFigures.withLock { $0 } }, outputs: outputs,
                        warn: { message in progress.printAbove("streamlens: warning: \(message)") })
                },
                observer: configuration.statistics ? recorder : nil, clock: clock, interrupt: interrupt)
            outcome = try runner.run(hooks: configuration.statistics ? hooks : PipelineRunner.Hooks())
        } catch {
            progress.clear()
            printError(error)
            return ExitStatus.failure
        }
        progress.clear()
        guard configuration.statistics else {
            print("frames output \(outcome.outputFrames) (statistics off)")
            if let error = outcome.error { printError(error) }
            return outcome.error != nil ? ExitStatus.failure : outcome.interrupted ? ExitStatus.interrupted : ExitStatus.success
        }
        recorder.finish(at: clock.now())
        var report = recorder.makeReport(context: RunContext(
            input: configuration.inputName ?? configuration.input.label,
            output: configuration.output == .null ? nil : configuration.output.label,
            live: outcome.live, policy: outcome.policy, poolCapacity: configuration.poolCapacity,
            interrupted: outcome.interrupted, error: outcome.error?.description,
            streamlensVersion: StreamLensVersion.current, gstreamerVersion: GStreamer.version))
        if !outcome.stageDetails.isEmpty { report.stageDetails = outcome.stageDetails }
        print(RunSummary.render(report, copies: outcome.copies))
        var status = outcome.interrupted ? ExitStatus.interrupted : ExitStatus.success
        if let error = outcome.error {
            printError(error)
            status = ExitStatus.failure
        }
        do {
            if let path = configuration.reportPath { try report.write(toPath: path) }
            if let path = configuration.htmlPath { try HTMLReport.write(report: report, toPath: path) }
        } catch {
            printError(error)
            status = ExitStatus.failure
        }
        return status
    }
}

/// Prints `streamlens: error: …` on standard error.
public func printError(_ error: any Error) {
    FileHandle.standardError.write(Data("streamlens: error: \(error)\n".utf8))
}

/// The version reported in run reports.
public enum StreamLensVersion {
    public static let current = "0.1.0"
}
