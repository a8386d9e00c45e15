/// What a drive's map holds: the track, the signs passed and the speeding stretches — the input of the GeoJSON and
/// GPX writers.
public struct MapFeatures: Sendable, Equatable {
    /// A sign passed, where and when.
    public struct Sign: Sendable, Equatable {
        public var value: Int
        public var unit: String
        /// Stream time of its first and last sighting (it is placed at the last).
        public var start: Double
        public var end: Double
        public var position: GeoPosition

        public init(value: Int, unit: String, start: Double, end: Double, position: GeoPosition) {
            self.value = value
            self.unit = unit
            self.start = start
            self.end = end
            self.position = position
        }
    }

    /// The track's smoothed points.
    public var track: [TrackTimeline.Point]
    public var signs: [Sign]
    public var speeding: [SpeedingStretch]
    /// UTC (seconds since 1970) of stream time 0, when the track carried UTC: GPX times are then written.
    public var utcOfStreamZero: Double?

    public init(
        track: [TrackTimeline.Point], signs: [Sign], speeding: [SpeedingStretch], utcOfStreamZero: Double? = nil
    ) {
        self.track = track
        self.signs = signs
        self.speeding = speeding
        self.utcOfStreamZero = utcOfStreamZero
    }

    /// The track split at its dropouts.
    var segments: [[TrackTimeline.Point]] {
        var result: [[TrackTimeline.Point]] = []
        for point in track {
            if let last = result.last?.last, last.segment == point.segment { result[result.count - 1].append(point) }
            else { result.append([point]) }
        }
        return result
    }
}

extension GPSTrack {
    /// UTC of stream time 0, from the first aligned fix that has both times.
    public var utcOfStreamZero: Double? {
        fixes.first { $0.utc != nil && $0.time != nil }.map { $0.utc! - $0.time! }
    }
}
