import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Live sources that go away: a real RTSP server on loopback (gst-rtsp-server) stopped and started again, a server
/// that never comes back, one that is not there at all, a UDP source that never sends.
@Suite(.serialized) struct LiveSourceTests {
    /// The server goes away for 3 s and comes back: the run reconnects (one stall, `reconnects.count` 1), frames
    /// arrive after the outage, the output file holds every frame output with increasing timestamps, and Prometheus
    /// counts the reconnection.
    @Test func anRTSPServerThatComesBackIsReconnected() async throws {
        let folder = try makeTemporaryFolder()
        let server = RTSPServer()
        try await server.start()
        let metricsPort = freeLoopbackPort()
        let run = try BackgroundRun(
            ["run", "--input", server.url, "--output", "camera.mkv", "--quiet", "--report", "report.json",
             "--timeline", "timeline.csv", "--metrics-port", String(metricsPort)],
            folder: folder)
        #expect(try await waitUntil { fileSize(folder.appendingPathComponent("camera.mkv.partial").path) >= 50_000 },
                "no frames arrived from the server")
        try await server.stop()
        let outageStart = Date().timeIntervalSince(run.started)
        try await Task.sleep(for: .seconds(3))  // the stimulus: the server is away for 3 s
        let decodedBeforeReturn = decodedFrames(metricsPort: metricsPort) ?? 0
        try await server.start()
        #expect(try await waitUntil(within: .seconds(60)) {
            (metric("streamlens_reconnects_total", metricsPort: metricsPort) ?? 0) >= 1
                && (decodedFrames(metricsPort: metricsPort) ?? 0) >= decodedBeforeReturn + 30
        }, "no frames came after the server came back")
        let metrics = try await offThePool {
            try String(contentsOf: URL(string: "http://127.0.0.1:\(metricsPort)/metrics")!, encoding: .utf8)
        }
        run.signal(SIGINT)
        let (result, _) = try await run.finish(within: .seconds(20))
        try await server.stop()
        #expect(result.status == 130, "\(result.standardError)")
        #expect(result.standardError.contains("input lost"), "\(result.standardError)")
        #expect(result.standardError.contains("input back after"), "\(result.standardError)")
        let report = try Report(folder.appendingPathComponent("report.json"))
        #expect(report.reconnects.count >= 1)
        #expect(report.reconnects.totalMilliseconds > 2500 && report.reconnects.totalMilliseconds < 12_000)
        #expect((report.json["stalls"] as! [String: Any])["count"] as! Int >= 1)
        #expect(report.conservesFrames)
        #expect(metrics.contains("streamlens_reconnects_total 1"), "\(metrics)")
        // Frames arrived after the outage (arrival_ms is the third column of the timeline).
        let rows = try String(contentsOf: folder.appendingPathComponent("timeline.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst()
        let arrivals = rows.compactMap { Double($0.split(separator: ",", omittingEmptySubsequences: false)[2]) }
        let afterOutage = arrivals.filter { $0 > (outageStart + 3) * 1000 }.count
        #expect(afterOutage > 25, "\(afterOutage) frames after the outage")
        // Their times go on from the run's, the outage a gap in them (the reopened server's frames started at 0
        // again: the outage was squeezed out of the file, the timeline repeated its times).
        // (Rows are written as frames are settled: a dropped frame's may come before an earlier frame's.)
        let byFrame = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .compactMap { fields in Int(fields[0]).flatMap { index in Double(fields[1]).map { (index, $0) } } }
            .sorted { $0.0 < $1.0 }
        let times = byFrame.map(\.1)
        let backwards = zip(byFrame, byFrame.dropFirst()).filter { $1.1 <= $0.1 }
        #expect(backwards.isEmpty, "the timeline's times go back: \(backwards.prefix(3))")
        let longestGap = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
        #expect(longestGap > 2500, "longest gap between frames' times \(longestGap) ms")
        let repairs = (report.json["frames"] as? [String: Any])?["timestamp_repairs"] as? Int
        #expect(repairs == nil, "timestamp repairs \(String(describing: repairs))")
        // The file holds the frames from before and after, in order.
        let decoded = try await decode(folder.appendingPathComponent("camera.mkv"))
        #expect(decoded.frames.count == report.output)
        let stamps = decoded.frames.compactMap(\.pts)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// What a run whose live source went away did: whether frames had arrived before it went, the result, the
    /// seconds from when it went (or from the start, for a source that never sent), whether it was still running at
    /// its limit (then killed), its report.
    struct LostSourceRun: Sendable {
        var framesArrived = true
        var result: ToolResult
        var seconds: Double
        var killed: Bool
        var report: URL
    }

    /// The runs of the three tests below, side by side: each has its own server or port, folder and process, and
    /// each mostly waits (for the server's first frames, the reconnection backoffs, the stall timeout). Each test
    /// checks its own run.
    static let lostSourceRuns = Task<(staysAway: LostSourceRun, lostPartway: LostSourceRun, silent: LostSourceRun), any Error> {
        async let staysAway = lostServerRun(["--reconnect-max", "2"])
        async let lostPartway = lostServerRun(["--no-reconnect"])
        async let silent = silentUDPRun()
        return (try await staysAway, try await lostPartway, try await silent)
    }

    /// A run of a real RTSP server's stream with `options`, the server stopped for good once frames are in the file.
    static func lostServerRun(_ options: [String]) async throws -> LostSourceRun {
        let folder = try makeTemporaryFolder()
        let server = RTSPServer()
        try await server.start()
        let run = try BackgroundRun(
            ["run", "--input", server.url, "--output", "out.mkv", "--quiet", "--report", "report.json"] + options,
            folder: folder)
        let arrived = try await waitUntil { fileSize(folder.appendingPathComponent("out.mkv.partial").path) >= 20_000 }
        try await server.stop()
        let lost = Date()
        let (result, seconds, killed) = try await run.end(within: .seconds(30), from: lost)
        return LostSourceRun(
            framesArrived: arrived, result: result, seconds: seconds, killed: killed,
            report: folder.appendingPathComponent("report.json"))
    }

    /// A run of a UDP source that never sends, with `--stall-timeout 2`.
    static func silentUDPRun() async throws -> LostSourceRun {
        let folder = try makeTemporaryFolder()
        let run = try BackgroundRun(
            ["run", "--input",
             "udpsrc port=\(freeLoopbackPort()) caps=\"application/x-rtp,media=video,encoding-name=H264,payload=96,clock-rate=90000\" ! rtph264depay ! avdec_h264",
             "--output", "null", "--stall-timeout", "2", "--quiet", "--report", "report.json"],
            folder: folder)
        let (result, seconds, killed) = try await run.end(within: .seconds(20))
        return LostSourceRun(result: result, seconds: seconds, killed: killed, report: folder.appendingPathComponent("report.json"))
    }

    /// The server is gone for good: after `--reconnect-max` attempts the run ends with one line and its report.
    @Test func anRTSPServerThatStaysAwayEndsTheRunAfterTheAttempts() async throws {
        let run = try await Self.lostSourceRuns.value.staysAway
        #expect(run.framesArrived, "no frames arrived from the server")
        #expect(!run.killed, "still running 30 s after the server went; killed")
        let (result, seconds) = (run.result, run.seconds)
        #expect(result.status == 1)
        #expect(result.standardError.contains("did not come back after 2 reconnection attempts"), "\(result.standardError)")
        #expect(seconds < 15)
        let report = try Report(run.report)
        #expect(report.reconnects.attempts == 2)
        #expect(report.reconnects.count == 0)
        // The outage the run ended in still counts as time without input (it read 0): two backoffs, 0.5 + 1 s.
        #expect(report.reconnects.totalMilliseconds >= 1500, "\(report.reconnects)")
        #expect(report.decoded > 10)
        #expect(report.conservesFrames)
    }

    /// A stream that worked and then went away (no reconnection asked) is "lost partway", not "could not be opened":
    /// the user's address was right.
    @Test func aStreamLostWithoutReconnectionSaysItWasLostPartway() async throws {
        let run = try await Self.lostSourceRuns.value.lostPartway
        #expect(run.framesArrived, "no frames arrived from the server")
        #expect(!run.killed, "still running 30 s after the server went; killed")
        let result = run.result
        #expect(result.status == 1)
        #expect(result.standardError.contains("was lost partway"), "\(result.standardError)")
        #expect(!result.standardError.contains("could not be opened"), "\(result.standardError)")
        // Nobody stopped the run: a frame it could not keep is a stream error, not an interruption.
        let report = try Report(run.report)
        #expect(report.conservesFrames)
        #expect((report.dropped["interrupted"] ?? 0) == 0, "\(report.dropped)")
    }

    /// `--reconnect` on an input read like a file (an HTTP download, a local file) cannot be honoured — reopening it
    /// would start it again — and was silently ignored; now the run says so at start.
    @Test func reconnectOnAnInputReadLikeAFileSaysItDoesNotApply() async throws {
        let folder = try makeTemporaryFolder()
        let input = try await Corpus.file("odd-17x9.mkv")
        let result = try await runTool(
            ["run", "--input", input.path, "--output", "null", "--reconnect", "--quiet"], in: folder)
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardError.contains("--reconnect applies to live sources"), "\(result.standardError)")
        // Asked for by a pipeline file, the warning names the file and key (it named the flag).
        let pipeline = folder.appendingPathComponent("p.yaml")
        try "source: { input: \(input.path), reconnect: true }\n".write(to: pipeline, atomically: true, encoding: .utf8)
        let fromFile = try await runTool(["run", pipeline.path, "--output", "null", "--quiet"], in: folder)
        #expect(fromFile.status == 0, "stderr: \(fromFile.standardError)")
        #expect(fromFile.standardError.contains("\(pipeline.path): 'source.reconnect' applies to live sources"),
                "\(fromFile.standardError)")
    }

    /// Nothing listens at the address: the run fails at once (reconnection is for inputs that worked), saying so —
    /// GStreamer's sources said only "Could not open resource for reading and writing." (RTSP) and "Internal data
    /// stream error." (HTTP).
    @Test(arguments: ["rtsp", "http"])
    func aServerThatIsNotThereFailsAtOnceSayingSo(scheme: String) async throws {
        let folder = try makeTemporaryFolder()
        let port = freeLoopbackPort()
        let (result, seconds) = try await timedRun(
            ["run", "--input", "\(scheme)://127.0.0.1:\(port)/test", "--output", "null", "--quiet"],
            in: folder, limit: .seconds(30))
        #expect(result.status == 1)
        #expect(result.standardError.contains("could not be opened (nothing accepts connections at 127.0.0.1:\(port))"),
                "\(result.standardError)")
        #expect(seconds < 15)
        // One line: no summary of the frames it never had.
        #expect(!result.standardOutput.contains("frames: decoded"), "\(result.standardOutput)")
    }

    /// A UDP source that never sends: `--stall-timeout` ends the run with a clear line and a report.
    @Test func aSilentUDPSourceEndsAtTheStallTimeout() async throws {
        let run = try await Self.lostSourceRuns.value.silent
        #expect(!run.killed, "still running after 20 s; killed")
        let (result, seconds) = (run.result, run.seconds)
        #expect(result.status == 1)
        #expect(result.standardError.contains("sent nothing for 2 s (--stall-timeout)"), "\(result.standardError)")
        #expect(!result.standardOutput.contains("frames: decoded"), "\(result.standardOutput)")
        #expect(seconds < 6)
        let report = try Report(run.report)
        #expect(report.decoded == 0)
        #expect(report.live)
    }

    /// Ctrl-C while waiting for a live source's first frame: exit 130 at once.
    @Test func anInterruptBeforeTheFirstFrameEndsTheRun() async throws {
        let folder = try makeTemporaryFolder()
        let metricsPort = freeLoopbackPort()
        let run = try BackgroundRun(
            ["run", "--input",
             "udpsrc port=\(freeLoopbackPort()) caps=\"application/x-rtp,media=video,encoding-name=H264,payload=96,clock-rate=90000\" ! rtph264depay ! avdec_h264",
             "--output", "out.mkv", "--quiet", "--metrics-port", String(metricsPort)],
            folder: folder)
        #expect(try await waitUntil { decodedFrames(metricsPort: metricsPort) != nil }, "the run never started")
        let signalled = Date()
        run.signal(SIGINT)
        let (result, seconds) = try await run.finish(within: .seconds(15), from: signalled)
        #expect(result.status == 130, "\(result.standardError)")
        #expect(seconds < 4)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains { $0.hasPrefix("out.mkv") }, "\(names)")
    }
}
