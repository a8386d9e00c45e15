import Foundation
import StreamLensCore
import Testing
@testable import StreamLensStats

@Suite("Run report JSON")
struct ReportTests {
    static func sampleReport() -> RunReport {
        let recorder = RunRecorder()
        recorder.setNominalFrameDuration(ms(40))
        var source = SyntheticSource(recorder: recorder)
        for frame in 0..<20 {
            let pts = Double(frame) * 40 + (frame >= 10 ? 80 : 0)  // a two-frame gap after frame 9
            let index = source.arrive(ptsMilliseconds: pts, atMilliseconds: pts + Double(frame % 3))
            if frame == 5 {
                recorder.frameDropped(index: index, pts: ms(pts), cause: .poolFull, at: ms(pts))
            } else {
                source.output(
                    index: index, ptsMilliseconds: pts, arrivalMilliseconds: pts + Double(frame % 3),
                    outputMilliseconds: pts + 12, composite: 3, push: 1)
            }
        }
        recorder.analysisCompleted(stage: "ocr", pts: ms(40), latency: ms(35), count: 1)
        recorder.finish(at: ms(1000))
        return recorder.makeReport(
            context: RunContext(
                input: "clip.mp4", output: "out.mp4", live: false, policy: .block, poolCapacity: 3,
                streamlensVersion: "0.1.0", gstreamerVersion: "1.22.0"))
    }

    @Test func jsonHasTheDocumentedKeys() throws {
        let report = Self.sampleReport()
        let object = try #require(try JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any])
        #expect(object["schema_version"] as? Int == 1)
        for key in [
            "run", "duration_s", "frames", "throughput_fps", "jitter_ms", "latency_ms", "output_pacing_jitter_ms",
            "stages", "analysis", "stalls", "blocked", "peak_rss_mb", "cpu_seconds", "latency_histogram_ms", "timeline",
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        let frames = try #require(object["frames"] as? [String: Any])
        #expect(frames["decoded"] as? Int == 20)
        #expect(frames["output"] as? Int == 19)
        #expect(frames["gaps"] as? Int == 1)
        #expect(frames["missing_frames"] as? Int == 2)
        let dropped = try #require(frames["dropped"] as? [String: Int])
        #expect(dropped == ["pool_full": 1, "late_at_sink": 0, "stream_error": 0, "interrupted": 0])
        #expect(Set((object["jitter_ms"] as? [String: Any])?.keys.map { $0 } ?? []) == ["p50", "p95", "p99", "max", "rfc3550", "count"])
        #expect(Set((object["latency_ms"] as? [String: Any])?.keys.map { $0 } ?? []) == ["p50", "p95", "p99", "max", "count"])
        let stages = try #require(object["stages"] as? [String: Any])
        #expect(Set(stages.keys) == ["pool_wait", "composite", "push", "analysis_lag", "analysis:ocr"])
        let stalls = try #require(object["stalls"] as? [String: Any])
        #expect(Set(stalls.keys) == ["count", "total_ms"])
        let run = try #require(object["run"] as? [String: Any])
        #expect(run["pool_capacity"] as? Int == 3)
        #expect(run["gstreamer_version"] as? String == "1.22.0")
        #expect(run["policy"] as? String == "block")
        // Real process figures.
        #expect((object["peak_rss_mb"] as? Double ?? 0) > 1)
        #expect((object["cpu_seconds"] as? Double ?? 0) > 0)
    }

    @Test func reportRoundTripsThroughAFile() throws {
        let report = Self.sampleReport()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try report.write(toPath: path)
        #expect(try RunReport.read(fromPath: path) == report)
    }

    struct BadFile: CustomTestStringConvertible, Sendable {
        let name: String
        let contents: String?
        let message: String
        var testDescription: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(name: "missing", contents: nil, message: "cannot read report '%PATH%': no such file"),
        BadFile(name: "not json", contents: "frames,decoded\n1,2\n", message: "'%PATH%' is not a StreamLens run report (not valid JSON: cut short, or not JSON at all); pass a file written by --report"),
        BadFile(name: "cut short", contents: "{\"schema_version\": 1, \"fr", message: "'%PATH%' is not a StreamLens run report (not valid JSON: cut short, or not JSON at all); pass a file written by --report"),
        BadFile(name: "empty", contents: "", message: "'%PATH%' is not a StreamLens run report (the file is empty); pass a file written by --report"),
        BadFile(name: "a list", contents: "[1]", message: "'%PATH%' is not a StreamLens run report (not a JSON object); pass a file written by --report"),
        BadFile(name: "other json", contents: "{\"hello\": 1}", message: "'%PATH%' is not a StreamLens run report (no schema_version key); pass a file written by --report"),
        BadFile(name: "future schema", contents: "{\"schema_version\": 2}", message: "report '%PATH%' has schema_version 2, this streamlens reads version 1; use the streamlens that wrote it"),
        BadFile(name: "truncated", contents: "{\"schema_version\": 1, \"run\": {}}", message: "'%PATH%' is not a StreamLens run report (missing key 'run.input'); pass a file written by --report"),
    ]

    @Test(arguments: badFiles)
    func badFilesGiveAClearError(_ bad: BadFile) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        if let contents = bad.contents { try contents.write(toFile: path, atomically: true, encoding: .utf8) }
        #expect {
            _ = try RunReport.read(fromPath: path)
        } throws: { error in
            String(describing: error) == bad.message.replacingOccurrences(of: "%PATH%", with: path)
        }
    }

    @Test func aFolderIsNamedAsOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect {
            _ = try RunReport.read(fromPath: folder)
        } throws: { error in
            String(describing: error) == "cannot read report '\(folder)': it is a folder; pass a file written by --report"
        }
    }

    @Test func peakRSSIsParsedFromProcStatus() {
        let status = "Name:\tswift\nVmPeak:\t  999 kB\nVmHWM:\t   51200 kB\nVmRSS:\t 1024 kB\n"
        #expect(ProcessResources.peakResidentMegabytes(fromStatus: status) == 50)
        #expect(ProcessResources.peakResidentMegabytes(fromStatus: "Name: x\n") == nil)
    }
}

