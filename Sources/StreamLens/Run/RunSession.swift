import Foundation
import StreamLensCompositing
import StreamLensCore
import StreamLensGStreamer

/// One run as the command line does it: build the stages a configuration asks for, run, print the summary, write
/// reports and events, and return the process exit status.
public final class RunSession {
    /// Exit statuses.
    public enum ExitStatus {
        public static let success: Int32 = 0
        public static let failure: Int32 = 1
        public static let interrupted: Int32 = 130
    }

    public let configuration: RunConfiguration
    public let interrupt: InterruptSignal
    private let standardError: FileHandle

    public init(configuration: RunConfiguration, interrupt: InterruptSignal = InterruptSignal(), standardError: FileHandle = .standardError) {
        self.configuration = configuration
        self.interrupt = interrupt
        self.standardError = standardError
    }

    /// Runs and returns the exit status; every failure is one line on standard error.
    public func execute(installSignalHandlers: Bool = true) -> Int32 {
        if installSignalHandlers { interrupt.installSignalHandlers() }
        let outcome: PipelineRunner.Outcome
        do {
            let compositors: [any CompositingStage] = configuration.frameStamp ? [FrameStampStage()] : []
            let runner = PipelineRunner(configuration: configuration, compositors: compositors, interrupt: interrupt)
            outcome = try runner.run()
        } catch {
            report(error)
            return ExitStatus.failure
        }
        print(
            "frames output \(outcome.outputFrames), copies \(outcome.copies), \(outcome.live ? "live" : "file"), "
                + "policy \(outcome.policy.rawValue), wall \(String(format: "%.2f", outcome.wallTime.seconds)) s")
        if let error = outcome.error {
            report(error)
            return ExitStatus.failure
        }
        return outcome.interrupted ? ExitStatus.interrupted : ExitStatus.success
    }

    private func report(_ error: any Error) {
        standardError.write(Data("streamlens: error: \(error)\n".utf8))
    }
}
