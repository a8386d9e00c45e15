/// The drive over one video as the run's report draws it: the vehicle's position and speed looked at every ``step``
/// seconds of stream time, each look classed against the limit in force the way ``SpeedingFinder`` does; the limit's
/// steps; the signs passed and the speeding stretches.
///
/// A look's ``Standing``: *under* at or below the limit, *within* above it by at most the tolerance, *over* beyond
/// the tolerance (what a speeding stretch is made of), *noLimit* when no sign is in force, *unknown* when the speed
/// is. Looks run from the first multiple of ``step`` at or after the video's start to its end; times the timeline
/// knows no position for are left out (a dropout is a gap in the plot, never a line across it). ``step`` is the
/// finder's 0.1 s, widened to a multiple of it so that a video has at most ``maximumLooks`` looks.
public struct DriveProfile: Sendable, Equatable {
    public enum Standing: String, Sendable, Equatable, CaseIterable {
        case under, within, over
        case noLimit = "no-limit"
        case unknown
    }

    /// One look at the drive.
    public struct Look: Sendable, Equatable {
        public var time: Double
        public var latitude: Double
        public var longitude: Double
        /// Speed in ``DriveProfile/unit``, nil when unknown.
        public var speed: Double?
        /// The limit in force, nil when none.
        public var limit: Int?
        public var standing: Standing
    }

    /// One value of the limit, in force from `from` to `to` (the next sign, its expiry or the video's end).
    public struct LimitStep: Sendable, Equatable {
        public var value: Int
        public var from: Double
        public var to: Double
    }

    /// The most looks one video gets; a longer video is looked at less often.
    public static let maximumLooks = 3000

    /// The limits' unit (the first sign's), km/h when no sign was read.
    public var unit: String
    /// Seconds between looks.
    public var step: Double
    /// The video's span in stream time.
    public var start: Double
    public var end: Double
    public var looks: [Look]
    public var limits: [LimitStep]
    public var signs: [MapFeatures.Sign]
    public var speeding: [SpeedingStretch]

    /// The profile of `timeline` between `start` and `end` (stream time), under the signs `limits` (each read until
    /// `expiry` seconds after it, or the next).
    public init(
        timeline: TrackTimeline, limits: [SpeedingFinder.Limit], expiry: Double, signs: [MapFeatures.Sign],
        speeding: [SpeedingStretch], start: Double, end: Double, rule: SpeedingFinder.Rule = .init()
    ) {
        let sorted = limits.sorted { $0.time < $1.time }
        let unit = sorted.first?.unit ?? "km/h"
        let step = max(1, ((end - start) / Double(Self.maximumLooks) / rule.step).rounded(.up)) * rule.step
        self.unit = unit
        self.step = step
        self.start = start
        self.end = end
        self.signs = signs
        self.speeding = speeding
        var looks: [Look] = []
        var index = Int((start / step).rounded(.up))
        while Double(index) * step <= end + 1e-9 {
            let time = (Double(index) * step * 1e6).rounded() / 1e6
            index += 1
            guard let sample = timeline.sample(at: time) else { continue }
            let limit = SpeedingFinder.limit(at: time, in: sorted, expiry: expiry)
            let speed = sample.speed.map { Geodesy.speed($0, in: limit?.unit ?? unit) }
            let standing: Standing
            if let speed, let limit {
                let excess = speed - Double(limit.value)
                // A speed equal to the limit is under it, whatever the km/h ↔ m/s round trip left in the last bits.
                standing = excess <= 1e-9 ? .under
                    : excess > rule.tolerance(limit: Double(limit.value), unit: limit.unit) ? .over : .within
            } else {
                standing = speed == nil ? .unknown : .noLimit
            }
            looks.append(Look(
                time: time, latitude: sample.latitude, longitude: sample.longitude, speed: speed, limit: limit?.value,
                standing: standing))
        }
        self.looks = looks
        self.limits = sorted.enumerated().compactMap { index, limit in
            let next = index + 1 < sorted.count ? sorted[index + 1].time : Double.infinity
            let from = max(limit.time, start)
            let to = min(next, limit.time + expiry, end)
            return to > from ? LimitStep(value: limit.value, from: from, to: to) : nil
        }
    }
}
