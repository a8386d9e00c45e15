import Foundation
import Testing

@testable import StreamLensTelemetry

/// Reference numbers from gopro/gpmf-parser's own C library (GPMF_ScaledData over each GPS stream, GetPayloadTime
/// for the payloads' times), computed once on the same files; see MEDIA.md.
@Suite("GoPro GPMF")
struct GPMFReaderTests {
    @Test("a HERO5 payload: 18 GPS5 fixes with GPSU time, GPSF 3 and GPSP 6.06")
    func hero5Payload() throws {
        let payload = GPMFReader.Payload(bytes: try bytes(fixture("hero5.raw")), start: 10, duration: 1)
        let fixes = try GPMFReader.fixes(in: [payload])
        #expect(fixes.count == 18)
        let first = try #require(fixes.first)
        #expect(near(first.latitude, 33.1264969) && near(first.longitude, -117.3273542))
        #expect(near(first.altitude, -20.184, 1e-9) && near(first.speed, 0.167, 1e-9))
        #expect(first.fix == 3 && near(first.precision, 6.06, 1e-9))
        // GPSU 170417173103.000 = 2017-04-17T17:31:03Z.
        #expect(first.utc == 1_492_450_263)
        #expect(first.time == 10)
        let last = try #require(fixes.last)
        #expect(near(last.latitude, 33.1264973) && near(last.longitude, -117.3273579))
        #expect(near(last.altitude, -20.041, 1e-9) && near(last.speed, 0.676, 1e-9))
        // Sample 17 of 18 over one second.
        #expect(near(last.time, 10 + 17.0 / 18, 1e-12))
        let speeds = fixes.compactMap(\.speed)
        #expect(near(speeds.min(), 0.161, 1e-9) && near(speeds.max(), 0.676, 1e-9))
    }

    @Test("a HERO6 payload without a fix (GPSF 0, GPSP 99.99): read, and none usable")
    func hero6WithoutFix() throws {
        let fixes = try GPMFReader.fixes(in: [.init(bytes: try bytes(fixture("hero6.raw")), start: 0, duration: 1)])
        #expect(fixes.count == 17)
        #expect(fixes.allSatisfy { $0.fix == 0 && !$0.hasFix })
        #expect(near(fixes[0].latitude, 33.1265542) && near(fixes[0].precision, 99.99, 1e-9))
        #expect(near(fixes[0].utc, 1_516_822_081.699, 1e-6))
        let timeline = TrackTimeline(track: GPSTrack(source: .gpmf, fixes: fixes))
        #expect(timeline.points.isEmpty)
        #expect(timeline.sample(at: 0.5) == nil)
    }

    @Test("a Karma payload: the complex GPRI stream laid out by its TYPE JlllSSSSBB")
    func karmaComplexType() throws {
        let fixes = try GPMFReader.fixes(in: [.init(bytes: try bytes(fixture("karma.raw")), start: 0, duration: 1)])
        #expect(fixes.count == 4)
        #expect(near(fixes[0].latitude, 33.1253680) && near(fixes[0].longitude, -117.3310641))
        #expect(near(fixes[0].altitude, 15.445, 1e-9) && near(fixes[0].speed, 0.59, 1e-9))
        #expect(fixes[0].fix == 3 && near(fixes[0].precision, 0.25, 1e-9))
        #expect(near(fixes[3].latitude, 33.1253765) && near(fixes[3].longitude, -117.3310702))
        #expect(near(fixes[3].speed, 2.51, 1e-9))
    }

    @Test("the metadata track of a real MP4, found box by box: 191 fixes over 11 payloads")
    func maxHeroModeTrack() throws {
        let found = try TrackLoader.embedded(inVideo: fixture("max-heromode-gpmd.mp4"))
        let track = try #require(found.track)
        #expect(track.source == .gpmf)
        #expect(track.fixes.count == 191)
        let first = try #require(track.fixes.first)
        #expect(near(first.latitude, 33.1267700) && near(first.longitude, -117.3273436))
        #expect(near(first.altitude, -22.959, 1e-9) && near(first.speed, 1.046, 1e-9))
        #expect(first.time == 0 && first.utc == 1_574_120_714 && first.fix == 3 && near(first.precision, 1.54, 1e-9))
        // Payload 1 starts at 1.001 s (stts: 1001/1000) with its first sample.
        #expect(near(track.fixes[17].time, 1.001, 1e-9))
        let last = try #require(track.fixes.last)
        #expect(near(last.latitude, 33.1266674) && near(last.longitude, -117.3272734))
        #expect(near(last.altitude, -23.637, 1e-9) && near(last.speed, 0.527, 1e-9))
        // Payload 10: 10.010 s to 10.543 s, 10 samples; the last is the tenth.
        #expect(near(last.time, 10.010 + 0.533 * 9 / 10, 1e-9))
        let speeds = track.fixes.compactMap(\.speed)
        #expect(near(speeds.min(), 0.527, 1e-9) && near(speeds.max(), 1.437, 1e-9))
        #expect(near(speeds.reduce(0, +) / Double(speeds.count), 1.2062199, 1e-6))
    }

