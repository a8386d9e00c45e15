import Foundation
import StreamLensCore
import Testing
@testable import StreamLensStats

@Suite("Per-frame timeline CSV")
struct TimelineWriterTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID()).csv").path
    }

    static func rows(of path: String) throws -> [[String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test func oneRowPerFrameWithItsTimes() throws {
        let path = Self.temporaryPath("timeline")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TimelineWriter(path: path)
        let recorder = RunRecorder(timeline: writer)
        let clock = ManualClock(start: ms(5000))
        recorder.runStarted(at: clock.now())
        // 6 frames at 25 fps starting 100 ms into the run; frame 2 is dropped (pool full).
        for frame in 0..<6 {
            let arrival = 5100 + Double(frame) * 40
            recorder.frameArrived(index: frame, pts: ms(Double(frame) * 40), at: ms(arrival), discontinuity: false)
            if frame == 2 {
                recorder.frameDropped(index: frame, pts: ms(80), cause: .poolFull, at: ms(arrival + 0.5))
                continue
            }
            recorder.frameOutput(
                index: frame, pts: ms(Double(frame) * 40),
                timing: FrameTiming(
                    arrival: ms(arrival), poolWait: ms(1.25), compositeTime: ms(2.0005), pushTime: ms(0.5),
                    outputAt: ms(arrival + 4), analysisLag: frame == 0 ? nil : ms(40)))
        }
        recorder.finish(at: ms(5400))

        let rows = try Self.rows(of: path)
        #expect(rows.first == TimelineWriter.header.dropLast().split(separator: ",").map(String.init))
        #expect(rows.count == 1 + 6)
        #expect(writer.rowCount == 6)
        #expect(rows[1] == ["0", "0.000", "100.000", "1.250", "2.001", "0.500", "104.000", "4.000", "", ""])
        #expect(rows[2] == ["1", "40.000", "140.000", "1.250", "2.001", "0.500", "144.000", "4.000", "40.000", ""])
        // The dropped frame keeps its arrival time and cause; timing columns stay empty.
        #expect(rows[3] == ["2", "80.000", "180.000", "", "", "", "", "", "", "pool_full"])
        #expect(rows.dropFirst().map { $0.count }.allSatisfy { $0 == 10 })
        // Every decoded frame has exactly one row.
        let report = recorder.makeReport(context: testContext())
        #expect(rows.count - 1 == report.frames.decoded)
        #expect(rows.dropFirst().filter { $0[9] == "pool_full" }.count == report.frames.dropped["pool_full"])
    }

    @Test func rowsReachTheFileAsTheBufferFillsAndAllOfThemOnFinish() throws {
        let path = Self.temporaryPath("long-timeline")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TimelineWriter(path: path)
        let recorder = RunRecorder(timeline: writer)
        let frames = 5000
        for frame in 0..<frames {
            let arrival = ms(Double(frame) * 33.367)
            recorder.frameArrived(index: frame, pts: arrival, at: arrival, discontinuity: false)
            recorder.frameOutput(
                index: frame, pts: arrival,
                timing: FrameTiming(
                    arrival: arrival, poolWait: .zero, compositeTime: ms(1), pushTime: ms(1), outputAt: arrival + ms(3),
                    analysisLag: nil))
        }
        // Rows are ~60 bytes: the 64 KiB buffer has been written out several times, the rest waits for finish.
        let before = try Self.rows(of: path).count
        #expect(before > 1000 && before < frames + 1)
        recorder.finish(at: ms(Double(frames) * 33.367))
        let rows = try Self.rows(of: path)
        #expect(rows.count == frames + 1)
        #expect(rows.last?[0] == "\(frames - 1)")
        #expect(rows.last?[2] == String(format: "%.3f", Double(frames - 1) * 33.367))
    }

    @Test func negativeAndLargeValuesAreFormattedExactly() throws {
        let path = Self.temporaryPath("format")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TimelineWriter(path: path)
        // Arrival before the origin (a frame queued before runStarted) gives a negative relative time.
        writer.frameDropped(index: 123_456_789, pts: .seconds(7200) + .nanoseconds(999_499), arrival: ms(-1.5), cause: .interrupted)
        writer.close()
        #expect(try Self.rows(of: path)[1] == ["123456789", "7200000.999", "-1.500", "", "", "", "", "", "", "interrupted"])
    }

    @Test func unwritablePathIsAClearError() {
        #expect {
            _ = try TimelineWriter(path: "/nonexistent-folder/timeline.csv")
        } throws: { error in
            String(describing: error)
                == "cannot write '/nonexistent-folder/timeline.csv': No such file or directory; check that the folder exists "
                    + "and is writable"
        }
    }
}
