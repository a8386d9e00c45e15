import Foundation
import Synchronization
import Testing

@testable import StreamLensSigns

struct WebVTTWriterTests {
    @Test(arguments: [
        (0.0, "00:00:00.000"),
        (12.48, "00:00:12.480"),
        (59.9996, "00:01:00.000"),  // rounds to the millisecond, carrying into the minute
        (61.5, "00:01:01.500"),
        (3_723.004, "01:02:03.004"),
        (360_000.0, "100:00:00.000"),  // hours keep growing past 99
        (-1.0, "00:00:00.000"),
    ])
    func timestamps(seconds: Double, expected: String) {
        #expect(WebVTTWriter.timestamp(seconds) == expected)
    }

    @Test func writesAValidFileWithNumberedCues() throws {
        let path = NSTemporaryDirectory() + "signs-\(UUID().uuidString).vtt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try WebVTTWriter(path: path, minimumCueDuration: 2)
        writer.append(SpeedLimitEvent(
            value: 60, unit: "km/h", start: 12.48, end: 13.2, confidence: 0.97, box: [1, 2, 3, 4], reads: 5))
        writer.append(SpeedLimitEvent(
            value: 80, unit: "km/h", start: 20, end: 25.25, confidence: 0.9, box: [1, 2, 3, 4], reads: 3))
        writer.appendCue(start: 30, end: 31, text: "two\n\nlines")
        writer.close()
        writer.append(SpeedLimitEvent(value: 90, unit: "km/h", start: 40, end: 41, confidence: 1, box: [], reads: 1))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == """
            WEBVTT

            1
            00:00:12.480 --> 00:00:14.480
            Speed limit 60 km/h

            2
            00:00:20.000 --> 00:00:25.250
            Speed limit 80 km/h

            3
            00:00:30.000 --> 00:00:32.000
            two
            lines


            """)
    }

    /// With GPS telemetry a sign's cue says the speed where it was passed (its `end`), in its unit; a sign passed
    /// where the speed is unknown says the limit alone.
    @Test func signCuesCarryTheSpeedWhereTheSignWasPassed() throws {
        let path = NSTemporaryDirectory() + "signs-\(UUID().uuidString).vtt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try WebVTTWriter(path: path, minimumCueDuration: 2)
        let asked = Mutex<[String]>([])
        writer.showSpeed { time, unit in
            asked.withLock { $0.append("\(time) \(unit)") }
            return time < 20 ? 67.6 : nil
        }
        writer.append(SpeedLimitEvent(
            value: 60, unit: "km/h", start: 12.48, end: 13.2, confidence: 0.97, box: [1, 2, 3, 4], reads: 5))
        writer.append(SpeedLimitEvent(
            value: 45, unit: "mph", start: 19, end: 19.5, confidence: 0.9, box: [1, 2, 3, 4], reads: 3))
        writer.append(SpeedLimitEvent(
            value: 80, unit: "km/h", start: 21, end: 22, confidence: 0.9, box: [1, 2, 3, 4], reads: 3))
        writer.close()
        #expect(asked.withLock { $0 } == ["13.2 km/h", "19.5 mph", "22.0 km/h"])
        let cues = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n\n").dropFirst()
            .compactMap { $0.split(separator: "\n").last.map(String.init) }
        #expect(cues == ["Speed limit 60 km/h · speed 68 km/h", "Speed limit 45 mph · speed 68 mph", "Speed limit 80 km/h"])
    }

    /// A cue stretched to the minimum ran into the next limit's (a player showed "50" and "80" at once) and past the
    /// end of the video (a QA sweep): a cue ends where the next one starts and by the end of the stream. Two signs in
    /// view at once (the later-starting one ended first) keep both cues whole.
    @Test func cuesEndAtTheNextLimitAndAtTheEndOfTheStream() throws {
        let path = NSTemporaryDirectory() + "signs-\(UUID().uuidString).vtt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try WebVTTWriter(path: path, minimumCueDuration: 2)
        writer.appendCue(start: 0.24, end: 1.28, text: "Speed limit 50 km/h")
        writer.appendCue(start: 1.52, end: 2.24, text: "Speed limit 80 km/h")
        writer.appendCue(start: 5, end: 5.5, text: "Speed limit 30 km/h")
        writer.appendCue(start: 4.5, end: 6, text: "Speed limit 70 km/h")
        writer.close(streamEnd: 6.8)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == """
            WEBVTT

            1
            00:00:00.240 --> 00:00:01.520
            Speed limit 50 km/h

            2
            00:00:01.520 --> 00:00:03.520
            Speed limit 80 km/h

            3
            00:00:05.000 --> 00:00:07.000
            Speed limit 30 km/h

            4
            00:00:04.500 --> 00:00:06.500
            Speed limit 70 km/h


            """)
        let last = try WebVTTWriter(path: path, minimumCueDuration: 2)
        last.appendCue(start: 1.52, end: 2.24, text: "Speed limit 80 km/h")
        last.close(streamEnd: 2.56)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("00:00:01.520 --> 00:00:02.560"))
    }

    @Test func unwritablePathIsOneClearError() {
        #expect {
            _ = try WebVTTWriter(path: "/nonexistent-folder/x.vtt")
        } throws: { error in
            String(describing: error)
                == "cannot write subtitles to '/nonexistent-folder/x.vtt': No such file or directory; check that the "
                    + "folder exists, is writable and has room"
        }
    }

    @Test func eventEncodesTheDocumentedShape() throws {
        let event = SpeedLimitEvent(
            value: 60, unit: "km/h", start: 12.4804, end: 13.19996, confidence: 0.96666, box: [10, 20, 30, 32],
            reads: 4)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(event), as: UTF8.self)
        #expect(json == #"{"box":[10,20,30,32],"confidence":0.967,"end":13.2,"reads":4,"start":12.48,"type":"speed_limit","unit":"km\/h","value":60}"#)
    }
}

/// A subtitles path that is a FIFO nobody reads: creating the file fails at once instead of blocking in `open(2)`.
@Test func aFIFOIsRefusedWithoutWaiting() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("streamlens-fifo-\(UUID().uuidString)").path
    #expect(mkfifo(path, 0o644) == 0)
    defer { unlink(path) }
    let started = ContinuousClock.now
    #expect(throws: SignsError.self) { _ = try WebVTTWriter(path: path) }
    #expect(ContinuousClock.now - started < .seconds(2))
}
