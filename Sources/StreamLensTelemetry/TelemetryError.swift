/// Why telemetry could not be read. Each says what failed, where, and what to do.
public enum TelemetryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case cannotRead(path: String, reason: String)
    /// The file is not a GPX, NMEA or CSV track, nor an MP4/MOV with a GPMF track.
    case unknownFormat(path: String)
    /// The file was read but holds no position fix.
    case noFixes(path: String, format: String)
    /// An MP4/MOV structure is broken (a box runs past its parent, a sample table is inconsistent).
    case malformedContainer(path: String, detail: String)
    /// A GPMF payload is broken (a KLV runs past its payload).
    case malformedGPMF(detail: String)
    /// An export file could not be written.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason):
            "cannot read GPS telemetry from '\(path)': \(reason); check the path and its permissions"
        case .unknownFormat(let path):
            "'\(path)' is not a GPS track StreamLens reads; give a GPX, NMEA 0183 or CSV (time,lat,lon[,speed]) file, "
                + "or an MP4/MOV with a GoPro GPMF track"
        case .noFixes(let path, let format):
            "'\(path)' (\(format)) holds no GPS position fix; check that the receiver had a fix, or run with --gps off"
        case .malformedContainer(let path, let detail):
            "'\(path)' has a broken MP4/MOV structure (\(detail)); the GPS track cannot be read: run with --gps off"
        case .malformedGPMF(let detail):
            "a GPMF payload is broken (\(detail)); run with --gps off or give the track as a file"
        case .cannotWrite(let path, let reason):
            "cannot write '\(path)': \(reason); check that the folder exists, is writable and has room"
        }
    }
}
