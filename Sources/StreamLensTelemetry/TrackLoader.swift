import Foundation

/// Reads a GPS track from a file, whatever its format: an MP4/MOV's GoPro GPMF track, GPX, NMEA 0183 or CSV —
/// told apart by content, not by name.
public enum TrackLoader {
    /// What a video file said about time, for aligning a separate track by UTC.
    public struct VideoClock: Sendable, Equatable {
        public var startUTC: Double?
        public var duration: Double?

        public init(startUTC: Double?, duration: Double?) {
            self.startUTC = startUTC
            self.duration = duration
        }
    }

    /// The GPMF track inside a video, nil when it has none (or is no MP4/MOV), and the video's clock.
    public static func embedded(inVideo path: String) throws(TelemetryError) -> (track: GPSTrack?, clock: VideoClock) {
        let found = try GPMFReader.track(inVideo: path)
        let track = found.track.flatMap { $0.fixes.isEmpty ? nil : $0 }
        return (track, VideoClock(startUTC: found.start, duration: found.duration))
    }

    /// The track in `path`. Throws when the file cannot be read, is of no known format, or holds no fix.
    public static func load(path: String) throws(TelemetryError) -> GPSTrack {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .cannotRead(path: path, reason: "no such file")
        }
        guard MP4File.isRegularFile(path) else { throw .cannotRead(path: path, reason: "it is not a regular file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotRead(path: path, reason: "it cannot be opened")
        }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        try? handle.close()
        let headBytes = [UInt8](head)
        if headBytes.count >= 8, let type = headBytes.fourCC(at: 4), ["ftyp", "moov", "mdat", "free", "wide"].contains(type) {
            guard let track = try embedded(inVideo: path).track else { throw .noFixes(path: path, format: "MP4/MOV without a GPMF GPS track") }
            return try usable(track, path: path)
        }
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            guard let latin = try? String(contentsOfFile: path, encoding: .isoLatin1) else {
                throw .cannotRead(path: path, reason: error.localizedDescription)
            }
            text = latin
        }
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if start.hasPrefix("<") {
            return try usable(GPXReader.track(from: text, path: path), path: path)
        }
        if start.hasPrefix("$") || start.hasPrefix("!") {
            return try usable(NMEAReader.track(from: text), path: path)
        }
        let csv = CSVTrackReader.track(from: text)
        guard !csv.fixes.isEmpty else { throw .unknownFormat(path: path) }
        return try usable(csv, path: path)
    }

    private static func usable(_ track: GPSTrack, path: String) throws(TelemetryError) -> GPSTrack {
        guard !track.usableFixes.isEmpty else { throw .noFixes(path: path, format: track.source.rawValue) }
        return track
    }
}
