/// The fixes of one recording, in the order the source gave them, and what they came from.
public struct GPSTrack: Sendable, Equatable {
    /// Which reader produced the track.
    public enum Source: String, Sendable, Equatable {
        /// A GoPro GPMF metadata track (GPS5, GPS9 or a Karma's GPRI) inside the video file itself.
        case gpmf
        case gpx
        case nmea
        case csv
    }

    public var source: Source
    public var fixes: [GeoFix]
    /// Lines or records the reader skipped as unreadable (an NMEA sentence with a bad checksum, a CSV row that is not
    /// numbers).
    public var skipped: Int

    public init(source: Source, fixes: [GeoFix], skipped: Int = 0) {
        self.source = source
        self.fixes = fixes
        self.skipped = skipped
    }

    /// The fixes that have a position fix (GPSF ≥ 2, or none said).
    public var usableFixes: [GeoFix] { fixes.filter(\.hasFix) }
}

extension GPSTrack {
    /// How a track was put on the video's timeline.
    public enum Alignment: Sendable, Equatable {
        /// The fixes carried stream times already (GPMF in the video file).
        case streamTime
        /// By UTC: the video's creation time (MP4 `mvhd`) is stream time 0, plus the offset.
        case utc(videoStart: Double)
        /// The first fix is stream time 0, plus the offset (no shared clock).
        case firstFix
    }

    /// Gives every fix a stream time: GPMF fixes keep theirs (plus `offset`), others are placed by UTC when the video's
    /// start time is known and the track overlaps the video, else from their first fix; `offset` seconds are added
    /// to every fix's stream time (`--gps-offset`: positive moves the track later on the video). Fixes with neither time
    /// are dropped. Returns the aligned track and how it was aligned.
    public func aligned(
        videoStartUTC: Double?, videoDuration: Double?, offset: Double
    ) -> (track: GPSTrack, alignment: Alignment) {
        if fixes.allSatisfy({ $0.time != nil }) {
            var track = self
            for index in track.fixes.indices { track.fixes[index].time! += offset }
            return (track, .streamTime)
        }
        let dated = fixes.filter { $0.utc != nil }
        guard let first = dated.first?.utc else { return (GPSTrack(source: source, fixes: [], skipped: skipped), .firstFix) }
        var origin = first
        var alignment = Alignment.firstFix
        if let videoStartUTC, let last = dated.last?.utc {
            let videoEnd = videoStartUTC + (videoDuration ?? 0)
            if last >= videoStartUTC, first <= videoEnd {
                origin = videoStartUTC
                alignment = .utc(videoStart: videoStartUTC)
            }
        }
        var track = GPSTrack(source: source, fixes: [], skipped: skipped)
        track.fixes = dated.map { fix in
            var placed = fix
            placed.time = fix.utc! - origin + offset
            return placed
        }
        return (track, alignment)
    }
}
