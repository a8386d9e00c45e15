import ArgumentParser
import Foundation

@main
struct StreamLensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streamlens",
        abstract: "Video analytics on GStreamer: decode, analyse, annotate, stream, and measure every frame.",
        subcommands: [RunCommand.self, StatsCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// Parses and runs like ArgumentParser's own `main()`, except that a command line that does not parse (an
    /// unknown option, a value of the wrong type) exits with status 2, like every other bad argument, instead of
    /// ArgumentParser's 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
