import StreamLensOptions

/// Where a run's GPS track comes from (`--gps`, `source.gps`), how it lines up with the video (`--gps-offset`,
/// `source.gps_offset`) and the maps it writes (`--export KIND=FILE`).
public struct TelemetrySettings: Sendable, Equatable {
    /// `auto`: the input's own GoPro GPMF track, if it has one. `off`: none. A file: a GPX, NMEA, CSV or GoPro file.
    public enum Source: Sendable, Equatable {
        case auto
        case off
        case file(String)

        public init(parsing text: String) {
            switch text {
            case "auto": self = .auto
            case "off": self = .off
            default: self = .file(text)
            }
        }
    }

    /// One map to write.
    public struct Export: Sendable, Equatable {
        public var kind: String
        public var path: String

        public init(kind: String, path: String) {
            self.kind = kind
            self.path = path
        }
    }

    public var source = Source.auto
    /// Seconds added to the track's times.
    public var offset = 0.0
    public var exports: [Export] = []
    /// Where a pipeline file named the track, for its errors; nil when a flag did.
    public var sourceSetIn: ConfigLocation?

    public init() {}

    /// `--export` values: `KIND=FILE` tokens, or `KIND FILE` pairs; the kinds are checked.
    public static func exports(parsing tokens: [String]) throws(RunError) -> [Export] {
        var exports: [Export] = []
        var pendingKind: String?
        for token in tokens {
            if let kind = pendingKind {
                exports.append(Export(kind: kind, path: token))
                pendingKind = nil
            } else if let equals = token.firstIndex(of: "=") {
                exports.append(Export(kind: String(token[..<equals]), path: String(token[token.index(after: equals)...])))
            } else {
                pendingKind = token
            }
        }
        if let pendingKind {
            throw .invalidConfiguration(file: nil, key: "--export", problem: "'\(pendingKind)' names no file; give KIND=FILE")
        }
        for export in exports {
            guard OptionSchema.exportKinds.contains(export.kind) else {
                throw .invalidConfiguration(
                    file: nil, key: "--export",
                    problem: "unknown kind '\(export.kind)'; use one of: \(OptionSchema.exportKinds.joined(separator: ", "))")
            }
            guard !export.path.isEmpty else {
                throw .invalidConfiguration(file: nil, key: "--export", problem: "\(export.kind) names no file; give KIND=FILE")
            }
        }
        return exports
    }
}

extension TelemetrySettings {
    /// `source.gps` and `source.gps_offset` of a pipeline file.
    static func read(_ source: ConfigSection, into configuration: inout RunConfiguration) throws(RunError) {
        typealias O = OptionSchema
        if let gps = try source.string(O.gps) {
            configuration.telemetry.source = Source(parsing: gps)
            configuration.telemetry.sourceSetIn = ConfigLocation(file: source.file, key: source.fullKey("gps"))
        }
        configuration.telemetry.offset = try source.double(O.gpsOffset) ?? configuration.telemetry.offset
    }
}
