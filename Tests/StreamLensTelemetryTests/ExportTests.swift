import Foundation
import Testing

@testable import StreamLensTelemetry

@Suite("GeoJSON and GPX exports")
struct ExportTests {
    static var features: MapFeatures {
        let timeline = SpeedingTests.timeline
        let stretches = SpeedingFinder.stretches(timeline: timeline, limits: SpeedingTests.limits, expiry: 180)
        return MapFeatures(
            track: timeline.points,
            signs: [.init(value: 50, unit: "km/h", start: 0.2, end: 0.5, position: .init(latitude: 45.00005, longitude: 13))],
            speeding: stretches, utcOfStreamZero: 1_608_272_150)
    }

    @Test("GeoJSON: the track, each sign a point, each speeding stretch a line; positions [lon, lat]")
    func geoJSON() throws {
        let data = GeoJSONWriter.document(Self.features)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(root["type"] as? String == "FeatureCollection")
        let features = try #require(root["features"] as? [[String: Any]])
        let kinds = features.map { ($0["properties"] as? [String: Any])?["kind"] as? String }
        #expect(kinds == ["track", "speed_limit", "speeding", "speeding"])
        let track = try #require(features[0]["geometry"] as? [String: Any])
        #expect(track["type"] as? String == "LineString")
        let trackCoordinates = try #require(track["coordinates"] as? [[Double]])
        #expect(trackCoordinates.count == 31 && trackCoordinates[0] == [13, 45])
        let sign = try #require(features[1]["geometry"] as? [String: Any])
        #expect(sign["type"] as? String == "Point" && sign["coordinates"] as? [Double] == [13, 45.00005])
        let signProperties = try #require(features[1]["properties"] as? [String: Any])
        #expect(signProperties["value"] as? Int == 50 && signProperties["end"] as? Double == 0.5)
        let speeding = try #require(features[2]["geometry"] as? [String: Any])
        let line = try #require(speeding["coordinates"] as? [[Double]])
        #expect(line.count == 45 && line[0] == [13, 45.00018])
        let properties = try #require(features[2]["properties"] as? [String: Any])
        #expect(properties["max_excess"] as? Int == 4 && properties["limit"] as? Int == 50)
    }

    @Test("GPX: waypoints before the track, UTC times, one segment per dropout; it reads back as the same track")
    func gpx() throws {
        let text = GPXWriter.document(Self.features)
        #expect(text.contains(#"<wpt lat="45.0000500" lon="13.0000000">"#))
        #expect(text.contains("<time>2020-12-18T06:15:50.500Z</time>"))
        #expect(text.contains("<name>50 km/h</name>"))
        let wpt = try #require(text.range(of: "<wpt"))
        let trk = try #require(text.range(of: "<trk>"))
        #expect(wpt.lowerBound < trk.lowerBound)
        let back = try GPXReader.track(from: text, path: "export.gpx")
        #expect(back.fixes.count == 31)
        #expect(back.fixes[0].utc == 1_608_272_150 && back.fixes[0].latitude == 45)
        #expect(back.fixes[30].utc == 1_608_272_180)
    }

    @Test("GPX times: civil dates both ways", arguments: [0.0, 951_782_400.25, 1_608_272_150.5, 4_102_444_800])
    func civilDates(seconds: Double) throws {
        #expect(UTCTime.iso8601(GPXWriter.iso8601(seconds)) == seconds)
    }
}
