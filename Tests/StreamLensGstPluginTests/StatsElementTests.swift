import Foundation
import StreamLensStats
import Testing

/// streamlensstats: the command line's report (schema version 1) for any point of a pipeline, frames conserved
/// even when a sink throws late frames away, and periodic `streamlens-stats` messages.
@Suite(.serialized) struct StatsElementTests {
    static func report(at url: URL) throws -> RunReport {
        try JSONDecoder().decode(RunReport.self, from: Data(contentsOf: url))
    }

    /// `frames` frames of a live 30 fps 320×240 source through the element (`interval` seconds between messages),
    /// then `downstream`: the messages and the report, the run having ended well.
    static func liveRun(frames: Int, interval: String, downstream: String) async throws -> (MetaRecording, RunReport) {
        try PluginHarness.requirePlugin()
        let reportFile = try PluginHarness.temporaryFolder().appendingPathComponent("run.json")
        let recording = try await PluginHarness.readMetas(
            "videotestsrc is-live=true num-buffers=\(frames) ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 "
                + "! streamlensstats name=metas report=\(reportFile.path) interval=\(interval) ! \(downstream)")
        #expect(recording.outcome.status == 0, "stderr: \(recording.outcome.standardError)")
        return (recording, try report(at: reportFile))
    }

    @Test func underForcedOverloadEveryFrameIsOutputOrCountedAsDroppedAtTheSink() async throws {
        // 45 ms of work per frame downstream of a 30 fps source: the clocked sink drops what comes too late.
        let (recording, report) = try await Self.liveRun(
            frames: 90, interval: "0.5", downstream: "identity sleep-time=45000 ! fakesink sync=true qos=true max-lateness=20000000")
        #expect(report.schemaVersion == 1)
        #expect(report.run.live)
        #expect(report.frames.decoded == 90)
        let dropped = report.frames.dropped.values.reduce(0, +)
        #expect(report.frames.decoded == report.frames.output + dropped)
        let late = try #require(report.frames.dropped["late_at_sink"])
        #expect(late > 30, "late_at_sink \(late)")
        #expect(report.frames.output > 0)
        // 45 ms per push at 30 fps is backpressure, not a silent source.
        #expect(report.blocked.count >= 1)
        #expect(report.stalls.count == 0)
        #expect(report.latencyMilliseconds.p50 >= 40, "latency p50 \(report.latencyMilliseconds.p50)")

        // The messages went out while running, and the last one agrees with the report.
        let messages = recording.messages(named: "streamlens-stats")
        #expect(messages.count >= 3, "\(messages.count) messages")
        let last = try #require(messages.last)
        #expect(last["final"] as? Bool == true)
        #expect(last["decoded"] as? Int == report.frames.decoded)
        #expect(last["late_at_sink"] as? Int == late)
        #expect(last["output"] as? Int == report.frames.output)
    }

    /// Frames still queued after the element when end-of-stream passed it are dropped by the sink later: the report
    /// (and the final message) waited only for the element, and counted 22 of them as output where the sink showed 3.
    @Test func framesAQueueAfterTheElementHeldAndTheSinkDroppedAreNotOutput() async throws {
        // 60 ms of work per frame at 30 fps behind a queue: the clocked sink renders only the first few in time.
        let (recording, report) = try await Self.liveRun(
            frames: 60, interval: "0", downstream: "queue ! identity sleep-time=60000 ! fakesink sync=true qos=true max-lateness=10000000")
        #expect(report.frames.decoded == 60)
        let late = try #require(report.frames.dropped["late_at_sink"])
        #expect(report.frames.output + late == 60)
        #expect(report.frames.output <= 8, "output \(report.frames.output), late \(late)")
        let last = try #require(recording.messages(named: "streamlens-stats").last)
        #expect(last["final"] as? Bool == true)
        #expect(last["output"] as? Int == report.frames.output)
        #expect(last["late_at_sink"] as? Int == late)
    }

