import Foundation
import StreamLensTelemetry
import StreamLensTestMedia
import Testing
@testable import StreamLensStats

/// The drive's track and speed chart on the HTML page, from a generated drive whose speeds and limits are known to the
/// look (generated data: it proves the drawing, not the GPS).
@Suite("HTML report: the drive")
struct DriveChartsTests {
    /// Receiver speeds in km/h at whole seconds 0…30, northward along one meridian (the telemetry tests' drive):
    /// over 53 km/h (50 + 3) from 1.75 s to 6.25 s and from 10.375 s to 12.625 s; 50 km/h from 13 s, over once the
    /// 30 sign is passed at 20 s until 25.85 s.
    static let kmh: [Double] = [50, 50, 54, 54, 54, 54, 54, 50, 50, 50, 50, 58, 58, 50, 50, 50, 50, 50, 50, 50,
                                50, 50, 50, 50, 50, 50, 30, 30, 30, 30, 30]
    static let limits = [
        SpeedingFinder.Limit(value: 50, unit: "km/h", time: 0.5), SpeedingFinder.Limit(value: 30, unit: "km/h", time: 20),
    ]

    static var profile: DriveProfile {
        let timeline = TrackTimeline(track: GPSTrack(source: .csv, fixes: kmh.enumerated().map { second, speed in
            GeoFix(time: Double(second), latitude: 45 + Double(second) * 0.0001, longitude: 13, speed: speed / 3.6)
        }))
        let signs = limits.map { limit in
            MapFeatures.Sign(
                value: limit.value, unit: limit.unit, start: limit.time - 0.4, end: limit.time,
                position: GeoPosition(latitude: 45 + limit.time * 0.0001, longitude: 13))
        }
        let speeding = SpeedingFinder.stretches(timeline: timeline, limits: limits, expiry: 180)
        return DriveProfile(
            timeline: timeline, limits: limits, expiry: 180, signs: signs, speeding: speeding, start: 0, end: 30)
    }

    @Test func withoutTelemetryThePageHasNoDrive() throws {
        let html = try HTMLReport.render(report: RealisticRun.makeReport())
        #expect(!html.contains("drive-map") && !html.contains("speed-chart") && !html.contains("Speed and limit"))
    }

    @Test func theTrackIsColouredByTheStandingOfEachLook() throws {
        let html = try HTMLReport.render(report: RealisticRun.makeReport(), drive: Self.profile)
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("src="))
        #expect(html.components(separatedBy: "<script").count == 2)
        let map = try SVGElements(html: html, id: "drive-map")
        let segments = map.elements(named: "line", className: "track-segment")
        // 301 looks 0.1 s apart (0…30 s), one line between each pair.
        #expect(segments.count == 300)
        // Independently of the profile: over where the interpolated speed exceeds the limit by more than 3 km/h.
        func speed(_ time: Double) -> Double {
            let second = Int(time.rounded(.down))
            guard second + 1 < Self.kmh.count else { return Self.kmh[second] }
            return Self.kmh[second] + (Self.kmh[second + 1] - Self.kmh[second]) * (time - Double(second))
        }
        var red: [Double] = []
        for segment in segments {
            let start = try #require(Double(segment["data-t0"] ?? ""))
            let limit: Double? = start < 0.5 - 1e-9 ? nil : start < 20 - 1e-9 ? 50 : 30
            let expected: String = if let limit {
                speed(start) > limit + 3 + 1e-9 ? "#d93025" : speed(start) > limit + 1e-9 ? "#f29900" : "#1e8e3e"
            } else { "#5b8def" }
            #expect(segment["stroke"] == expected, "segment at \(start) s: \(segment)")
            if expected == "#d93025" { red.append(start) }
        }
        let tenths = { (range: ClosedRange<Int>) in range.map { Double($0) / 10 } }
        #expect(red == tenths(18...62) + tenths(104...126) + tenths(200...258))
        // North up, scaled to the track's bounds: the first look is at the bottom margin, the last at the top; one
        // meridian is one vertical line in the middle.
        #expect(segments.first?["y1"] == "456" && segments.last?["y2"] == "24")
        #expect(Set(segments.flatMap { [$0["x1"], $0["x2"]] }) == ["380"])
        let signs = map.elements(named: "circle", className: "sign")
        #expect(signs.map { $0["data-value"] } == ["50", "30"])
        #expect(signs.map { $0["cy"] } == ["448.8", "168"])
    }

    @Test func theSpeedChartStepsTheLimitAndShadesSpeeding() throws {
        let html = try HTMLReport.render(report: RealisticRun.makeReport(), drive: Self.profile)
        let chart = try SVGElements(html: html, id: "speed-chart")
        let steps = chart.elements(named: "line", className: "limit-step")
        #expect(steps.map { [$0["data-limit"], $0["data-from"], $0["data-to"]] } == [["50", "0.5", "20"], ["30", "20", "30"]])
        // A step line: flat at each value, one rise (here a fall) between them at 20 s.
        #expect(steps.allSatisfy { $0["y1"] == $0["y2"] })
        let rises = chart.elements(named: "line", className: "limit-rise")
        #expect(rises.count == 1 && rises.first?["x1"] == steps[1]["x1"] && rises.first?["y1"] == steps[0]["y1"])
        let bands = chart.elements(named: "rect", className: "speeding-band")
        #expect(bands.map { [$0["data-start"], $0["data-end"], $0["data-limit"]] } == [["1.8", "6.2", "50"], ["20", "25.8", "30"]])
        let lines = chart.elements(named: "polyline", className: "speed-line")
        #expect(lines.count == 1 && lines.first?["points"]?.split(separator: " ").count == 301)
    }
}
