import Foundation

/// The batch's summary, written when a batch ends: `DIR/batch-summary.json` and `DIR/batch-summary.html` (files,
/// status, frames, drops, events per file, throughput). Built from the catalog, so it covers every file of the batch
/// whichever worker or machine did it.
public struct BatchSummary: Codable, Sendable {
    public struct File: Codable, Sendable {
        public var path: String
        public var output: String
        public var status: FileStatus
        public var error: String?
        public var frames: Int?
        public var dropped: Int?
        public var events: Int
        public var seconds: Double?
        public var framesPerSecond: Double?
        public var attempts: Int
    }

    public var catalog: String
    public var files: [File]
    public var counts: StatusCounts
    public var frames: Int
    public var events: Int
    /// Wall-clock seconds of the run that wrote the summary.
    public var wallSeconds: Double
    /// Files finished per minute and frames per second over that wall time (files done in this run only).
    public var filesPerMinute: Double
    public var framesPerSecond: Double

    public init(catalog: String, files catalogFiles: [CatalogFile], finishedThisRun: Int, framesThisRun: Int, wallSeconds: Double) {
        self.catalog = catalog
        files = catalogFiles.map { file in
            File(
                path: file.path, output: file.outputName, status: file.status, error: file.error, frames: file.frames,
                dropped: file.dropped, events: file.events, seconds: file.seconds,
                framesPerSecond: file.seconds.flatMap { seconds in file.frames.map { Double($0) / max(seconds, 1e-9) } },
                attempts: file.attempts)
        }
        counts = StatusCounts(catalogFiles)
        frames = catalogFiles.compactMap(\.frames).reduce(0, +)
        events = catalogFiles.map(\.events).reduce(0, +)
        self.wallSeconds = wallSeconds
        filesPerMinute = wallSeconds > 0 ? Double(finishedThisRun) / wallSeconds * 60 : 0
        framesPerSecond = wallSeconds > 0 ? Double(framesThisRun) / wallSeconds : 0
    }

    /// Writes the JSON and the HTML page into `folder` (each written whole under a temporary name, then renamed).
    public func write(to folder: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        try Self.replace((folder as NSString).appendingPathComponent("batch-summary.json"), with: try encoder.encode(self))
        try Self.replace((folder as NSString).appendingPathComponent("batch-summary.html"), with: Data(html.utf8))
    }

    private static func replace(_ path: String, with data: Data) throws {
        let temporary = path + ".partial-\(getpid())"
        do { try data.write(to: URL(fileURLWithPath: temporary)) } catch {
            // A full disk leaves the file begun: nothing half-written stays behind.
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    var html: String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        let rows = files.map { file in
            let fps = file.framesPerSecond.map { String(format: "%.1f", $0) } ?? ""
            let seconds = file.seconds.map { String(format: "%.1f", $0) } ?? ""
            // A link is a URL: `cam#1 50%.report.json` must be percent-encoded, or the browser reads a fragment.
            let link = (file.output + ".report.json").addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["#", "?", "%"]))
            let report = file.status == .done ? "<a href=\"\(escape(link ?? file.output))\">report</a>" : ""
            return """
                <tr class="\(file.status.rawValue)"><td>\(escape(file.output))</td><td>\(file.status.rawValue)</td>\
                <td class="n">\(file.frames.map(String.init) ?? "")</td><td class="n">\(file.dropped.map(String.init) ?? "")</td>\
                <td class="n">\(file.events)</td><td class="n">\(seconds)</td><td class="n">\(fps)</td>\
                <td>\(report)</td><td>\(escape(file.error ?? ""))</td></tr>
                """
        }.joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>StreamLens batch</title>
            <style>
            body { font: 14px system-ui, sans-serif; margin: 2em; }
            table { border-collapse: collapse; } td, th { padding: 3px 10px; border-bottom: 1px solid #ddd; text-align: left; }
            td.n { text-align: right; font-variant-numeric: tabular-nums; }
            tr.failed td { background: #fde8e8; } tr.pending td, tr.running td { color: #888; }
            </style></head><body>
            <h1>StreamLens batch</h1>
            <p>Catalog \(escape(catalog)): \(counts.done) done, \(counts.failed) failed, \(counts.pending) pending, \
            \(counts.running) running of \(counts.total) files · \(frames) frames · \(events) events.</p>
            <p>This run: \(String(format: "%.1f", wallSeconds)) s, \(String(format: "%.1f", filesPerMinute)) files/min, \
            \(String(format: "%.0f", framesPerSecond)) frames/s.</p>
            <table><tr><th>File</th><th>Status</th><th>Frames</th><th>Dropped</th><th>Events</th><th>Seconds</th>\
            <th>Frames/s</th><th></th><th>Error</th></tr>
            \(rows)
            </table></body></html>

            """
    }
}
