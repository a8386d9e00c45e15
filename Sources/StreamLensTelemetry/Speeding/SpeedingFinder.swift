/// Stretches of driving above the speed limit read from the signs.
///
/// The limit in force at a time is the value of the last sign passed (a `speed_limit` event's `end`: its last,
/// nearest sighting) for as long as the sign reader shows it (its expiry, 180 s by default), until the next sign.
/// The speed is the ``TrackTimeline``'s. Both are looked at every ``Rule/step`` seconds of stream time (multiples of
/// the step): a look is *over* when the speed, in the limit's unit, exceeds the limit plus the tolerance —
/// max(``Rule/toleranceFraction`` × limit, ``Rule/toleranceFloorKmh`` km/h). A stretch is a run of looks that are over
/// under one limit; it ends at the first look that is not over, whose speed is unknown, or whose limit differs. A
/// stretch whose last look is at least ``Rule/minimumDuration`` after its first is speeding.
public enum SpeedingFinder {
    public struct Rule: Sendable, Equatable {
        public var toleranceFraction = 0.05
        public var toleranceFloorKmh = 3.0
        public var minimumDuration = 3.0
        public var step = 0.1

        public init() {}

        /// The tolerance above `limit` (in `unit`), in the same unit.
        public func tolerance(limit: Double, unit: String) -> Double {
            let floor = unit == "mph" ? toleranceFloorKmh / 1.609344 : toleranceFloorKmh
            return max(toleranceFraction * limit, floor)
        }
    }

    /// A sign passed: its value from `time` on.
    public struct Limit: Sendable, Equatable {
        public var value: Int
        public var unit: String
        public var time: Double

        public init(value: Int, unit: String, time: Double) {
            self.value = value
            self.unit = unit
            self.time = time
        }
    }

    /// The limit in force at `time`, if any.
    static func limit(at time: Double, in limits: [Limit], expiry: Double) -> Limit? {
        guard let last = limits.last(where: { $0.time <= time }), time - last.time <= expiry else { return nil }
        return last
    }

    /// The speeding stretches of a drive, in time order. `limits` need not be sorted; `until` bounds the looks (the
    /// end of the video), else the timeline's end.
    public static func stretches(
        timeline: TrackTimeline, limits: [Limit], expiry: Double, rule: Rule = Rule(), until: Double? = nil
    ) -> [SpeedingStretch] {
        let limits = limits.sorted { $0.time < $1.time }
        guard let firstLimit = limits.first, let timelineEnd = timeline.end else { return [] }
        let end = min(until ?? timelineEnd, timelineEnd)
        var stretches: [SpeedingStretch] = []
        var current: SpeedingStretch?
        func close() {
            if let stretch = current, stretch.end - stretch.start >= rule.minimumDuration - 1e-9 { stretches.append(stretch) }
            current = nil
        }
        var index = Int((firstLimit.time / rule.step).rounded(.up))
        while Double(index) * rule.step <= end + 1e-9 {
            let time = (Double(index) * rule.step * 1e6).rounded() / 1e6
            index += 1
            guard let limit = limit(at: time, in: limits, expiry: expiry), let sample = timeline.sample(at: time),
                let metresPerSecond = sample.speed
            else {
                close()
                continue
            }
            let speed = Geodesy.speed(metresPerSecond, in: limit.unit)
            let excess = speed - Double(limit.value)
            guard excess > rule.tolerance(limit: Double(limit.value), unit: limit.unit) else {
                close()
                continue
            }
            if let open = current, open.limit != limit.value || open.limitTime != limit.time { _ = open; close() }
            let position = GeoPosition(latitude: sample.latitude, longitude: sample.longitude)
            if current == nil {
                current = SpeedingStretch(
                    start: time, end: time, limit: limit.value, unit: limit.unit, limitTime: limit.time, maxSpeed: speed,
                    excesses: [excess], path: [position])
            } else {
                current!.end = time
                current!.maxSpeed = max(current!.maxSpeed, speed)
                current!.excesses.append(excess)
                current!.path.append(position)
            }
        }
        close()
        return stretches
    }
}

/// One stretch of speeding: when, under which limit, by how much, and where (every look's position).
public struct SpeedingStretch: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var limit: Int
    public var unit: String
    /// When the sign of ``limit`` was passed.
    public var limitTime: Double
    /// Highest speed, in ``unit``.
    public var maxSpeed: Double
    /// Speed minus limit at each look, in ``unit``.
    public var excesses: [Double]
    /// The position at each look.
    public var path: [GeoPosition]

    public var maxExcess: Double { excesses.max() ?? 0 }
    public var meanExcess: Double { excesses.isEmpty ? 0 : excesses.reduce(0, +) / Double(excesses.count) }

    /// The event-log line: `{"type":"speeding","start":…,"end":…,"limit":60,"unit":"km/h","max_speed":…,
    /// "max_excess":…,"mean_excess":…,"position":{…},"end_position":{…}}`.
    public var event: SpeedingEvent {
        SpeedingEvent(
            start: start, end: end, limit: limit, unit: unit, maxSpeed: maxSpeed, maxExcess: maxExcess,
            meanExcess: meanExcess, position: path.first, endPosition: path.last)
    }
}
