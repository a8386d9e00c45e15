/// Errors of the statistics layer: writing timelines and reports, reading report files, serving metrics.
public enum StatsError: Error, Sendable, CustomStringConvertible {
    /// A file could not be created or written.
    case cannotWrite(path: String, reason: String)
    /// A report file could not be read.
    case cannotRead(path: String, reason: String)
    /// A file is not a StreamLens report (not JSON, or keys missing).
    case notAReport(path: String, reason: String)
    /// A report written by a newer or older StreamLens with a schema this one does not know.
    case unsupportedSchema(path: String, version: Int)
    /// The metrics endpoint could not listen.
    case metricsUnavailable(port: Int, reason: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason):
            "cannot write '\(path)': \(reason); check that the folder exists and is writable"
        case .cannotRead(let path, let reason):
            "cannot read report '\(path)': \(reason)"
        case .notAReport(let path, let reason):
            "'\(path)' is not a StreamLens run report (\(reason)); pass a file written by --report"
        case .unsupportedSchema(let path, let version):
            "report '\(path)' has schema_version \(version), this streamlens reads version \(RunReport.currentSchemaVersion); use the streamlens that wrote it"
        case .metricsUnavailable(let port, let reason):
            "cannot serve metrics on port \(port): \(reason); pick another port (--metrics-port; streamlensstats: metrics-port=)"
        }
    }
}
