import Foundation

extension RunReport {
    /// The report as pretty-printed JSON with sorted keys (stable, diffable).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes the report as JSON to `path`.
    public func write(toPath path: String) throws(StatsError) {
        do {
            try jsonData().write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .cannotWrite(path: path, reason: String(describing: error))
        }
    }

    /// How much of an existing file ``isWrittenByStreamLens(start:)`` needs: a report's `run` section (with
    /// `streamlens_version`) comes before its long timeline, as its keys are sorted.
    public static let recognitionLimit = 1 << 20

    /// Whether a file starting with `start` (its first ``recognitionLimit`` bytes, leading white space removed) is a
    /// report StreamLens wrote, which a later run may replace; a user's own JSON file is not.
    public static func isWrittenByStreamLens(start: Substring) -> Bool {
        start.hasPrefix("{") && start.contains("\"streamlens_version\"")
    }

    /// The first ``recognitionLimit`` bytes of the file at `path` as text, or nil when it cannot be opened.
    public static func startOfFile(at path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return String(decoding: (try? handle.read(upToCount: recognitionLimit)) ?? Data(), as: UTF8.self)
    }

    /// Whether a run may write its report over the file at `path`: it cannot be read (judged by the writer), is
    /// empty, or is a report StreamLens wrote. Anything else is the user's and stays as it is.
    public static func mayReplace(fileAt path: String) -> Bool {
        guard let start = startOfFile(at: path) else { return true }
        let trimmed = start.drop { $0.isWhitespace }
        return trimmed.isEmpty || isWrittenByStreamLens(start: trimmed)
    }

    /// Decodes a report from JSON; `path` only names the source in errors.
    public static func decode(_ data: Data, path: String) throws(StatsError) -> RunReport {
        struct VersionProbe: Decodable {
            let schemaVersion: Int?
            enum CodingKeys: String, CodingKey { case schemaVersion = "schema_version" }
        }
        let decoder = JSONDecoder()
        let probe: VersionProbe
        guard !data.isEmpty else { throw .notAReport(path: path, reason: "the file is empty") }
        do {
            probe = try decoder.decode(VersionProbe.self, from: data)
        } catch DecodingError.dataCorrupted {
            throw .notAReport(path: path, reason: "not valid JSON: cut short, or not JSON at all")
        } catch {
            throw .notAReport(path: path, reason: "not a JSON object")
        }
        guard let version = probe.schemaVersion else {
            throw .notAReport(path: path, reason: "no schema_version key")
        }
        guard version == currentSchemaVersion else { throw .unsupportedSchema(path: path, version: version) }
        do {
            return try decoder.decode(RunReport.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .notAReport(path: path, reason: "missing key '\(Self.keyPath(context.codingPath + [key]))'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .notAReport(path: path, reason: "wrong type at '\(Self.keyPath(context.codingPath))'")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .notAReport(path: path, reason: "null at '\(Self.keyPath(context.codingPath))'")
        } catch {
            throw .notAReport(path: path, reason: "malformed JSON")
        }
    }

    /// Reads and decodes the report file at `path`.
    public static func read(fromPath path: String) throws(StatsError) -> RunReport {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            let reason =
                !exists ? "no such file"
                : isFolder.boolValue ? "it is a folder; pass a file written by --report" : "the file is not readable"
            throw .cannotRead(path: path, reason: reason)
        }
        return try decode(data, path: path)
    }

    private static func keyPath(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
