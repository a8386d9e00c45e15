import Foundation
import StreamLensTelemetry
import StreamLensTestMedia
import Testing
@testable import StreamLens

/// GPS through the command line: a real car drive (gpxpy's around-visnjan-with-car.gpx, a Garmin eTrex 20x log;
/// scripts/datasets/fetch-gps-samples.sh) lined up with a clip of generated signs whose limit changes from 50 to 80
/// (the sign test set's two-sign sequence with road between the signs).
@Suite(.serialized) struct GPSRunTests {
    static let drive = repositoryRoot.appendingPathComponent(".media-cache/gps/around-visnjan-with-car.gpx")
    static let frameBytes = 640 * 272 * 3 / 2
    /// The drive's 100th second is the clip's start: 59…76 km/h between 1 s and 18 s of the clip, then a dropout.
    static let offset = -100.0
    /// 282 frames at 12.5 fps.
    static let clipEnd = 22.56

    /// The 50 sign (passed at 0.96 s), 12 s of road, the 80 sign (passed at 14.24 s), 8 s of road: the sign set's
    /// `sequence_50_then_80` cut after its 16th frame, with `background_only` looped in between and after.
    static func signClip(in folder: URL) async throws -> URL {
        let set = SpeedLimitRunTests.testSet
        let sequence = try Data(contentsOf: set.appendingPathComponent("sequence_50_then_80.i420"))
        let road = try Data(contentsOf: set.appendingPathComponent("background_only.i420"))
        let roadFrames = road.count / frameBytes
        func frames(_ data: Data, _ range: Range<Int>) -> Data { data.subdata(in: range.lowerBound * frameBytes..<range.upperBound * frameBytes) }
        func roadFor(_ count: Int) -> Data {
            var data = Data()
            for index in 0..<count { data += frames(road, index % roadFrames..<index % roadFrames + 1) }
            return data
        }
        let raw = frames(sequence, 0..<16) + roadFor(150) + frames(sequence, 16..<32) + roadFor(100)
        try raw.write(to: folder.appendingPathComponent("fifty_road_eighty.i420"))
        return try await SpeedLimitRunTests.playableClip("fifty_road_eighty", width: 640, height: 272, in: folder, from: folder)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: drive.path), "run scripts/datasets/fetch-gps-samples.sh"))
    func speedingIsWhereTheDriveWasOverTheReadLimitAndNowhereElse() async throws {
        let folder = try makeTemporaryFolder()
        let clip = try await Self.signClip(in: folder)
        let eventsFile = folder.appendingPathComponent("events.jsonl")
        let geojson = folder.appendingPathComponent("map.geojson")
        let gpx = folder.appendingPathComponent("map.gpx")
        let page = folder.appendingPathComponent("report.html")
        let subtitles = folder.appendingPathComponent("signs.vtt")
        let result = try await runTool([
            "run", "--input", clip.path, "--speed-limits", "eu", "--gps", Self.drive.path, "--gps-offset", "-100",
            "--events", eventsFile.path, "--export", "geojson=\(geojson.path)", "--export", "gpx", gpx.path,
            "--html", page.path, "--subtitles", subtitles.path, "--output", "null", "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("gps: 104 fixes (gpx) from the video's start (no shared clock)"),
                "\(result.standardOutput)")
        let events = try SpeedLimitRunTests.events(eventsFile)
        let signs = events.filter { $0["type"] as? String == "speed_limit" }
        #expect(signs.map { $0["value"] as? Int } == [50, 80])

        // The same drive, lined up the same way, read here.
        let track = try TrackLoader.load(path: Self.drive.path)
        let aligned = track.aligned(videoStartUTC: nil, videoDuration: nil, offset: Self.offset)
        #expect(aligned.alignment == .firstFix)
        let timeline = TrackTimeline(track: aligned.track)

        // Each sign carries the drive's position at its last sighting.
        for sign in signs {
            let end = try #require(sign["end"] as? Double)
            let position = try #require(sign["position"] as? [String: Double], "\(sign)")
            let expected = try #require(timeline.sample(at: end))
            #expect(abs(position["lat"]! - expected.latitude) < 1e-7 && abs(position["lon"]! - expected.longitude) < 1e-7)
        }

        // Speeding, looked at every 0.1 s independently of the finder: over = speed above limit + max(5 %, 3 km/h)
        // under the last sign passed. Runs of looks over, 3 s or longer, are the expected events.
        let limits = signs.map { (value: Double($0["value"] as! Int), from: $0["end"] as! Double) }
        var expected: [(start: Double, end: Double)] = []
        var run: (start: Double, end: Double, limit: Double)?
        for step in 0...Int((Self.clipEnd * 10).rounded()) {
            let time = Double(step) / 10
            let limit = limits.last { $0.from <= time }?.value
            let speed = timeline.sample(at: time)?.speed.map { $0 * 3.6 }
            let over = limit.flatMap { limit in speed.map { $0 > limit + max(0.05 * limit, 3) } } ?? false
            if over, let open = run, open.limit == limit { run?.end = time } else {
                if let open = run, open.end - open.start >= 3 - 1e-9 { expected.append((open.start, open.end)) }
                run = over ? (time, time, limit!) : nil
            }
        }
        if let open = run, open.end - open.start >= 3 - 1e-9 { expected.append((open.start, open.end)) }
        #expect(!expected.isEmpty, "the drive is over 50 km/h for a while in this window")

        let speeding = events.filter { $0["type"] as? String == "speeding" }
        #expect(speeding.count == expected.count, "\(speeding) against \(expected)")
        for (event, stretch) in zip(speeding, expected) {
            #expect(abs((event["start"] as? Double ?? -1) - stretch.start) < 1e-9, "\(event)")
            #expect(abs((event["end"] as? Double ?? -1) - stretch.end) < 1e-9, "\(event)")
            #expect(event["limit"] as? Int == 50 && event["unit"] as? String == "km/h")
            #expect((event["max_excess"] as? Double ?? 0) > 2.5 && event["position"] is [String: Double])
        }

        // The maps: the drive's points, both signs and the speeding stretches.
        let map = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: geojson)) as? [String: Any])
        let kinds = (map["features"] as? [[String: Any]] ?? []).compactMap { ($0["properties"] as? [String: Any])?["kind"] as? String }
        #expect(kinds.filter { $0 == "speed_limit" }.count == 2 && kinds.filter { $0 == "speeding" }.count == expected.count)
        let back = try GPXReader.track(from: String(contentsOf: gpx, encoding: .utf8), path: gpx.path)
        #expect(back.fixes.count == timeline.points.count)
        #expect(back.fixes.first?.utc == track.fixes.first?.utc)

        // The report's track: a line between each two looks 0.1 s apart that the drive has a position for (none
        // across the dropout), red exactly where the looks above were over, the limit stepping at the signs.
        let html = try String(contentsOf: page, encoding: .utf8)
        let trackPlot = try SVGElements(html: html, id: "drive-map")
        let segments = trackPlot.elements(named: "line", className: "track-segment")
        let known = (0...Int((Self.clipEnd * 10).rounded(.down))).map { Double($0) / 10 }
            .filter { timeline.sample(at: $0) != nil }
        let pairs = zip(known, known.dropFirst()).filter { $1 - $0 < 0.15 }.map(\.0)
        #expect(segments.compactMap { $0["data-t0"].flatMap(Double.init) } == pairs)
        #expect(known.count < 226, "the drive's dropout falls inside the clip")
        let red = segments.filter { $0["stroke"] == "#d93025" }.compactMap { $0["data-t0"].flatMap(Double.init) }
        let over = pairs.filter { time in
            guard let limit = limits.last(where: { $0.from <= time })?.value,
                let speed = timeline.sample(at: time)?.speed.map({ $0 * 3.6 })
            else { return false }
            return speed > limit + max(0.05 * limit, 3)
        }
        #expect(!over.isEmpty && red == over)
        #expect(trackPlot.elements(named: "circle", className: "sign").map { $0["data-value"] } == ["50", "80"])
        let chart = try SVGElements(html: html, id: "speed-chart")
        let ends = signs.map { SVGElements.number($0["end"] as! Double) }
        #expect(chart.elements(named: "line", className: "limit-step").map { [$0["data-limit"], $0["data-from"], $0["data-to"]] }
            == [["50", ends[0], ends[1]], ["80", ends[1], "22.56"]])
        #expect(chart.elements(named: "rect", className: "speeding-band").map { [$0["data-start"], $0["data-end"]] }
            == expected.map { [SVGElements.number($0.start), SVGElements.number($0.end)] })

        // The subtitles: each sign with the speed where it was passed.
        let cues = try String(contentsOf: subtitles, encoding: .utf8).components(separatedBy: "\n\n").dropFirst()
            .compactMap { $0.split(separator: "\n").last.map(String.init) }
        let speeds = try signs.map { try #require(timeline.sample(at: $0["end"] as! Double)?.speed) * 3.6 }
        #expect(cues == ["Speed limit 50 km/h · speed \(Int(speeds[0].rounded())) km/h",
                         "Speed limit 80 km/h · speed \(Int(speeds[1].rounded())) km/h"])
    }

    /// Without telemetry the page has no drive, and the subtitles say the limit alone.
    @Test func withoutTelemetryTheReportAndSubtitlesAreAsBefore() async throws {
        let folder = try makeTemporaryFolder()
        let clip = try await Self.signClip(in: folder)
        let page = folder.appendingPathComponent("report.html")
        let subtitles = folder.appendingPathComponent("signs.vtt")
        let result = try await runTool([
            "run", "--input", clip.path, "--speed-limits", "eu", "--gps", "off", "--html", page.path,
            "--subtitles", subtitles.path, "--output", "null", "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("drive-map") && !html.contains("speed-chart"))
        let cues = try String(contentsOf: subtitles, encoding: .utf8).components(separatedBy: "\n\n").dropFirst()
            .compactMap { $0.split(separator: "\n").last.map(String.init) }
        #expect(cues == ["Speed limit 50 km/h", "Speed limit 80 km/h"])
    }

    @Test func exportsWithoutATrackAreRefusedInOneLine() async throws {
        let folder = try makeTemporaryFolder()
        let clip = try await SpeedLimitRunTests.stillPhoto(in: folder)
        let result = try await runTool([
            "run", "--input", clip.path, "--export", "geojson=\(folder.path)/m.geojson", "--output", "null", "--quiet",
        ])
        #expect(result.status != 0)
        #expect(result.standardError.contains("geojson needs GPS telemetry but the input has no GoPro GPMF track"), "\(result.standardError)")
        let unknown = try await runTool(["run", "--input", clip.path, "--export", "kml=x.kml", "--quiet"])
        #expect(unknown.standardError.contains("unknown kind 'kml'; use one of: mot, coco, geojson, gpx"), "\(unknown.standardError)")
        let overInput = try await runTool([
            "run", "--input", clip.path, "--gps", Self.drive.path, "--export", "gpx=\(clip.path)", "--quiet",
        ])
        #expect(overInput.status != 0 && overInput.standardError.contains("--export"), "\(overInput.standardError)")
        #expect(FileManager.default.fileExists(atPath: clip.path))
        let missing = try await runTool(["run", "--input", clip.path, "--gps", "/nonexistent/drive.gpx", "--quiet"])
        #expect(missing.standardError.contains("cannot read GPS telemetry from '/nonexistent/drive.gpx': no such file"),
                "\(missing.standardError)")
    }

    @Test func aPipelineFileNamesTheTrackAndItsOffset() throws {
        let configuration = try PipelineFile.parse(
            "source: { input: a.mp4, gps: drive.gpx, gps_offset: -1.5 }", file: "drive.yaml")
        #expect(configuration.telemetry.source == .file("drive.gpx") && configuration.telemetry.offset == -1.5)
        #expect(configuration.telemetry.sourceSetIn == ConfigLocation(file: "drive.yaml", key: "source.gps"))
        #expect(try PipelineFile.parse("source: { input: a.mp4 }", file: "d.yaml").telemetry == TelemetrySettings())
        #expect(throws: RunError.self) {
            _ = try PipelineFile.parse("source: { input: a.mp4, gps_offset: 90000 }", file: "d.yaml")
        }
    }

    @Test func exportsParseInBothShapes() throws {
        let exports = try TelemetrySettings.exports(parsing: ["geojson=a.geojson", "gpx", "b.gpx"])
        #expect(exports == [.init(kind: "geojson", path: "a.geojson"), .init(kind: "gpx", path: "b.gpx")])
        #expect(throws: RunError.self) { _ = try TelemetrySettings.exports(parsing: ["gpx"]) }
    }
}