    @Test(
        "the full GoPro sample reads as its GPMF-only cut",
        .enabled(
            if: gpsSample("max-heromode.mp4") != nil,
            """
            needs .media-cache/gps/max-heromode.mp4 (scripts/datasets/fetch-gps-samples.sh, from a gpmf-parser mirror); the \
            cut in Tests/Fixtures carries the same payloads
            """))
    func fullSampleMatchesCut() throws {
        let full = try #require(try TrackLoader.embedded(inVideo: gpsSample("max-heromode.mp4")!).track)
        let cut = try #require(try TrackLoader.embedded(inVideo: fixture("max-heromode-gpmd.mp4")).track)
        #expect(full == cut)
    }

    @Test("the GoPro sample loads through --gps FILE as well")
    func loaderReadsVideo() throws {
        let track = try TrackLoader.load(path: fixture("max-heromode-gpmd.mp4"))
        #expect(track.fixes.count == 191)
    }

    @Test("a payload cut short is an error that says where")
    func truncatedPayload() throws {
        let whole = try bytes(fixture("hero5.raw"))
        #expect(throws: TelemetryError.self) {
            _ = try GPMFReader.fixes(in: [.init(bytes: Array(whole.prefix(200)), start: 0, duration: 1)])
        }
        do {
            _ = try GPMFReader.fixes(in: [.init(bytes: Array(whole.prefix(200)), start: 0, duration: 1)])
        } catch {
            #expect(error.description.contains("runs past its end"))
            #expect(error.description.contains("--gps off"))
        }
    }

    @Test("a hand-built payload: nesting, padding, one SCAL per element, fixed point")
    func handBuiltKLV() throws {
        func header(_ key: String, _ type: Character, _ size: UInt8, _ repeatCount: UInt16) -> [UInt8] {
            Array(key.utf8) + [type.asciiValue ?? 0, size, UInt8(repeatCount >> 8), UInt8(repeatCount & 0xFF)]
        }
        func int32(_ value: Int32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        // SCAL: 5 int32 divisors; GPS5: 1 sample of 5 int32; GPSF: one uint32; STNM: 3 chars padded to 4.
        let scal = header("SCAL", "l", 4, 5) + [10, 10, 1, 100, 100].flatMap { int32($0) }
        let gps5 = header("GPS5", "l", 20, 1) + [515, -10, 7, 250, 260].flatMap { int32($0) }
        let fix = header("GPSF", "L", 4, 1) + int32(2)
        let name = header("STNM", "c", 3, 1) + Array("GPS".utf8) + [0]
        let streamBody = name + scal + fix + gps5
        let stream = header("STRM", "\0", 4, UInt16(streamBody.count / 4)) + streamBody
        let device = header("DEVC", "\0", 4, UInt16(stream.count / 4)) + stream
        let fixes = try GPMFReader.fixes(in: [.init(bytes: device, start: 2, duration: 1)])
        #expect(fixes == [GeoFix(time: 2, latitude: 51.5, longitude: -1, altitude: 7, speed: 2.5, fix: 2)])
        // Q15.16: 0x00018000 is 1.5.
        #expect(KLV.value(of: UInt8(ascii: "q"), in: [0, 1, 0x80, 0], at: 0) == 1.5)
    }

    @Test("an MP4 box that runs past the file is reported, not read")
    func brokenBox() throws {
        var data = try bytes(fixture("max-heromode-gpmd.mp4"))
        // The moov box (after the ftyp) claims more bytes than the file has.
        let ftypSize = Int(data.uint32(at: 0)!)
        data.replaceSubrange(ftypSize..<ftypSize + 4, with: [0x7F, 0, 0, 0])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID()).mp4").path
        try Data(data).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: TelemetryError.malformedContainer(path: path, detail: "top-level box 'moov' runs past the end of the file")) {
            _ = try TrackLoader.embedded(inVideo: path)
        }
    }
}
