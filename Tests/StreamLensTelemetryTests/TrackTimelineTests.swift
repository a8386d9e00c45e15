import Foundation
import Testing

@testable import StreamLensTelemetry

@Suite("Per-frame position and speed")
struct TrackTimelineTests {
    /// Fixes at the given times, 0.0001° of latitude apart per second, with receiver speeds.
    static func track(_ entries: [(time: Double, speed: Double?)], latitudeStep: Double = 0.0001) -> GPSTrack {
        GPSTrack(
            source: .csv,
            fixes: entries.map { GeoFix(time: $0.time, latitude: 45 + $0.time * latitudeStep, longitude: 13, speed: $0.speed) })
    }

    @Test("between two fixes: position and speed interpolated linearly")
    func interpolation() throws {
        let timeline = TrackTimeline(track: Self.track([(0, 10), (1, 12), (2, 14)]))
        #expect(timeline.speedFromReceiver)
        let middle = try #require(timeline.sample(at: 0.5))
        #expect(middle.state == .interpolated && near(middle.latitude, 45.00005, 1e-12) && near(middle.speed, 11, 1e-12))
        #expect(timeline.sample(at: 1) == .init(latitude: 45.0001, longitude: 13, speed: 12, state: .measured))
        #expect(timeline.sample(at: -0.1) == nil)
    }

    @Test("a dropout: the last fix held for 2 s, then unknown until fixes return; never invented")
    func dropout() throws {
        // 18 s without a fix: more than the 10 s interpolated across.
        let timeline = TrackTimeline(track: Self.track([(0, 10), (1, 12), (2, 14), (20, 20), (21, 22)]))
        #expect(timeline.sample(at: 3.5) == .init(latitude: 45.0002, longitude: 13, speed: 14, state: .held))
        #expect(timeline.sample(at: 4.001) == nil)
        #expect(timeline.sample(at: 19.999) == nil)
        #expect(near(timeline.sample(at: 20.5)?.speed, 21, 1e-12))
        #expect(timeline.sample(at: 23) != nil && timeline.sample(at: 23.001) == nil)
        #expect(timeline.end == 23)
        // 8 s without a fix is interpolated across.
        let sparse = TrackTimeline(track: Self.track([(0, 10), (8, 18)]))
        #expect(near(sparse.sample(at: 4)?.speed, 14, 1e-12) && sparse.sample(at: 4)?.state == .interpolated)
    }

    @Test("fixes without a fix are left out, not interpolated through")
    func noFix() {
        var track = Self.track([(0, 10), (1, 99), (2, 14)])
        track.fixes[1].fix = 0
        let timeline = TrackTimeline(track: track)
        #expect(timeline.points.map(\.time) == [0, 2])
        #expect(near(timeline.sample(at: 1)?.speed, 12, 1e-12))
    }

    @Test("jitter: a 1 s centred moving average divides an alternating 1e-5° error by 11 at 10 Hz")
    func smoothing() throws {
        let fixes = (0..<40).map { index in
            GeoFix(
                time: Double(index) / 10, latitude: 45 + (index % 2 == 0 ? 1e-5 : -1e-5), longitude: 13, speed: 10)
        }
        let timeline = TrackTimeline(track: GPSTrack(source: .gpmf, fixes: fixes))
        // Fix 20 averages fixes 15…25: five even ones at +1e-5, six odd ones at −1e-5; fix 21 the other way round.
        #expect(near(timeline.points[20].latitude, 45 - 1e-5 / 11, 1e-12))
        #expect(near(timeline.points[21].latitude, 45 + 1e-5 / 11, 1e-12))
    }

    @Test("speed from positions when the receiver gives none: the 2 s chord")
    func derivedSpeed() throws {
        // Along the equator, 10 m/s: 10 m of longitude a second.
        let degreesPerMetre = 180 / (Double.pi * Geodesy.earthRadius)
        let fixes = (0..<6).map { GeoFix(time: Double($0), latitude: 0, longitude: Double($0) * 10 * degreesPerMetre) }
        let timeline = TrackTimeline(track: GPSTrack(source: .gpx, fixes: fixes))
        #expect(!timeline.speedFromReceiver)
        for point in timeline.points { #expect(near(point.speed, 10, 1e-9)) }
        #expect(near(timeline.sample(at: 2.5)?.speed, 10, 1e-9))
    }

    @Test("alignment: UTC against the video's start when they overlap, else from the first fix; the offset on top")
    func alignment() {
        let track = GPSTrack(source: .gpx, fixes: [
            GeoFix(utc: 1_000_010, latitude: 1, longitude: 2), GeoFix(utc: 1_000_012, latitude: 1, longitude: 2),
        ])
        let byUTC = track.aligned(videoStartUTC: 1_000_000, videoDuration: 60, offset: 0.5)
        #expect(byUTC.alignment == .utc(videoStart: 1_000_000))
        #expect(byUTC.track.fixes.map(\.time) == [10.5, 12.5])
        #expect(byUTC.track.utcOfStreamZero == 999_999.5)
        let apart = track.aligned(videoStartUTC: 2_000_000, videoDuration: 60, offset: -1)
        #expect(apart.alignment == .firstFix && apart.track.fixes.map(\.time) == [-1, 1])
        let gpmf = GPSTrack(source: .gpmf, fixes: [GeoFix(time: 3, latitude: 1, longitude: 2)])
        #expect(gpmf.aligned(videoStartUTC: nil, videoDuration: nil, offset: 2).track.fixes[0].time == 5)
    }

    @Test(
        "a real GoPro track: per-frame speeds stay within the receiver's range, and agree with it at the fixes",
        arguments: [0.0, 2.5, 5.0, 7.5, 10.0])
    func realGoProTrack(time: Double) throws {
        let track = try #require(try TrackLoader.embedded(inVideo: fixture("max-heromode-gpmd.mp4")).track)
        let timeline = TrackTimeline(track: track)
        let sample = try #require(timeline.sample(at: time))
        // The receiver's 2D speeds in this file run 0.527…1.437 m/s; a mean over them stays inside.
        let speed = try #require(sample.speed)
        #expect(speed >= 0.527 && speed <= 1.437)
        #expect(abs(sample.latitude - 33.12672) < 0.0002 && abs(sample.longitude + 117.32731) < 0.0002)
    }
}