@Suite("Downsampled timeline")
struct IntervalSeriesTests {
    @Test func staysBoundedAndKeepsTotalsOverAnHour() {
        var series = IntervalSeries(capacity: 2000)
        // One hour at 30 fps with a drop every 100 frames.
        let frames = 108_000
        for frame in 0..<frames {
            let time = Duration.nanoseconds(Int64(frame) * 33_333_333)
            series.recordArrival(at: time, interval: frame == 0 ? nil : ms(33.333333))
            if frame % 100 == 0 { series.recordDrop(at: time) }
        }
        let report = series.report
        #expect(report.arrivals.count <= 2000)
        #expect(report.arrivals.count > 1000)
        #expect(report.arrivals.reduce(0, +) == frames)
        #expect(report.drops.reduce(0, +) == frames / 100)
        // 10 ms doubled until an hour fits in 2000 buckets: 10 × 2^8 = 2560 ms.
        #expect(report.bucketMilliseconds == 2560)
        #expect(report.minIntervalMilliseconds.allSatisfy { $0 == 33.333333 })
    }

    @Test func mergingKeepsExtremes() {
        var series = IntervalSeries(capacity: 4, initialBucketWidth: ms(10))
        series.recordArrival(at: ms(5), interval: ms(3))
        series.recordArrival(at: ms(15), interval: ms(9))
        series.recordArrival(at: ms(25), interval: nil)
        // 45 ms needs bucket 4 of 4: buckets merge to 20 ms width.
        series.recordArrival(at: ms(45), interval: ms(20))
        let report = series.report
        #expect(report.bucketMilliseconds == 20)
        #expect(report.arrivals == [2, 1, 1])
        #expect(report.minIntervalMilliseconds == [3, nil, 20])
        #expect(report.maxIntervalMilliseconds == [9, nil, 20])
    }
}
