import ArgumentParser
import Foundation
import StreamLens
import StreamLensBatch

/// `streamlens events --catalog URL [--type …] [--file GLOB] [--format jsonl|csv]`: every event of a batch;
/// `--geojson FILE` writes the map of every sign passed instead (docs/guides/gps.md).
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

    @Option(help: ArgumentHelp(
        "Write one GeoJSON map of every speed-limit sign passed (a sign of one value seen again within \(Int(SignMap.mergeDistance)) m is one point with a count) to this file, instead of printing events.",
        valueName: "file"))
    var geojson: String?

    func run() async throws {
        guard let outputFormat = EventQuery.Format(rawValue: format) else {
            printError("--format '\(format)' is not allowed; use jsonl or csv")
            throw ExitCode(2)
        }
        if let type, !EventQuery.types.contains(type) {
            printError("--type '\(type)' is not allowed; use \(EventQuery.types.joined(separator: ", "))")
            throw ExitCode(2)
        }
        if geojson != nil, type != nil {
            printError("--geojson maps the speed_limit signs; leave out --type")
            throw ExitCode(2)
        }
        var text = ""
        var map: SignMap?
        do {
            let location = try CatalogLocation(parsing: catalog)
            let opened = try await location.open(create: false)
            let query = EventQuery(type: type, fileGlob: file, format: outputFormat)
            do {
                if geojson != nil { map = try await query.signMap(on: opened) } else { text = try await query.run(on: opened) }
            } catch {
                await opened.close()
                throw error
            }
            await opened.close()
        } catch {
            printError(error)
            throw ExitCode((error as? CatalogError)?.exitStatus ?? 1)
        }
        if let geojson, let map {
            do { try map.geoJSON().write(to: URL(fileURLWithPath: geojson), options: .atomic) } catch {
                printError(
                    "cannot write the sign map to '\(geojson)': \(error.localizedDescription); check that the folder "
                        + "exists and is writable")
                throw ExitCode(1)
            }
            let sightings = map.signs.reduce(0) { $0 + $1.count }
            text = "\(map.signs.count) sign(s) from \(sightings) sighting(s) in "
                + "\(Set(map.signs.flatMap(\.files)).count) file(s) written to \(geojson)\n"
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
