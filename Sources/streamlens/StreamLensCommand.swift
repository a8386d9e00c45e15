import ArgumentParser

@main
struct StreamLensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streamlens",
        abstract: "Video analytics on GStreamer: decode, analyse, annotate, stream, and measure every frame.",
        subcommands: [RunCommand.self, StatsCommand.self],
        defaultSubcommand: RunCommand.self
    )
}
