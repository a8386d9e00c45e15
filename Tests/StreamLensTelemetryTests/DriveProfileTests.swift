import Foundation
import Testing

@testable import StreamLensTelemetry

/// The looks the HTML report draws: spacing, the limit's steps, dropouts (generated drives: they prove the mechanics).
@Suite("Drive profile")
struct DriveProfileTests {
    /// 1 Hz fixes at a steady speed (km/h) along one meridian, over `seconds`, leaving out the fixes in `gap`.
    static func timeline(kmh: Double, seconds: Int, gap: ClosedRange<Int>? = nil) -> TrackTimeline {
        TrackTimeline(track: GPSTrack(source: .csv, fixes: (0...seconds).filter { !(gap?.contains($0) ?? false) }.map {
            GeoFix(time: Double($0), latitude: 45 + Double($0) * 0.0001, longitude: 13, speed: kmh / 3.6)
        }))
    }

    @Test("a long video is looked at less often: at most 3000 looks, a multiple of 0.1 s apart")
    func lookSpacing() {
        let hour = DriveProfile(
            timeline: Self.timeline(kmh: 50, seconds: 3600), limits: [], expiry: 180, signs: [], speeding: [],
            start: 0, end: 3600)
        // 3600 s / 3000 looks = 1.2 s.
        #expect(abs(hour.step - 1.2) < 1e-9 && hour.looks.count == 3001)
        #expect(hour.looks.allSatisfy { $0.standing == .noLimit && $0.limit == nil })
        let short = DriveProfile(
            timeline: Self.timeline(kmh: 50, seconds: 60), limits: [], expiry: 180, signs: [], speeding: [],
            start: 0, end: 10)
        #expect(short.step == 0.1 && short.looks.count == 101 && short.unit == "km/h")
    }

    @Test("the limit lapses at its expiry; a step per sign, cut at the next one and at the video's end")
    func limitSteps() {
        let limits = [
            SpeedingFinder.Limit(value: 50, unit: "km/h", time: 2), SpeedingFinder.Limit(value: 70, unit: "km/h", time: 30),
            SpeedingFinder.Limit(value: 90, unit: "km/h", time: 45),
        ]
        let profile = DriveProfile(
            timeline: Self.timeline(kmh: 60, seconds: 60), limits: limits, expiry: 10, signs: [], speeding: [],
            start: 0, end: 50)
        #expect(profile.limits == [.init(value: 50, from: 2, to: 12), .init(value: 70, from: 30, to: 40),
                                   .init(value: 90, from: 45, to: 50)])
        func standing(at time: Double) -> DriveProfile.Standing? { profile.looks.first { abs($0.time - time) < 1e-9 }?.standing }
        // 60 km/h: over 50 + 3, within 70 is under, no limit between a step's end and the next sign.
        #expect(standing(at: 1.9) == .noLimit && standing(at: 2) == .over && standing(at: 12) == .over)
        #expect(standing(at: 12.1) == .noLimit && standing(at: 30) == .under && standing(at: 46) == .under)
    }

    @Test("a dropout leaves no looks once the hold is over, and a speed at the limit is under it")
    func dropout() {
        let profile = DriveProfile(
            timeline: Self.timeline(kmh: 50, seconds: 40, gap: 11...24),
            limits: [.init(value: 50, unit: "km/h", time: 0)], expiry: 180, signs: [], speeding: [], start: 0, end: 40)
        let times = profile.looks.map(\.time)
        // Fixes at 10 and 25, 15 s apart: a dropout; 10 is held for 2 s.
        #expect(times.contains(12) && !times.contains { $0 > 12 + 1e-9 && $0 < 25 - 1e-9 } && times.contains(25))
        #expect(profile.looks.allSatisfy { $0.standing == .under })
    }
}
