import Foundation

/// `streamlens events`: the catalog's events, filtered by type and file, as JSON lines or CSV. Each event gets the
/// `file` it came from and, when the file's name carries its start time (dashcams name files like
/// `20240501_093012.mp4` or `2024-05-01_09-30-12.mp4`), the `drive_time` of the event: start time + event start,
/// as the camera's local time (no zone: the name has none).
public struct EventQuery: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case jsonl, csv
    }

    public var type: String?
    /// A shell glob matched against the file's path (its end, for a glob that does not start with `/`), or its name
    /// when the glob has no `/`.
    public var fileGlob: String?
    public var format: Format

    public init(type: String?, fileGlob: String?, format: Format) {
        self.type = type
        self.fileGlob = fileGlob
        self.format = format
    }

    public static let types = ["speed_limit", "detection", "track"]

    /// Runs the query and returns the output text.
    public func run(on catalog: any BatchCatalog) async throws(CatalogError) -> String {
        let events = try await catalog.events(type: type).filter { matches($0.file) }
        var startTimes: [String: Date?] = [:]
        func startTime(_ file: String) -> Date? {
            if let known = startTimes[file] { return known }
            let parsed = Self.startTime(fromFileName: (file as NSString).lastPathComponent)
            startTimes[file] = parsed
            return parsed
        }
        switch format {
        case .jsonl:
            return events.map { event in
                var prefix = "{"
                if let driveTime = driveTime(event, start: startTime(event.file)) {
                    prefix += "\"drive_time\":\(Self.jsonString(driveTime)),"
                }
                prefix += "\"file\":\(Self.jsonString(event.file)),"
                return prefix + event.json.dropFirst() + "\n"
            }.joined()
        case .csv:
            var lines = [Self.csvColumns.joined(separator: ",")]
            for event in events {
                let object = (try? JSONSerialization.jsonObject(with: Data(event.json.utf8)) as? [String: Any]) ?? [:]
                var fields = [event.file, driveTime(event, start: startTime(event.file)) ?? ""]
                for column in Self.csvColumns.dropFirst(2) { fields.append(Self.csvText(object[column])) }
                lines.append(fields.map(Self.csvEscape).joined(separator: ","))
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    static let csvColumns = [
        "file", "drive_time", "type", "stage", "start", "end", "class", "class_id", "track_id", "confidence", "value",
        "unit", "box", "reads", "observations", "reason",
    ]

    func matches(_ file: String) -> Bool {
        guard let fileGlob else { return true }
        guard fileGlob.contains("/") else { return fnmatch(fileGlob, (file as NSString).lastPathComponent, 0) == 0 }
        // A relative glob (`day1/*`) matches the end of the recorded absolute path.
        return fnmatch(fileGlob, file, 0) == 0 || (!fileGlob.hasPrefix("/") && fnmatch("*/" + fileGlob, file, 0) == 0)
    }

    private func driveTime(_ event: CatalogEvent, start: Date?) -> String? {
        guard let start,
            let object = try? JSONSerialization.jsonObject(with: Data(event.json.utf8)) as? [String: Any],
            let offset = (object["start"] as? NSNumber)?.doubleValue
        else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS"
        return formatter.string(from: start.addingTimeInterval(offset))
    }

    /// The start time in a dashcam file name: `YYYYMMDD?HHMMSS` or `YYYY-MM-DD?HH-MM-SS` (any one separator
    /// between date and time; `-`, `_` or `.` inside the time), read as UTC so that the local wall time is kept.
    static func startTime(fromFileName name: String) -> Date? {
        let pattern = #"(\d{4})-?(\d{2})-?(\d{2})[_T\- ]?(\d{2})[-_.:]?(\d{2})[-_.:]?(\d{2})"#
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: name, range: NSRange(name.startIndex..., in: name))
        else { return nil }
        let numbers = (1...6).compactMap { index in
            Range(match.range(at: index), in: name).flatMap { Int(name[$0]) }
        }
        guard numbers.count == 6, (1970...2100).contains(numbers[0]), (1...12).contains(numbers[1]),
            (1...31).contains(numbers[2]), numbers[3] < 24, numbers[4] < 60, numbers[5] < 60
        else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (numbers[0], numbers[1], numbers[2])
        (components.hour, components.minute, components.second) = (numbers[3], numbers[4], numbers[5])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // A day the month does not have (20240230) rolled over into the next month: such a name carries no time.
        guard let date = calendar.date(from: components) else { return nil }
        let read = calendar.dateComponents([.year, .month, .day], from: date)
        guard (read.year, read.month, read.day) == (numbers[0], numbers[1], numbers[2]) else { return nil }
        return date
    }

    private static func jsonString(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
            .replacingOccurrences(of: "\\/", with: "/")
    }

    private static func csvText(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: ""
        case let array as [Any]: array.map { "\($0)" }.joined(separator: " ")
        case let number as NSNumber: number.stringValue
        case let text as String: text
        default: "\(value!)"
        }
    }

    private static func csvEscape(_ field: String) -> String {
        field.contains(where: { ",\"\n".contains($0) }) ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}
