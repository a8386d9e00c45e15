/// Position and speed at any stream time, from an aligned track's fixes — interpolated between fixes, smoothed
/// against jitter, held briefly through dropouts and then unknown (never invented).
///
/// How the fixes become a timeline:
/// 1. Fixes without a position fix (GPSF < 2, RMC `V`, GGA quality 0) or without a stream time are dropped; the rest
///    are ordered by time (a repeated time keeps its first fix).
/// 2. Fixes more than ``Configuration/maximumGap`` apart split the track into segments: a dropout (a tunnel).
/// 3. Smoothing: each fix's latitude, longitude and receiver speed become the mean over the fixes of its segment
///    within ±``Configuration/smoothingWindow``/2 of it (a centred moving average: no lag; at 1 Hz and a 1 s window a
///    fix keeps its own values).
/// 4. Speed: the receiver's own (smoothed) when at least half the fixes carry one; otherwise, and for any fix
///    without one, the chord over ±``Configuration/speedWindow``/2: the straight distance between the first and last
///    fix of its segment in that window divided by their time apart (a 2 s chord cuts the metre of jitter between
///    neighbouring fixes to a few percent of the speed); where fixes are sparser than that, the chord between the
///    fix's neighbours in its segment.
/// 5. A time between two fixes of a segment is interpolated linearly (position and speed); a time after a segment's
///    last fix holds that fix for ``Configuration/hold``, then is unknown until the next segment; a time before the
///    first fix is unknown.
public struct TrackTimeline: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Fixes further apart than this are a dropout, not interpolated across (a logger that records a point only
        /// when the heading changes leaves up to about 10 s between points on a straight road).
        public var maximumGap = 10.0
        /// How long the last position is held after a dropout starts.
        public var hold = 2.0
        /// Width of the centred moving average, seconds.
        public var smoothingWindow = 1.0
        /// Width of the chord a speed is derived over when the receiver gave none, seconds.
        public var speedWindow = 2.0

        public init() {}
    }

    /// One point of the timeline: a smoothed fix.
    public struct Point: Sendable, Equatable {
        public var time: Double
        public var latitude: Double
        public var longitude: Double
        public var altitude: Double?
        /// Metres per second; nil when neither the receiver nor the positions give one (a lone fix).
        public var speed: Double?
        /// Index of its segment (fixes between dropouts).
        public var segment: Int
    }

    /// Where the vehicle was at one time.
    public struct Sample: Sendable, Equatable {
        public enum State: String, Sendable, Equatable {
            /// At a fix.
            case measured
            /// Between two fixes of a segment.
            case interpolated
            /// After a segment's last fix, within the hold time.
            case held
        }

        public var latitude: Double
        public var longitude: Double
        /// Metres per second, nil when unknown.
        public var speed: Double?
        public var state: State
    }

    public let configuration: Configuration
    /// The smoothed fixes, in time order.
    public let points: [Point]
    /// Whether speeds are the receiver's (else derived from positions).
    public let speedFromReceiver: Bool

    public init(track: GPSTrack, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var fixes = track.fixes.filter { $0.hasFix && $0.time != nil }.sorted { $0.time! < $1.time! }
        fixes = fixes.enumerated().filter { index, fix in index == 0 || fix.time! > fixes[index - 1].time! }.map(\.1)
        var segments: [Int] = []
        var segment = 0
        for index in fixes.indices {
            if index > 0, fixes[index].time! - fixes[index - 1].time! > configuration.maximumGap { segment += 1 }
            segments.append(segment)
        }
        let withSpeed = fixes.filter { $0.speed != nil }.count
        speedFromReceiver = !fixes.isEmpty && withSpeed * 2 >= fixes.count
        points = Self.smooth(fixes, segments: segments, configuration: configuration, receiverSpeed: speedFromReceiver)
    }

    private static func smooth(
        _ fixes: [GeoFix], segments: [Int], configuration: Configuration, receiverSpeed: Bool
    ) -> [Point] {
        let times = fixes.map { $0.time! }
        func window(around index: Int, width: Double) -> ClosedRange<Int> {
            var low = index
            var high = index
            while low > 0, segments[low - 1] == segments[index], times[index] - times[low - 1] <= width / 2 + 1e-9 {
                low -= 1
            }
            while high + 1 < fixes.count, segments[high + 1] == segments[index],
                times[high + 1] - times[index] <= width / 2 + 1e-9
            {
                high += 1
            }
            return low...high
        }
        return fixes.indices.map { index in
            let range = window(around: index, width: configuration.smoothingWindow)
            let count = Double(range.count)
            let latitude = range.reduce(0) { $0 + fixes[$1].latitude } / count
            let longitude = range.reduce(0) { $0 + fixes[$1].longitude } / count
            var speed: Double?
            let speeds = range.compactMap { fixes[$0].speed }
            if receiverSpeed, fixes[index].speed != nil, !speeds.isEmpty {
                speed = speeds.reduce(0, +) / Double(speeds.count)
            } else {
                var chord = window(around: index, width: configuration.speedWindow)
                // Fixes sparser than the window: the chord between the neighbouring fixes of the segment.
                if chord.count == 1 {
                    let low = index > 0 && segments[index - 1] == segments[index] ? index - 1 : index
                    let high = index + 1 < fixes.count && segments[index + 1] == segments[index] ? index + 1 : index
                    chord = low...high
                }
                let first = fixes[chord.lowerBound]
                let last = fixes[chord.upperBound]
                let elapsed = times[chord.upperBound] - times[chord.lowerBound]
                if elapsed > 0 {
                    speed = Geodesy.distance(
                        latitude1: first.latitude, longitude1: first.longitude, latitude2: last.latitude,
                        longitude2: last.longitude) / elapsed
                }
            }
            return Point(
                time: times[index], latitude: latitude, longitude: longitude, altitude: fixes[index].altitude,
                speed: speed, segment: segments[index])
        }
    }

    /// Position and speed at stream time `time`, or nil when unknown (before the first fix, or in a dropout past the
    /// hold time).
    public func sample(at time: Double) -> Sample? {
        guard let first = points.first, time >= first.time else { return nil }
        // The last point at or before `time`.
        var low = 0
        var high = points.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if points[middle].time <= time { low = middle } else { high = middle - 1 }
        }
        let before = points[low]
        if before.time == time {
            return Sample(latitude: before.latitude, longitude: before.longitude, speed: before.speed, state: .measured)
        }
        if low + 1 < points.count, points[low + 1].segment == before.segment {
            let after = points[low + 1]
            let fraction = (time - before.time) / (after.time - before.time)
            func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * fraction }
            let speed: Double? =
                if let a = before.speed, let b = after.speed { mix(a, b) } else { before.speed ?? after.speed }
            return Sample(
                latitude: mix(before.latitude, after.latitude), longitude: mix(before.longitude, after.longitude),
                speed: speed, state: .interpolated)
        }
        guard time - before.time <= configuration.hold else { return nil }
        return Sample(latitude: before.latitude, longitude: before.longitude, speed: before.speed, state: .held)
    }

    /// Stream time of the last moment the timeline knows a position (the last fix plus the hold), nil when empty.
    public var end: Double? { points.last.map { $0.time + configuration.hold } }
}
