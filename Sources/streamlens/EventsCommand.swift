import ArgumentParser
import Foundation
import StreamLens
import StreamLensBatch

/// `streamlens events --catalog URL [--type …] [--file GLOB] [--format jsonl|csv]`: every event of a batch.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print a batch's events, each with its file (and drive time when the file name carries a start time).",
        discussion: "Exit status: 0 printed, 1 the catalog cannot be opened or read, 2 bad arguments.")

    @Option(help: "sqlite:PATH or postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE.")
    var catalog: String

    @Option(help: "Only events of this type: speed_limit, detection or track.")
    var type: String?

    @Option(help: "Only files matching this shell glob (on the file name; with a /, on the path or its end: day1/*).")
    var file: String?

    @Option(help: "jsonl (one JSON object a line) or csv.")
    var format: String = "jsonl"

    func run() async throws {
        guard let outputFormat = EventQuery.Format(rawValue: format) else {
            printError("--format '\(format)' is not allowed; use jsonl or csv")
            throw ExitCode(2)
        }
        if let type, !EventQuery.types.contains(type) {
            printError("--type '\(type)' is not allowed; use \(EventQuery.types.joined(separator: ", "))")
            throw ExitCode(2)
        }
        let text: String
        do {
            let location = try CatalogLocation(parsing: catalog)
            let opened = try await location.open(create: false)
            do { text = try await EventQuery(type: type, fileGlob: file, format: outputFormat).run(on: opened) } catch {
                await opened.close()
                throw error
            }
            await opened.close()
        } catch {
            printError(error)
            throw ExitCode((error as? CatalogError)?.exitStatus ?? 1)
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