    /// `report=` names a file the element did not write (the pipeline's own recording, a user's settings): it is
    /// refused before the pipeline starts and left as it was; a report the element wrote is replaced.
    @Test func aFileThatIsNotAReportIsNotReplaced() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let recording = folder.appendingPathComponent("drive.mp4")
        try FileManager.default.copyItem(atPath: try PluginHarness.media("bikes.mp4"), toPath: recording.path)
        let original = try Data(contentsOf: recording)
        let refused = try await PluginHarness.launch(
            "filesrc location=\(recording.path) ! decodebin ! streamlensstats report=\(recording.path) ! fakesink")
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("holds a file StreamLens did not write"), "\(refused.standardError)")
        #expect(try Data(contentsOf: recording) == original)

        let reportFile = folder.appendingPathComponent("run.json")
        try Data("{\"theme\": \"dark\"}\n".utf8).write(to: reportFile)
        let head = "videotestsrc num-buffers=5 ! video/x-raw,format=I420,width=64,height=48 ! streamlensstats"
        let settings = try await PluginHarness.launch("\(head) report=\(reportFile.path) ! fakesink")
        #expect(settings.status != 0)
        #expect(try String(contentsOf: reportFile, encoding: .utf8) == "{\"theme\": \"dark\"}\n")

        try FileManager.default.removeItem(at: reportFile)
        for _ in 0..<2 {
            let run = try await PluginHarness.launch("\(head) report=\(reportFile.path) ! fakesink")
            #expect(run.status == 0, "stderr: \(run.standardError)")
        }
        #expect(try Self.report(at: reportFile).frames.decoded == 5)
    }

    @Test func aFileRunLosesNothingAndSeesEveryFrame() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let reportFile = folder.appendingPathComponent("run.json")
        let result = try await PluginHarness.launch(
            "filesrc location=\(try PluginHarness.media("bikes.mp4")) ! decodebin ! videoconvert "
                + "! streamlensstats report=\(reportFile.path) ! fakesink sync=false")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let report = try Self.report(at: reportFile)
        // bikes.mp4: 10 s at 25 fps.
        #expect(report.frames.decoded == 250)
        #expect(report.frames.output == 250)
        #expect(report.frames.dropped.values.allSatisfy { $0 == 0 })
        #expect(report.frames.gaps == 0)
        #expect(!report.run.live)
        #expect(report.run.input.hasPrefix("video/x-raw"))
        #expect(!report.run.interrupted)
    }

    /// A live 30 fps source whose frames take 50 ms each to come: the report says how far behind real time it fell
    /// and the element warns at the end, as the command line does. The element times only the push: its report held
    /// `pool_wait` and `composite` as zeros for every frame, which `streamlens stats` compared with a run's as "0.00×".
    @Test func aLiveSourceThatFallsBehindIsWarnedAboutAndOnlyThePushIsTimed() async throws {
        try PluginHarness.requirePlugin()
        let reportFile = try PluginHarness.temporaryFolder().appendingPathComponent("run.json")
        let result = try await PluginHarness.launch(
            "videotestsrc is-live=true num-buffers=75 ! video/x-raw,width=320,height=240,framerate=30/1 "
                + "! identity sleep-time=50000 ! streamlensstats report=\(reportFile.path) ! fakesink")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let report = try Self.report(at: reportFile)
        #expect(Set(report.stages.keys) == ["push"], "\(report.stages.keys)")
        let behind = try #require(report.behindRealTimeMilliseconds)
        #expect((1000...2500).contains(behind.max), "\(behind)")
        #expect(result.standardOutput.contains("the live source fell 1."), "stdout: \(result.standardOutput)")
        // The messages say it as it grows (gst-launch -m prints them).
        let lags = result.standardOutput.matches(of: /behind_real_time_ms=\(double\)([0-9.]+)/).compactMap { Double($0.1) }
        #expect(!lags.isEmpty && lags.last! >= 1000, "\(lags)")
    }

    /// A pipeline that fails before its first frame (another element cannot start) records nothing, and left an
    /// empty report over the last run's good one.
    @Test func aPipelineThatNeverStartsLeavesTheLastReportAlone() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let reportFile = folder.appendingPathComponent("run.json")
        let head = "videotestsrc num-buffers=30 ! video/x-raw,format=I420,width=64,height=48"
        let good = try await PluginHarness.launch(
            "\(head) ! streamlensstats report=\(reportFile.path) ! fakesink sync=false")
        #expect(good.status == 0, "stderr: \(good.standardError)")
        let written = try Data(contentsOf: reportFile)
        let failed = try await PluginHarness.launch(
            "\(head) ! streamlensdetect detector=onnx:/no/such/model.onnx ! streamlensstats report=\(reportFile.path) "
                + "! fakesink sync=false")
        #expect(failed.status != 0)
        #expect(try Data(contentsOf: reportFile) == written)
        #expect(try Self.report(at: reportFile).frames.decoded == 30)
    }

    @Test func framesMissingFromTheSourceAreGaps() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let reportFile = folder.appendingPathComponent("run.json")
        // videorate throws away every other frame upstream of the element; capssetter keeps announcing 30 fps, as a
        // source that loses frames does.
        let result = try await PluginHarness.launch(
            "videotestsrc num-buffers=100 ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 "
                + "! videorate drop-only=true max-rate=15 ! capssetter caps=video/x-raw,framerate=30/1 "
                + "! streamlensstats report=\(reportFile.path) ! fakesink")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let report = try Self.report(at: reportFile)
        #expect(report.frames.decoded == 50)
        #expect(report.frames.output == 50)
        // One frame is missing between each two that arrived.
        #expect(report.frames.missingFrames == 49, "missing \(report.frames.missingFrames)")
        #expect(report.frames.gaps == 49)
    }

    /// A user's pause of a live pipeline is not the source's fault. Behind a queue the element pushes nothing while
    /// paused: the silence was a 1.5 s stall and the first frame after it a 1.5 s jitter sample. Into a paused sink
    /// the push is held: it was 1.5 s of latency and backpressure, and the live source's timestamps skipping the
    /// pause a gap.
    @Test(arguments: ["queue ! fakesink sync=true", "fakesink sync=true"])
    func aPauseIsNeitherAStallNorLatencyNorAGap(tail: String) async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let reportFile = folder.appendingPathComponent("run.json")
        let script = """
            import sys, time, gi
            gi.require_version("Gst", "1.0")
            from gi.repository import Gst
            Gst.init(None)
            pipeline = Gst.parse_launch(sys.argv[1])
            pipeline.set_state(Gst.State.PLAYING); time.sleep(0.6)
            pipeline.set_state(Gst.State.PAUSED); time.sleep(1.5)
            pipeline.set_state(Gst.State.PLAYING); time.sleep(0.6)
            pipeline.send_event(Gst.Event.new_eos())
            message = pipeline.get_bus().timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
            pipeline.set_state(Gst.State.NULL)
            print("ended", message.type == Gst.MessageType.EOS if message else None)
            """
        let description = "videotestsrc is-live=true ! video/x-raw,width=160,height=120,framerate=30/1 "
            + "! streamlensstats report=\(reportFile.path) stall-threshold=0.2 ! \(tail)"
        let result = try await PluginHarness.run(PluginHarness.python, ["-c", script, description])
        #expect(result.standardOutput.contains("ended True"), "\(result.standardOutput) \(result.standardError)")
        let report = try Self.report(at: reportFile)
        // About 1.2 s of playing at 30 fps.
        #expect(report.frames.decoded > 20, "decoded \(report.frames.decoded)")
        #expect(report.stalls.count == 0, "stalls \(report.stalls)")
        #expect(report.frames.gaps == 0)
        #expect(report.jitterMilliseconds.max < 500, "jitter \(report.jitterMilliseconds)")
        #expect(report.latencyMilliseconds.max < 500, "latency \(report.latencyMilliseconds)")
        #expect(report.blocked.totalMilliseconds < 500, "blocked \(report.blocked)")
    }

    /// An application's seek skips frames on purpose: they were 1 gap and ~88 "missing frames" of the source.
    @Test func aSeekIsNoGap() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let reportFile = folder.appendingPathComponent("run.json")
        let script = """
            import sys, time, gi
            gi.require_version("Gst", "1.0")
            from gi.repository import Gst
            Gst.init(None)
            pipeline = Gst.parse_launch(sys.argv[1])
            pipeline.set_state(Gst.State.PLAYING); time.sleep(0.8)
            pipeline.seek_simple(Gst.Format.TIME, Gst.SeekFlags.FLUSH | Gst.SeekFlags.KEY_UNIT, 7 * Gst.SECOND)
            message = pipeline.get_bus().timed_pop_filtered(30 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
            pipeline.set_state(Gst.State.NULL)
            print("ended", message.type == Gst.MessageType.EOS if message else None)
            """
        let description = "filesrc location=\(try PluginHarness.media("bikes.mp4")) ! decodebin "
            + "! streamlensstats report=\(reportFile.path) ! fakesink sync=true"
        let result = try await PluginHarness.run(PluginHarness.python, ["-c", script, description])
        #expect(result.standardOutput.contains("ended True"), "\(result.standardOutput) \(result.standardError)")
        let report = try Self.report(at: reportFile)
        // About 0.8 s before the seek and 3 s after it, of the clip's 250 frames at 25 fps.
        #expect((40...200).contains(report.frames.decoded), "decoded \(report.frames.decoded)")
        #expect(report.frames.gaps == 0)
        #expect(report.frames.missingFrames == 0)
        #expect(report.stalls.count == 0, "stalls \(report.stalls)")
    }

    @Test func metricsAreServedWhileThePipelineRuns() async throws {
        try PluginHarness.requirePlugin()
        // Below the kernel's ephemeral range (32768 and up): no outgoing connection of another test holds it.
        let port = Int.random(in: 20_000..<32_000)
        // One Python process runs the pipeline and scrapes it, then ends it: no race between a separate scraper's
        // start-up and the pipeline's end on a loaded machine (a live source of 2000 frames runs 67 s at most).
        let script = """
            import sys, time, urllib.request, gi
            gi.require_version("Gst", "1.0")
            from gi.repository import Gst
            Gst.init(None)
            pipeline = Gst.parse_launch(sys.argv[1])
            pipeline.set_state(Gst.State.PLAYING)
            decoded, failures, deadline = None, [], time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[2], timeout=5).read().decode()
                    lines = [l for l in text.splitlines() if l.startswith("streamlens_frames_decoded")]
                    decoded = float(lines[0].split()[-1]) if lines else None
                    if decoded is not None and decoded > 10:
                        break
                except Exception as error:
                    failures.append(repr(error))
                time.sleep(0.25)
            pipeline.send_event(Gst.Event.new_eos())
            message = pipeline.get_bus().timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
            pipeline.set_state(Gst.State.NULL)
            print("decoded", decoded)
            print("failures", len(failures), failures[-1] if failures else "")
            print("ended", message.type == Gst.MessageType.EOS if message else None)
            """
        let description = "videotestsrc is-live=true num-buffers=2000 ! video/x-raw,width=160,height=120,framerate=30/1 "
            + "! streamlensstats metrics-port=\(port) interval=0 ! fakesink"
        let result = try await PluginHarness.run(PluginHarness.python, ["-c", script, description, "\(port)"])
        let output = "\(result.standardOutput) \(result.standardError)"
        let decodedLine = result.standardOutput.split(separator: "\n").first { $0.hasPrefix("decoded ") }
        let decoded = decodedLine.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
        #expect(decoded.map { $0 > 10 && $0 < 2000 } == true, "\(output)")
        #expect(result.standardOutput.contains("ended True"), "\(output)")
    }
}
