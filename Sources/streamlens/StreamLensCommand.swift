import ArgumentParser
import Foundation
import StreamLens

@main
struct StreamLensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streamlens",
        abstract: "Video analytics on GStreamer: decode, analyse, annotate, stream, and measure every frame.",
        subcommands: [RunCommand.self, BatchCommand.self, StatusCommand.self, EventsCommand.self, StatsCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// Parses and runs like ArgumentParser's own `main()`, except that a command line that does not parse (an
    /// unknown option, a value of the wrong type) exits with status 2 and one line, like every other bad argument,
    /// instead of ArgumentParser's 64 and usage block. Async, so that async subcommands (`batch`, `status`, `events`)
    /// run.
    static func main() async {
        // A closed pipe on stdout or stderr (`streamlens … 2>&1 | tee log` stopped with Ctrl-C, `| head -1`) must not
        // kill a run mid-drain: its writes fail instead, and every write to them ignores the failure.
        signal(SIGPIPE, SIG_IGN)
        // Ctrl-C, SIGTERM and SIGHUP wait from the first instruction until `run` or `batch` reads them; every other
        // command lets them act as usual again once it is known.
        InterruptSignal.holdStopSignals()
        do {
            var command = try parseAsRoot()
            if !(command is RunCommand || command is BatchCommand) { InterruptSignal.releaseStopSignals() }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                // One line, like every other error: ArgumentParser's message and where to read more (its usage block,
                // several lines, is left out).
                let seeHelp = fullMessage(for: error).split(separator: "\n")
                    .map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("See '") }
                let message = message(for: error).split(whereSeparator: \.isNewline)
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
                let pointer = seeHelp.map { "; " + $0.prefix(1).lowercased() + $0.dropFirst() } ?? ""
                let line = "streamlens: error: \(message)\(pointer)"
                try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
