import ArgumentParser
import Foundation
import StreamLens
import StreamLensStats
#if canImport(Glibc)
import Glibc
#endif

/// `streamlens stats A.json [B.json]`: a report's summary, or two side by side with their differences.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Summarize a run report, or compare two side by side.")

    @Argument(help: "A report written with --report.")
    var first: String

    @Argument(help: "A second report to compare with the first.")
    var second: String?

    @Flag(help: "Colour the output even when it is not a terminal.")
    var colour = false

    func run() throws {
        let useColour = colour || isatty(STDOUT_FILENO) == 1
        do {
            let a = try RunReport.read(fromPath: first)
            if let second {
                let b = try RunReport.read(fromPath: second)
                print(StatsComparison.render(a, b, colour: useColour, names: Self.columnNames(first, second)))
            } else {
                print(StatsSummary.render(a, colour: useColour))
            }
        } catch {
            printError(error)
            throw ExitCode(1)
        }
    }

    /// The two reports' file names, with as many of their folders as it takes to tell them apart
    /// (`d1/run.json` and `d2/run.json`, not `run.json` twice).
    static func columnNames(_ first: String, _ second: String) -> (String, String) {
        let a = URL(fileURLWithPath: first).standardizedFileURL.pathComponents
        let b = URL(fileURLWithPath: second).standardizedFileURL.pathComponents
        // The same file twice is named by its file name (the whole path, less its "/", was both names).
        guard a != b else { return (a.last ?? first, b.last ?? second) }
        var depth = 1
        while depth < max(a.count, b.count), a.suffix(depth) == b.suffix(depth) { depth += 1 }
        let name = { (parts: [String]) in parts.suffix(depth).filter { $0 != "/" }.joined(separator: "/") }
        return (name(a), name(b))
    }
}
