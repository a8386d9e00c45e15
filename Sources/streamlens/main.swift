import StreamLens
import StreamLensCompositing
import Foundation

// Temporary smoke entry point; replaced by the ArgumentParser CLI.
let arguments = CommandLine.arguments
var configuration = RunConfiguration(input: InputSource(parsing: arguments[1]))
configuration.output = try OutputTarget(parsing: arguments.count > 2 ? arguments[2] : "null")
let interrupt = InterruptSignal()
interrupt.installSignalHandlers()
do {
    let runner = PipelineRunner(configuration: configuration, compositors: arguments.contains("--stamp") ? [FrameStampStage()] : [], interrupt: interrupt)
    let outcome = try runner.run()
    print("live=\(outcome.live) policy=\(outcome.policy) output=\(outcome.outputFrames) copies=\(outcome.copies) wall=\(outcome.wallTime) error=\(outcome.error.map { "\($0)" } ?? "-") interrupted=\(outcome.interrupted) format=\(outcome.format?.capsDescription ?? "?")")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
