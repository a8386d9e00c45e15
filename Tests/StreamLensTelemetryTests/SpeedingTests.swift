import Foundation
import Testing

@testable import StreamLensTelemetry

@Suite("Speeding against the read limit")
struct SpeedingTests {
    /// Receiver speeds in km/h at whole seconds 0…30: over 53 km/h (50 + 3) from 1.75 s to 6.25 s; a 2.2 s burst at
    /// 58 km/h around 11–12 s; 50 km/h from 13 s, which is over once a 30 sign is passed at 20 s, until 25.85 s.
    static let kmh: [Double] = [50, 50, 54, 54, 54, 54, 54, 50, 50, 50, 50, 58, 58, 50, 50, 50, 50, 50, 50, 50,
                                50, 50, 50, 50, 50, 50, 30, 30, 30, 30, 30]

    static var timeline: TrackTimeline {
        TrackTimeline(track: GPSTrack(source: .csv, fixes: kmh.enumerated().map { second, speed in
            GeoFix(time: Double(second), latitude: 45 + Double(second) * 0.0001, longitude: 13, speed: speed / 3.6)
        }))
    }

    static let limits = [
        SpeedingFinder.Limit(value: 50, unit: "km/h", time: 0.5), SpeedingFinder.Limit(value: 30, unit: "km/h", time: 20),
    ]

    @Test("stretches over limit + max(5 %, 3 km/h) for at least 3 s; a 2.2 s burst is none")
    func stretches() throws {
        let found = SpeedingFinder.stretches(timeline: Self.timeline, limits: Self.limits, expiry: 180)
        #expect(found.count == 2)
        let first = found[0].event
        #expect(first.start == 1.8 && first.end == 6.2 && first.limit == 50 && first.unit == "km/h")
        #expect(first.maxSpeed == 54 && first.maxExcess == 4)
        // Looks: 53.2, 53.6, 41 × 54, 53.6, 53.2 → mean excess 177.6 / 45 = 3.95.
        #expect(first.meanExcess == 3.9)
        #expect(near(first.position?.latitude, 45.00018, 1e-9) && near(first.endPosition?.latitude, 45.00062, 1e-9))
        let second = found[1].event
        #expect(second.start == 20 && second.end == 25.8 && second.limit == 30)
        #expect(second.maxSpeed == 50 && second.maxExcess == 20)
        // 51 looks 20 over, then 18, 16 … 4: 1108 / 59.
        #expect(second.meanExcess == 18.8)
        #expect(found[1].path.count == 59)
    }

    @Test("a limit lapses after the sign reader's expiry")
    func expiry() {
        let found = SpeedingFinder.stretches(timeline: Self.timeline, limits: Self.limits, expiry: 5)
        #expect(found.map(\.event.start) == [1.8, 20])
        #expect(found.map(\.event.end) == [5.5, 25])
        // Lapsed at 3.5 s: 1.8…3.5 is shorter than 3 s.
        #expect(SpeedingFinder.stretches(timeline: Self.timeline, limits: Self.limits, expiry: 3).map(\.event.start) == [20])
    }

    @Test("no limit read, no speeding; no speed known, no speeding")
    func nothingKnown() {
        #expect(SpeedingFinder.stretches(timeline: Self.timeline, limits: [], expiry: 180).isEmpty)
        let empty = TrackTimeline(track: GPSTrack(source: .csv, fixes: []))
        #expect(SpeedingFinder.stretches(timeline: empty, limits: Self.limits, expiry: 180).isEmpty)
    }

    @Test("tolerance: 5 % above 60, 3 km/h below; in mph the 3 km/h floor is 1.86 mph", arguments: [
        (30.0, "km/h", 3.0),  // 5 % would be 1.5
        (60.0, "km/h", 3.0),  // equal
        (100.0, "km/h", 5.0),
        (25.0, "mph", 3 / 1.609344),
        (65.0, "mph", 3.25),
    ])
    func tolerance(limit: Double, unit: String, expected: Double) {
        #expect(near(SpeedingFinder.Rule().tolerance(limit: limit, unit: unit), expected, 1e-12))
    }

    @Test("the event line's keys")
    func eventJSON() throws {
        let found = SpeedingFinder.stretches(timeline: Self.timeline, limits: Self.limits, expiry: 180)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let line = String(decoding: try encoder.encode(found[0].event), as: UTF8.self)
        #expect(line == #"{"end":6.2,"end_position":{"lat":45.00062,"lon":13},"limit":50,"max_excess":4,"#
            + #""max_speed":54,"mean_excess":3.9,"position":{"lat":45.00018,"lon":13},"start":1.8,"type":"speeding","#
            + #""unit":"km\/h"}"#)
    }
}
