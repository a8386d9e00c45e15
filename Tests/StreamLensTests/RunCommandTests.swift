import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import StreamLens
import StreamLensGStreamer

@Suite(.serialized) struct RunCommandTests {
    @Test func fileOutputHasEveryInputFrameOnceAndInOrder() async throws {
        let folder = try makeTemporaryFolder()
        let output = folder.appendingPathComponent("out.mp4")
        let result = try await runTool([
            "run", "--input", "videotestsrc num-buffers=75 ! video/x-raw,width=320,height=240,framerate=25/1",
            "--output", output.path, "--stamp", "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let decoded = try await decode(output)
        #expect(decoded.frames.count == 75)
        #expect(decoded.frames.map(\.stampIndex) == Array(0..<75).map { Optional($0) })
        #expect((decoded.width, decoded.height) == (320, 240))
        // Timestamps pass through: the last frame starts at 74/25 s.
        #expect(decoded.frames.last?.pts == .milliseconds(2960))
    }

    /// `streamlens run` alone runs the built-in demo; with the street clip missing it falls back to a test pattern.
    @Test(arguments: [true, false])
    func builtInDemoReadsItsSignAndWritesEveryOutput(withStreetClip: Bool) async throws {
        let folder = try makeTemporaryFolder()
        let media = withStreetClip ? repositoryRoot.appendingPathComponent(".media-cache/media").path : "/nonexistent"
        let result = try await runTool(["run", "--quiet"], in: folder, environment: ["STREAMLENS_MEDIA": media])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        for name in ["streamlens-demo.mp4", "streamlens-demo-report.json", "streamlens-demo-report.html",
                     "streamlens-demo-events.jsonl", "streamlens-demo-limits.vtt"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }
        let events = try String(contentsOf: folder.appendingPathComponent("streamlens-demo-events.jsonl"), encoding: .utf8)
        #expect(events.contains("\"type\":\"speed_limit\""))
        #expect(events.contains("\"value\":50"))
        // On the street clip HOG finds the cyclist; the test pattern has no people.
        #expect(events.contains("\"class\":\"person\"") == withStreetClip)
        #expect(try await decode(folder.appendingPathComponent("streamlens-demo.mp4")).frames.count == 250)
    }

    @Test(arguments: ["mkv", "webm", "mov"])
    func otherContainersKeepEveryFrame(extension ext: String) async throws {
        let folder = try makeTemporaryFolder()
        let output = folder.appendingPathComponent("out.\(ext)")
        let result = try await runTool([
            "run", "--input", "videotestsrc num-buffers=20 ! video/x-raw,width=320,height=240,framerate=25/1",
            "--output", output.path, "--stamp", "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(try await decode(output).frames.map(\.stampIndex) == Array(0..<20).map { Optional($0) })
    }

    /// A still image is a one-frame input, and the file it is written to lasts one frame: decoded alone it had no
    /// frame rate and no duration, which MP4 wrote as a video of length 0 that players show as empty.
    @Test(arguments: ["mkv", "mp4"]) func stillImageIsAOneFrameInput(container: String) async throws {
        let folder = try makeTemporaryFolder()
        let image = folder.appendingPathComponent("still.jpg")
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        make.arguments = ["-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=320,height=240", "!", "jpegenc", "!",
                          "filesink", "location=\(image.path)"]
        try make.run()
        make.waitUntilExit()
        let output = folder.appendingPathComponent("still.\(container)")
        let result = try await runTool(["run", "--input", image.path, "--output", output.path, "--stamp", "--quiet"])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(try await decode(output).frames.count == 1)
        let probe = try Pipeline("filesrc location=\"\(output.path)\" ! decodebin ! fakesink", label: "probe")
        try probe.setState(.paused)
        _ = probe.waitForState(timeout: .seconds(10))
        let duration = probe.queryDuration()
        try probe.setState(.null)
        #expect(duration == .milliseconds(40), "container duration \(String(describing: duration))")
    }

    /// Two reports of the same name in two folders are told apart by their folders (both columns said "run.json").
    @Test func statsNamesTwoReportsOfTheSameNameByTheirFolders() async throws {
        let folder = try makeTemporaryFolder()
        for name in ["monday", "tuesday"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
            let result = try await runTool(
                ["run", "--input", "videotestsrc num-buffers=5 ! video/x-raw,width=64,height=48", "--output", "null",
                 "--report", "\(name)/run.json", "--quiet"], in: folder)
            #expect(result.status == 0, "stderr: \(result.standardError)")
        }
        let result = try await runTool(["stats", "monday/run.json", "tuesday/run.json"], in: folder)
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("monday/run.json:") && result.standardOutput.contains("tuesday/run.json:"),
                "\(result.standardOutput)")
        // The same report twice is named by its file name (its whole path less the leading "/" was the name).
        let twice = try await runTool(["stats", folder.appendingPathComponent("monday/run.json").path,
                                       folder.appendingPathComponent("monday/run.json").path], in: folder)
        #expect(twice.status == 0, "stderr: \(twice.standardError)")
        #expect(twice.standardOutput.hasPrefix("run.json: "), "\(twice.standardOutput)")
    }

    /// An MP4 with B-frames starts its first frame at 80 ms and says so in its edit list (the segment's start): every
    /// time StreamLens writes — timeline, events, subtitles, the output's timestamps — is stream time, 0 for that
    /// frame, as players and ffprobe count. (Everything was 80 ms late: the last frame at 10.04 s of a 10 s clip.)
    @Test func timesAreStreamTimeForAnMP4WhoseFirstFrameIsAt80Milliseconds() async throws {
        let folder = try makeTemporaryFolder()
        let input = try await Corpus.file("bikes-faststart.mp4")
        let output = folder.appendingPathComponent("out.mkv")
        let result = try await runTool(
            ["run", "--input", input.path, "--output", output.path, "--timeline", "t.csv", "--quiet"], in: folder)
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let rows = try String(contentsOf: folder.appendingPathComponent("t.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.first?[1] == "0.000" && rows.last?[1] == "9960.000", "first \(rows.first ?? []), last \(rows.last ?? [])")
        let decoded = try await decode(output)
        #expect(decoded.frames.first?.pts == .zero && decoded.frames.count == 250)
    }

    /// vtest.avi's codec (MS-MPEG4) has a libav decoder without `max-threads`: a frame-accurate run with analysis
    /// used to set it anyway, and GLib printed a warning on the user's terminal.
    @Test func aDecoderWithoutThreadSettingsRunsQuietly() async throws {
        let folder = try makeTemporaryFolder()
        let clip = folder.appendingPathComponent("msmpeg4.avi")
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        make.arguments = ["-q", "videotestsrc", "num-buffers=10", "!", "video/x-raw,width=320,height=240", "!",
                          "avenc_msmpeg4", "!", "avimux", "!", "filesink", "location=\(clip.path)"]
        try make.run()
        make.waitUntilExit()
        let result = try await runTool([
            "run", "--input", clip.path, "--output", "null", "--speed-limits", "eu", "--sync-analysis", "on", "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardError.isEmpty, "stderr: \(result.standardError)")
    }

    @Test func sinkDescriptionStreamsRTPThatAReceiverDecodes() async throws {
        // A receiver on loopback, started first, counts the frames it can decode.
        let port = 15_000 + Int.random(in: 0..<2000)
        let receiver = try Pipeline(
            "udpsrc port=\(port) caps=\"application/x-rtp,media=video,encoding-name=H264,payload=96,clock-rate=90000\" "
                + "! rtph264depay ! avdec_h264 ! fakesink name=counter signal-handoffs=false sync=false", label: "receiver")
        try receiver.setState(.playing)
        // A live (paced) source: UDP on loopback keeps up with 30 fps, a burst could overflow the socket buffer.
        let result = try await runTool([
            "run", "--input", "videotestsrc is-live=true num-buffers=60 ! video/x-raw,width=320,height=240,framerate=30/1",
            "--output",
            "x264enc tune=zerolatency speed-preset=ultrafast key-int-max=10 ! rtph264pay config-interval=1 pt=96 "
                + "! udpsink host=127.0.0.1 port=\(port) sync=false",
            "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        // Every buffer that reached the receiver's sink was a decoded frame; loopback loses nothing here. The last
        // packets may still be in the receiver's decoder: wait for the count, not for a time.
        _ = try await waitUntil(within: .seconds(10)) { receiver.renderedFrames(sinkName: "counter") >= 50 }
        let received = receiver.renderedFrames(sinkName: "counter")
        try receiver.setState(.null)
        #expect(received >= 50, "receiver decoded \(received) of 60 frames")
    }

    @Test func terminateSignalAlsoFinalizesTheFile() async throws {
        let folder = try makeTemporaryFolder()
        let metricsPort = freeLoopbackPort()
        let output = folder.appendingPathComponent("live.mkv")
        let process = Process()
        process.executableURL = streamlensExecutable
        process.arguments = [
            "run", "--input", "videotestsrc is-live=true ! video/x-raw,width=320,height=240,framerate=30/1",
            "--output", output.path, "--stamp", "--quiet", "--metrics-port", String(metricsPort),
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Stopped once the encoder has written and a second of frames (30) has gone to the output.
        #expect(try await waitUntil { fileSize(output.path + ".partial") >= 20_000 }, "the encoder wrote nothing")
        #expect(try await waitUntil { (outputFrames(metricsPort: metricsPort) ?? 0) >= 30 }, "no frames went out")
        process.terminate()
        try await offThePool { process.waitUntilExit() }
        #expect(process.terminationStatus == 130)
        #expect(try await decode(output).frames.count > 10)
    }

    /// GNU `timeout` sends SIGTERM to the program and again to its process group: the two signals, moments apart,
    /// were taken as a second interrupt and stopped the run hard (frames in flight lost).
    @Test func twoSignalsSentTogetherAreOneStop() async throws {
        let folder = try makeTemporaryFolder()
        let metricsPort = freeLoopbackPort()
        let output = folder.appendingPathComponent("live.mkv")
        let report = folder.appendingPathComponent("report.json")
        let process = Process()
        process.executableURL = streamlensExecutable
        process.arguments = [
            "run", "--input", "videotestsrc is-live=true ! video/x-raw,width=320,height=240,framerate=30/1",
            "--output", output.path, "--report", report.path, "--quiet", "--metrics-port", String(metricsPort),
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        #expect(try await waitUntil { fileSize(output.path + ".partial") >= 20_000 }, "the encoder wrote nothing")
        #expect(try await waitUntil { (outputFrames(metricsPort: metricsPort) ?? 0) >= 30 }, "no frames went out")
        // 20 ms apart: two signals at once are merged while pending, but the first is often taken by then.
        kill(process.processIdentifier, SIGTERM)
        usleep(20_000)
        kill(process.processIdentifier, SIGTERM)
        try await offThePool { process.waitUntilExit() }
        #expect(process.terminationStatus == 130)
        let run = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])["run"] as? [String: Any]
        #expect(run?["hard_stop"] as? Bool != true, "\(String(describing: run))")
        #expect(run?["interrupted"] as? Bool == true)
        #expect(try await decode(output).frames.count > 10)
    }

    @Test func interruptFinalizesAPlayableFileAndExitsWith130() async throws {
        let folder = try makeTemporaryFolder()
        let output = folder.appendingPathComponent("live.mp4")
        let reportPath = folder.appendingPathComponent("report.json")
        let run = try BackgroundRun(
            [
                "run", "--input", "videotestsrc is-live=true ! video/x-raw,width=640,height=360,framerate=30/1",
                "--output", output.path, "--stamp", "--quiet", "--report", reportPath.path,
            ], folder: folder)
        // Interrupt once the encoder has written a good many frames (not after a fixed time: a loaded machine may
        // still be starting the pipeline).
        #expect(try await waitUntil { fileSize(output.path + ".partial") >= 200_000 }, "the encoder wrote nothing")
        run.signal(SIGINT)
        let (result, _) = try await run.finish(within: .seconds(20))
        #expect(result.status == 130, "stderr: \(result.standardError)")
        // The summary does not call a part of the input the whole of it.
        #expect(result.standardOutput.contains("output written up to the interruption: \(output.path)"),
                "stdout: \(result.standardOutput)")
        let decoded = try await decode(output)
        #expect(decoded.frames.count > 10)
        let report = try Report(reportPath)
        #expect(report.interrupted)
        #expect(report.output == decoded.frames.count)
        #expect(report.decoded == report.output + report.droppedTotal)
        // Frames are in order with nothing repeated.
        let indices = decoded.frames.compactMap(\.stampIndex)
        #expect(indices.count == decoded.frames.count)
        #expect(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// `streamlens run … 2>&1 | tee log` stopped with Ctrl-C: tee dies too, and the run's next line hit a closed pipe
    /// — SIGPIPE killed it mid-drain, leaving an MP4 without its index and no report (a QA sweep). A closed terminal or
    /// SSH session (SIGHUP) killed it the same way. Both now stop the run as Ctrl-C does.
    @Test(arguments: [SIGINT, SIGHUP])
    func aRunWhoseOutputPipesAreClosedStillFinishesItsFilesWhenStopped(signal: Int32) async throws {
        let folder = try makeTemporaryFolder()
        let output = folder.appendingPathComponent("live.mp4")
        let reportPath = folder.appendingPathComponent("report.json")
        // Not quiet: the progress line is written to the closed stderr every half second.
        let run = try BackgroundRun(
            [
                "run", "--input", "videotestsrc is-live=true ! video/x-raw,width=640,height=360,framerate=30/1",
                "--output", output.path, "--report", reportPath.path,
            ], folder: folder, closedPipes: true)
        #expect(try await waitUntil { fileSize(output.path + ".partial") >= 200_000 }, "the encoder wrote nothing")
        run.signal(signal)
        let (result, _) = try await run.finish(within: .seconds(20))
        #expect(result.status == 130)
        #expect(try await decode(output).frames.count > 10)
        #expect(try Report(reportPath).interrupted)
    }

    /// A Ctrl-C that arrives while the program is still starting stops the run (a QA sweep lost 2 of 45 sent in the
    /// first milliseconds: the signals were ignored until libdispatch had registered their sources, and the run went
    /// on to its end). Here the signal is already pending when `streamlens` starts: blocked by the Python that
    /// execs it, sent, and kept across exec. `stats`, which reads no stop signal, is ended by it as usual.
    @Test func aStopSentWhileTheProgramStartsIsNotLost() async throws {
        let folder = try makeTemporaryFolder()
        let pendingInterrupt = [
            "/usr/bin/python3", "-c",
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}); "
                + "os.kill(os.getpid(), signal.SIGINT); os.execv(sys.argv[1], sys.argv[1:])",
        ]
        let output = folder.appendingPathComponent("out.mp4")
        let (result, _) = try await timedRun(
            ["run", "--input", DetectionRunTests.pedestrians.path, "--output", output.path, "--speed-limits", "off"],
            in: folder, limit: .seconds(60), prefix: pendingInterrupt)
        #expect(result.status == 130, "\(result.standardError)")
        #expect(result.standardError.contains("interrupted"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output.path))

        try Data("{}".utf8).write(to: folder.appendingPathComponent("report.json"))
        let stats = try BackgroundRun(["stats", "report.json"], folder: folder, prefix: pendingInterrupt)
        _ = try await stats.finish(within: .seconds(20))
        #expect(stats.process.terminationReason == .uncaughtSignal && stats.process.terminationStatus == SIGINT)
    }

    /// `nohup streamlens run …`: the hang-up of a closed terminal, which `nohup` set to be ignored, stopped the run
    /// anyway (the run's own SIGHUP handler replaced the inherited "ignore"). A signal ignored at start stays ignored.
    @Test func aRunStartedUnderNohupIgnoresAHangUp() async throws {
        let folder = try makeTemporaryFolder()
        let output = folder.appendingPathComponent("live.mp4")
        let run = try BackgroundRun(
            [
                "run", "--input", "videotestsrc is-live=true num-buffers=90 ! video/x-raw,width=320,height=240,framerate=30/1",
                "--output", output.path, "--quiet",
            ], folder: folder,
            prefix: ["/usr/bin/python3", "-c", "import os, signal, sys; signal.signal(signal.SIGHUP, signal.SIG_IGN); os.execv(sys.argv[1], sys.argv[1:])"])
        #expect(try await waitUntil { fileSize(output.path + ".partial") > 0 }, "the encoder wrote nothing")
        run.signal(SIGHUP)
        let (result, _) = try await run.finish(within: .seconds(30))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await decode(output).frames.count == 90)
    }

    /// A re-run stopped halfway replaced the earlier run's whole file (250 frames) with its 38: an interrupted run
    /// whose files already exist keeps its own as NAME.partial beside them.
    @Test func anInterruptedRerunLeavesTheEarlierRunsFilesAlone() async throws {
        let folder = try makeTemporaryFolder()
        let metricsPort = freeLoopbackPort()
        let output = folder.appendingPathComponent("drive.mkv")
        let reportPath = folder.appendingPathComponent("drive.json")
        // (The report as StreamLens writes one: a run replaces only its own kind of file.)
        let earlierVideo = Data("the earlier run's whole video".utf8)
        let earlierReport = Data(#"{"run":{"streamlens_version":"0.1.0"},"schema_version":1}"#.utf8)
        try earlierVideo.write(to: output)
        try earlierReport.write(to: reportPath)
        let run = try BackgroundRun(
            [
                "run", "--input", "videotestsrc is-live=true ! video/x-raw,width=640,height=360,framerate=30/1",
                "--output", output.path, "--quiet", "--report", reportPath.path, "--metrics-port", String(metricsPort),
            ], folder: folder)
        // The file sink writes as the muxer does: 100 kB may be the first few frames; wait for a second's more.
        #expect(try await waitUntil { fileSize(output.path + ".partial") >= 100_000 }, "the encoder wrote nothing")
        #expect(try await waitUntil { (outputFrames(metricsPort: metricsPort) ?? 0) >= 30 }, "no frames went out")
        run.signal(SIGINT)
        let (result, _) = try await run.finish(within: .seconds(20))
        #expect(result.status == 130, "stderr: \(result.standardError)")
        #expect(try Data(contentsOf: output) == earlierVideo)
        #expect(try Data(contentsOf: reportPath) == earlierReport)
        // This run's video is whole and playable under the partial name, its report beside it.
        #expect(try await decode(URL(fileURLWithPath: output.path + ".partial")).frames.count > 10)
        #expect(FileManager.default.fileExists(atPath: reportPath.path + ".partial"))
        // The summary says where the report is, as it does for the video (a QA sweep found it silent).
        #expect(result.standardOutput.contains("report kept as \(reportPath.path).partial"), "stdout: \(result.standardOutput)")
    }

    /// MPEG-2's decoder keeps every frame it hands out, so a frame to be drawn on is copied first. A frame nothing
    /// draws on is not: an overlay rule whose clip is missing (disabled, with a warning) or boxes with nothing
    /// detected copied all 25 frames for nothing. The frame stamp draws on every frame: those are still copied, as
    /// many as the decoder still holds when they are drawn (13 to 25 of them, with the machine's load).
    @Test(arguments: [
        ("stages: { overlays: [ { clip: /no/such/clip.webm, when: always } ] }", 0...0),
        ("stages: { annotations: { boxes: true, labels: true } }", 0...0),
        ("stages: { frame_stamp: true }", 1...25),
    ])
    func onlyFramesSomethingDrawsOnAreCopied(stages: String, copies: ClosedRange<Int>) async throws {
        let folder = try makeTemporaryFolder()
        let input = try await Corpus.file("odd-720x405.mpg")
        let pipeline = folder.appendingPathComponent("p.yaml")
        try "source: { input: \(input.path) }\n\(stages)\n".write(to: pipeline, atomically: true, encoding: .utf8)
        let result = try await runTool(["run", pipeline.path, "--output", "null"], in: folder)
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("frames: decoded 25, output 25"), "stdout: \(result.standardOutput)")
        let copied = result.standardOutput.split(separator: "\n")
            .first { $0.hasPrefix("frames copied for compositing: ") }
            .flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        #expect(copies.contains(copied), "stdout: \(result.standardOutput)")
    }
}

@Suite(.serialized) struct RunReportTests {
    @Test func reportCountsEveryFrameOfAFile() async throws {
        let folder = try makeTemporaryFolder()
        let reportPath = folder.appendingPathComponent("report.json")
        let result = try await runTool([
            "run", "--input", "videotestsrc num-buffers=50 ! video/x-raw,width=320,height=240,framerate=25/1",
            "--output", "null", "--quiet", "--report", reportPath.path,
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let report = try Report(reportPath)
        #expect(report.decoded == 50)
        #expect(report.output == 50)
        #expect(report.droppedTotal == 0)
        #expect(!report.live)
        #expect(report.policy == "block")
        for key in ["p50", "p95", "p99", "max"] {
            #expect(report.latency[key] != nil, "latency_ms.\(key)")
            #expect(report.jitter[key] != nil, "jitter_ms.\(key)")
        }
        // The printed summary says the same.
        #expect(result.standardOutput.contains("frames: decoded 50, output 50, dropped 0"))
    }

    /// A live 1080p60 source into an encoder far too slow for it on this machine: frames must be dropped at the pool
    /// and counted, and the file must hold exactly the frames the report says were output.
    @Test func liveSourceIntoASlowEncoderDropsAndCountsExactly() async throws {
        let folder = try makeTemporaryFolder()
        let output = folder.appendingPathComponent("slow.mkv")
        let reportPath = folder.appendingPathComponent("report.json")
        let result = try await runTool([
            "run", "--input", "videotestsrc is-live=true num-buffers=150 ! video/x-raw,width=1920,height=1080,framerate=60/1",
            "--output", "x264enc speed-preset=slower ! matroskamux ! filesink location=\(output.path)",
            "--stamp", "--quiet", "--report", reportPath.path,
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let report = try Report(reportPath)
        #expect(report.live)
        #expect(report.decoded == 150)
        #expect(report.droppedTotal > 0)
        #expect(report.dropped["pool_full"] == report.droppedTotal - (report.dropped["late_at_sink"] ?? 0))
        #expect(report.decoded == report.output + report.droppedTotal)
        let decoded = try await decode(output)
        #expect(decoded.frames.count == report.output)
        // The stamps show which frames survived: strictly increasing, with gaps where frames were dropped.
        let indices = decoded.frames.compactMap(\.stampIndex)
        #expect(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 })
    }
}

extension RunReportTests {
    /// A file into a sink that takes 20 ms a frame: the decoder waits (backpressure), nothing is dropped, and the
    /// report shows blocking, not stalls.
    @Test func slowSinkOnAFileIsBackpressureNotLoss() async throws {
        let folder = try makeTemporaryFolder()
        let reportPath = folder.appendingPathComponent("report.json")
        let result = try await runTool([
            "run", "--input", "videotestsrc num-buffers=40 ! video/x-raw,width=320,height=240,framerate=25/1",
            "--output", "identity sleep-time=20000 ! fakesink sync=false", "--quiet", "--report", reportPath.path,
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let report = try Report(reportPath)
        #expect(report.output == 40)
        #expect(report.droppedTotal == 0)
        let blocked = report.json["blocked"] as! [String: Any]
        let stalls = report.json["stalls"] as! [String: Any]
        #expect((blocked["count"] as! Int) >= 1)
        #expect((blocked["total_ms"] as! Double) > 200)
        #expect((stalls["count"] as! Int) == 0)
    }
}

extension RunReportTests {
    /// A live 30 fps source whose frames take 50 ms each to come out falls behind the scene by 17 ms a frame, while
    /// each frame passes StreamLens in well under a millisecond: the report, the summary and a warning say how far
    /// behind it fell. A source that keeps pace is reported on time and not warned about.
    @Test func aLiveSourceThatFallsBehindRealTimeIsReportedAndWarned() async throws {
        let folder = try makeTemporaryFolder()
        @Sendable func run(_ input: String, report name: String) async throws -> (report: Report, standardError: String) {
            let reportPath = folder.appendingPathComponent(name)
            let result = try await runTool(["run", "--input", input, "--output", "null", "--report", reportPath.path])
            #expect(result.status == 0, "stderr: \(result.standardError)")
            return (try Report(reportPath), result.standardError)
        }
        // The two runs side by side (independent live sources, each with its own report): the slow one's 2.5 s of
        // source time covers the prompt one's 1 s.
        async let slowRun = run(
            "videotestsrc is-live=true num-buffers=75 ! video/x-raw,width=320,height=240,framerate=30/1 "
                + "! identity sleep-time=50000", report: "slow.json")
        async let promptRun = run(
            "videotestsrc is-live=true num-buffers=30 ! video/x-raw,width=320,height=240,framerate=30/1", report: "prompt.json")
        let slow = try await slowRun
        #expect(slow.report.live && slow.report.output == 75)
        let behind = try #require(slow.report.json["behind_real_time_ms"] as? [String: Double])
        // 74 frames × 16.7 ms = 1.23 s behind at the last frame.
        #expect((1.0...2.5).contains(behind["max"]! / 1000), "behind real time: \(behind)")
        #expect(slow.standardError.contains("warning: the live source fell 1."), "stderr: \(slow.standardError)")

        let prompt = try await promptRun
        let onTime = try #require(prompt.report.json["behind_real_time_ms"] as? [String: Double])
        #expect(onTime["max"]! < 500, "behind real time: \(onTime)")
        #expect(!prompt.standardError.contains("behind real time"), "stderr: \(prompt.standardError)")
    }
}

/// The report keys tests look at, read as plain JSON so the test checks the file format itself.
struct Report {
    let json: [String: Any]
    init(_ url: URL) throws {
        json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    }
    private var frames: [String: Any] { json["frames"] as! [String: Any] }
    var decoded: Int { frames["decoded"] as! Int }
    var output: Int { frames["output"] as! Int }
    var dropped: [String: Int] { frames["dropped"] as! [String: Int] }
    var droppedTotal: Int { dropped.values.reduce(0, +) }
    var latency: [String: Double] { json["latency_ms"] as! [String: Double] }
    var jitter: [String: Double] { json["jitter_ms"] as! [String: Double] }
    var run: [String: Any] { json["run"] as! [String: Any] }
    var live: Bool { run["live"] as! Bool }
    var interrupted: Bool { run["interrupted"] as! Bool }
    var policy: String { run["policy"] as! String }
}

@Suite struct RunErrorTests {
    /// Each bad input gives one line naming the problem, and exit status 1 (2 for bad arguments).
    @Test(arguments: [
        (["run", "--input", "/no/such/clip.mp4"], Int32(1), "input '/no/such/clip.mp4' does not exist"),
        (["run", "--input", "videotestsrc ! nosuchelement"], 1, "no element \"nosuchelement\""),
        (["run", "--input", "videotestsrc nosuchproperty=3 num-buffers=1"], 1, "nosuchproperty"),
        (["run", "--input", "videotestsrc num-buffers=1", "--output", "/no/such/folder/out.mp4"], 1,
         "cannot write output '/no/such/folder/out.mp4': folder '/no/such/folder' does not exist"),
        (["run", "--input", "videotestsrc num-buffers=1", "--output", "out.xyz"], 2, "unknown extension"),
        (["run", "--input", "videotestsrc num-buffers=1", "--backpressure", "maybe"], 2, "'maybe' is not allowed"),
        (["run", "--input", "videotestsrc num-buffers=1", "--pool-size", "0"], 2, "out of range"),
        (["run", "--input", "videotestsrc num-buffers=1", "--sync-analysis", "always"], 2,
         "'--sync-analysis': 'always' is not allowed; use one of: auto, on, off"),
        (["run", "--input", "file:///no/such/clip.mp4"], 1, "input 'file:///no/such/clip.mp4' could not be opened"),
        (["run", "--input", "/dev/video99"], 1, "input '/dev/video99' could not be opened"),
    ])
    func badInputGivesOneClearLine(arguments: [String], status: Int32, message: String) async throws {
        let result = try await runTool(arguments, in: try makeTemporaryFolder())
        #expect(result.status == status)
        let lines = result.standardError.split(separator: "\n").filter { $0.contains("error") }
        #expect(lines.count == 1, "stderr: \(result.standardError)")
        #expect(result.standardError.contains(message), "stderr: \(result.standardError)")
    }

    /// A camera that is not there still makes a live run: its report said "file" (live false).
    @Test func aMissingCamerasReportSaysLive() async throws {
        let folder = try makeTemporaryFolder()
        let result = try await runTool(
            ["run", "--input", "/dev/video99", "--output", "null", "--report", "run.json", "--quiet"], in: folder)
        #expect(result.status == 1, "stderr: \(result.standardError)")
        let report = try Report(folder.appendingPathComponent("run.json"))
        #expect(report.run["live"] as? Bool == true)
        #expect(report.run["policy"] as? String == "drop")
    }

    @Test func aFileThatIsNotVideoIsNamed() async throws {
        let folder = try makeTemporaryFolder()
        let text = folder.appendingPathComponent("notes.mp4")
        try Data("these are not frames\n".utf8).write(to: text)
        let result = try await runTool(["run", "--input", text.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("is not a video GStreamer can decode"), "stderr: \(result.standardError)")
    }

    @Test(.enabled(if: getuid() != 0, "root can read every file")) func anUnreadableFileIsNamed() async throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("locked.mp4")
        try Data([0]).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
        let result = try await runTool(["run", "--input", file.path])
        #expect(result.standardError.contains("cannot be read"))
    }

    @Test func aMissingDecoderPluginIsReported() async throws {
        let folder = try makeTemporaryFolder()
        let clip = folder.appendingPathComponent("clip.mp4")
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        make.arguments = ["-q", "videotestsrc", "num-buffers=5", "!", "x264enc", "!", "mp4mux", "!", "filesink", "location=\(clip.path)"]
        try make.run()
        make.waitUntilExit()
        // Hiding every H.264 decoder from autoplugging is what a machine without gstreamer1.0-libav looks like.
        let result = try await runTool(
            ["run", "--input", clip.path],
            environment: ["GST_PLUGIN_FEATURE_RANK": "avdec_h264:NONE,openh264dec:NONE,v4l2h264dec:NONE,vaapih264dec:NONE,nvh264dec:NONE,vah264dec:NONE"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("missing GStreamer plugin"), "stderr: \(result.standardError)")
        #expect(result.standardError.contains("H.264"), "stderr: \(result.standardError)")
    }
}

extension RunReportTests {
    /// A sink that renders on the clock and gets every frame late (an element before it holds each one 60 ms, at
    /// 30 fps) throws frames away as too late: the QoS totals it posts must come back as `late_at_sink` drops, with
    /// the frame balance intact.
    @Test func framesTheSinkDropsAsLateAreCountedAsLateAtSink() async throws {
        let folder = try makeTemporaryFolder()
        let reportPath = folder.appendingPathComponent("report.json")
        let result = try await runTool([
            "run", "--input", "videotestsrc is-live=true num-buffers=60 ! video/x-raw,width=320,height=240,framerate=30/1",
            "--output", "identity sleep-time=60000 ! fakesink sync=true qos=true max-lateness=5000000",
            "--quiet", "--report", reportPath.path,
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let report = try Report(reportPath)
        #expect(report.decoded == 60)
        #expect((report.dropped["late_at_sink"] ?? 0) > 10, "dropped: \(report.dropped)")
        #expect(report.decoded == report.output + report.droppedTotal)
    }

    /// A live network source whose sender pauses for two and a half seconds: the report shows a stall (a silent
    /// source), not drops, and frames arrive both before and after the pause. The test waits for frames the run has
    /// counted (its metrics endpoint), not for fixed times: on a loaded machine the run may not be playing seconds
    /// after its start, and a pause before its first frame is no stall.
    @Test func aSourceThatPausesIsAStallNotDrops() async throws {
        let port = 17_000 + Int.random(in: 0..<2000)
        let sender = try Pipeline(
            "videotestsrc is-live=true ! video/x-raw,width=320,height=240,framerate=25/1 "
                + "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=5 ! rtph264pay config-interval=1 pt=96 "
                + "! udpsink host=127.0.0.1 port=\(port)", label: "sender")
        let folder = try makeTemporaryFolder()
        let metricsPort = freeLoopbackPort()
        let run = try BackgroundRun(
            ["run", "--input",
             "udpsrc port=\(port) caps=\"application/x-rtp,media=video,encoding-name=H264,payload=96,clock-rate=90000\" "
                + "! rtph264depay ! avdec_h264",
             "--output", "null", "--quiet", "--report", "report.json", "--metrics-port", String(metricsPort)],
            folder: folder)
        try sender.setState(.playing)
        #expect(try await waitUntil(within: .seconds(60)) { (decodedFrames(metricsPort: metricsPort) ?? 0) >= 25 },
                "no frames arrived before the pause")
        try sender.setState(.paused)  // the source goes silent
        let decodedBeforePause = decodedFrames(metricsPort: metricsPort) ?? 0
        try await Task.sleep(for: .milliseconds(2500))  // the stimulus: the source silent for 2.5 s
        try sender.setState(.playing)
        #expect(try await waitUntil(within: .seconds(60)) {
            (decodedFrames(metricsPort: metricsPort) ?? 0) >= decodedBeforePause + 25
        }, "no frames arrived after the pause")
        run.signal(SIGINT)
        let (result, _) = try await run.finish(within: .seconds(20))
        try sender.setState(.null)
        #expect(result.status == 130, "\(result.standardError)")
        let report = try Report(folder.appendingPathComponent("report.json"))
        let stalls = report.json["stalls"] as! [String: Any]
        #expect((stalls["count"] as! Int) >= 1, "stalls: \(stalls)")
        #expect((stalls["total_ms"] as! Double) > 1000, "stalls: \(stalls)")
        #expect(report.dropped["pool_full"] == 0)
        #expect(report.decoded >= decodedBeforePause + 25)
    }
}
