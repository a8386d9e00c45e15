import Foundation
import Synchronization
import Testing
@testable import StreamLens

/// Speed-limit reading through the command line, on clips of the generated sign test set
/// (scripts/datasets/make-sign-testset.sh, run by scripts/test.sh).
@Suite(.serialized) struct SpeedLimitRunTests {
    static let testSet: URL = {
        if let folder = ProcessInfo.processInfo.environment["STREAMLENS_SIGN_TESTSET"], !folder.isEmpty {
            return URL(fileURLWithPath: folder)
        }
        return repositoryRoot.appendingPathComponent(".media-cache/sign-testset")
    }()

    static let usTestSet: URL = {
        if let folder = ProcessInfo.processInfo.environment["STREAMLENS_US_SIGN_TESTSET"], !folder.isEmpty {
            return URL(fileURLWithPath: folder)
        }
        return repositoryRoot.appendingPathComponent(".media-cache/us-sign-testset")
    }()

    /// Wraps a raw I420 clip of the test set as a file GStreamer plays (lossless FFV1 in Matroska, 12.5 fps as made;
    /// with `x264Quantizer`, H.264 in MP4 as a camera's encoder leaves it, at `x264Preset`), scaled to `scaledTo`
    /// when given.
    static func playableClip(
        _ name: String, width: Int, height: Int, in folder: URL, still: Bool = false, x264Quantizer: Int? = nil,
        x264Preset: String = "medium", scaledTo scaled: (width: Int, height: Int)? = nil, from set: URL = testSet
    ) async throws -> URL {
        let raw = set.appendingPathComponent("\(name).i420")
        try #require(FileManager.default.fileExists(atPath: raw.path), "no sign test set: run scripts/datasets/make-sign-testset.sh")
        let output = folder.appendingPathComponent(still ? "\(name).png" : x264Quantizer == nil ? "\(name).mkv" : "\(name).mp4")
        let encoder = still ? ["videoconvert", "!", "pngenc"]
            : x264Quantizer.map { ["x264enc", "pass=quant", "quantizer=\($0)", "speed-preset=\(x264Preset)", "!", "mp4mux"] }
            ?? ["avenc_ffv1", "!", "matroskamux"]
        let scaling = scaled.map { ["videoscale", "!", "video/x-raw,width=\($0.width),height=\($0.height)", "!"] } ?? []
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        process.arguments = ["-q", "filesrc", "location=\(raw.path)", "!", "rawvideoparse", "format=i420",
                             "width=\(width)", "height=\(height)", "framerate=25/2", "!"]
            + scaling + encoder + ["!", "filesink", "location=\(output.path)"]
        try process.run()
        try await offThePool { process.waitUntilExit() }
        #expect(process.terminationStatus == 0)
        return output
    }

    static func events(_ url: URL) throws -> [[String: Any]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    /// The test set's still photo of a 70 sign, as a PNG in `folder`.
    static func stillPhoto(in folder: URL) async throws -> URL {
        try await playableClip("still_70", width: 640, height: 272, in: folder, still: true)
    }

    /// The sign reader's section of a run report (`stage_details.speed_limit`).
    static func speedLimitDetails(_ report: URL) throws -> [String: Any]? {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        return (json?["stage_details"] as? [String: Any])?["speed_limit"] as? [String: Any]
    }

    @Test func aStillPhotoOfASignGivesOneEvent() async throws {
        let folder = try makeTemporaryFolder()
        let photo = try await Self.stillPhoto(in: folder)
        let eventsFile = folder.appendingPathComponent("events.jsonl")
        let result = try await runTool([
            "run", "--input", photo.path, "--speed-limits", "eu", "--events", eventsFile.path, "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let events = try Self.events(eventsFile)
        #expect(events.count == 1)
        #expect(events.first?["type"] as? String == "speed_limit")
        #expect(events.first?["value"] as? Int == 70)
    }

    /// On an x264 encode of the two-sign clip, the passed 50 was continued by a van's rear window where it had been:
    /// its box was drawn on the window and its event ended at 1.84 s, after the 80 had come (the sign left at 0.96 s).
    @Test func aPassedSignEndsWhereItLeftOnACompressedClip() async throws {
        let folder = try makeTemporaryFolder()
        let clip = try await Self.playableClip("sequence_50_then_80", width: 640, height: 272, in: folder, x264Quantizer: 23)
        let eventsFile = folder.appendingPathComponent("events.jsonl")
        let result = try await runTool([
            "run", "--input", clip.path, "--speed-limits", "eu", "--events", eventsFile.path, "--output", "null", "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let events = try Self.events(eventsFile)
        #expect(events.map { $0["value"] as? Int } == [50, 80])
        let ends = events.map { $0["end"] as? Double ?? -1 }
        #expect(abs(ends[0] - 0.96) <= 0.081 && abs(ends[1] - 2.24) <= 0.081, "ends \(ends)")
    }

    /// A source 3840 wide is analysed scaled to 1920 wide (a quarter of the locator's full-size work) and its signs
    /// are still read: the two-sign clip blown up six times, to 3840 × 1632, gives the same two events.
    @Test func aSource3840WideIsAnalysedAt1920AndItsSignsRead() async throws {
        let folder = try makeTemporaryFolder()
        let clip = try await Self.playableClip(
            "sequence_50_then_80", width: 640, height: 272, in: folder, x264Quantizer: 18, x264Preset: "ultrafast",
            scaledTo: (3840, 1632))
        let eventsFile = folder.appendingPathComponent("events.jsonl")
        let report = folder.appendingPathComponent("report.json")
        let result = try await runTool([
            "run", "--input", clip.path, "--speed-limits", "eu", "--events", eventsFile.path, "--report", report.path,
            "--output", "null", "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(try Self.events(eventsFile).map { $0["value"] as? Int } == [50, 80])
        let details = try Self.speedLimitDetails(report)
        #expect(details?["analysis_width"] as? Int == 1920 && details?["analysis_height"] as? Int == 816,
                "\(String(describing: details))")
    }

    @Test func theReportNamesTheTextLineModelAndAMissingOneIsOneLine() async throws {
        let folder = try makeTemporaryFolder()
        let photo = try await Self.stillPhoto(in: folder)
        let report = folder.appendingPathComponent("report.json")
        let read = ["run", "--input", photo.path, "--speed-limits", "eu", "--quiet"]
        let installed = try await runTool(read + ["--report", report.path])
        #expect(installed.status == 0, "stderr: \(installed.standardError)")
        let details = try Self.speedLimitDetails(report)
        // scripts/setup.sh installs the model; the report says which file the reader ran with.
        #expect(details?["text_line_model"] as? String == "/usr/local/share/streamlens/text-line-48x80.onnx"
            || details?["text_line_model"] as? String == ProcessInfo.processInfo.environment["STREAMLENS_TEXT_LINE_MODEL"],
            "\(String(describing: details))")
        #expect(details?["text_line_reads"] is Int)
        #expect(details?["template_matches"] is Int)
        #expect(details?["candidates_not_read"] is Int && details?["contrast_seeds_passed_over"] is Int)
        #expect(details?["reader_engines"] as? String == "before_input",
                "a frame-accurate file run starts the engines before its input opens")
        #expect(details?["analysis_width"] as? Int == 640 && details?["analysis_height"] as? Int == 272,
                "a frame no wider than 1920 is analysed at its own size: \(String(describing: details))")
        // Without frame-accurate analysis a stall of the sign lane does not stall the video: the engines start on the
        // first candidate, so a clip without one does not pay for them.
        let unsynced = try await runTool(read + ["--sync-analysis", "off", "--report", report.path])
        #expect(unsynced.status == 0, "stderr: \(unsynced.standardError)")
        #expect(try Self.speedLimitDetails(report)?["reader_engines"] as? String == "first_candidate")

        let missing = try await runTool(read + ["--text-line-model", "/nonexistent/model.onnx"])
        #expect(missing.status != 0)
        let lines = missing.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(missing.standardError)")
        #expect(missing.standardError.contains("/nonexistent/model.onnx") && missing.standardError.contains("no such file"))

        let off = try await runTool(read + ["--text-line-model", "off", "--report", report.path])
        #expect(off.status == 0, "stderr: \(off.standardError)")
        let offDetails = try Self.speedLimitDetails(report)
        #expect(offDetails?["text_line_reads"] as? Int == 0)
        #expect(offDetails?.keys.contains("text_line_model") == false || offDetails?["text_line_model"] is NSNull)
    }

    /// Whether a pipeline description is live is known only once it prerolls: its frame-accurate run starts the
    /// reader's engines as its frames begin, not before.
    @Test func aDescriptionsFrameAccurateRunStartsTheEnginesWithItsFrames() async throws {
        let folder = try makeTemporaryFolder()
        let report = folder.appendingPathComponent("report.json")
        let result = try await runTool([
            "run", "--input", "videotestsrc num-buffers=3 ! video/x-raw,width=320,height=240", "--speed-limits", "eu",
            "--sync-analysis", "on", "--quiet", "--report", report.path,
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(try Self.speedLimitDetails(report)?["reader_engines"] as? String == "background")
    }

    /// A file that cannot be decoded fails after the reader's engines began loading (before its input opened): the
    /// run waits for them and ends with its one line and exit code 1 — not with a crash in the program's exit, which
    /// tears down OpenCV under a model load still running. Three times, since such a crash comes one run in several.
    @Test func anUndecodableFileEndsAsOneLineWhileTheEnginesLoad() async throws {
        let folder = try makeTemporaryFolder()
        let input = folder.appendingPathComponent("not-video.mp4")
        try Data(repeating: 0x5a, count: 4096).write(to: input)
        for _ in 0..<3 {
            let result = try await runTool([
                "run", "--input", input.path, "--speed-limits", "eu", "--output", folder.appendingPathComponent("out.mp4").path,
            ])
            #expect(result.status == 1, "stderr: \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "stderr: \(result.standardError)")
            #expect(result.standardError.contains("not-video.mp4"), "stderr: \(result.standardError)")
        }
    }

    @Test(arguments: [["--text-line-model", "off"], ["--speed-limits", "off", "--text-line-model", "/no/such/model.onnx"]])
    func aTextLineModelForARunThatReadsNoSignsIsOneClearLine(arguments: [String]) async throws {
        let result = try await runTool(["run", "--input", "videotestsrc num-buffers=3"] + arguments)
        #expect(result.status == 2)
        #expect(result.standardError.split(separator: "\n").count == 1, "stderr: \(result.standardError)")
        #expect(result.standardError.contains("--text-line-model") && result.standardError.contains("needs --speed-limits"),
                "stderr: \(result.standardError)")
    }

    /// A recording whose video starts 3 s into its timeline (an edited MP4; MPEG-TS recordings start 1.4 s or an
    /// hour in): an MP4 output starts at 0, and its subtitles came 3 s late (a QA sweep). Subtitles now count from the
    /// output's first frame where the output starts at 0 (MP4, MOV), and keep stream time where it does too
    /// (Matroska); events keep stream time.
    @Test(arguments: ["mp4", "mkv"]) func subtitlesStartWithTheOutputVideo(container: String) async throws {
        let folder = try makeTemporaryFolder()
        let clip = try await Self.playableClip("sign_02_20_shadow", width: 640, height: 272, in: folder)
        let late = folder.appendingPathComponent("late.mp4")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-y", "-i", clip.path, "-c:v", "libx264", "-preset", "ultrafast", "-output_ts_offset", "3",
            late.path,
        ]
        try ffmpeg.run()
        try await offThePool { ffmpeg.waitUntilExit() }
        try #require(ffmpeg.terminationStatus == 0)
        let eventsFile = folder.appendingPathComponent("events.jsonl")
        let subtitles = folder.appendingPathComponent("limits.vtt")
        let result = try await runTool([
            "run", "--input", late.path, "--output", folder.appendingPathComponent("out.\(container)").path,
            "--speed-limits", "eu", "--events", eventsFile.path, "--subtitles", subtitles.path, "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let event = try #require(try Self.events(eventsFile).first)
        let start = try #require(event["start"] as? Double)
        #expect(start > 3.1 && start < 3.6, "events keep stream time: \(start)")
        let expected = container == "mp4" ? start - 3 : start
        let vtt = try String(contentsOf: subtitles, encoding: .utf8)
        #expect(vtt.contains(String(format: "00:00:%06.3f --> ", expected)), "\(vtt)")
    }

    @Test func aSignInAClipGivesAnEventSubtitlesAndABadge() async throws {
        let folder = try makeTemporaryFolder()
        // A 90 px "20" sign in shadow, visible from 0.16 s to 1.36 s.
        let clip = try await Self.playableClip("sign_02_20_shadow", width: 640, height: 272, in: folder)
        let eventsFile = folder.appendingPathComponent("events.jsonl")
        let subtitles = folder.appendingPathComponent("limits.vtt")
        let output = folder.appendingPathComponent("annotated.mkv")
        let result = try await runTool([
            "run", "--input", clip.path, "--output", output.path, "--speed-limits", "eu",
            "--events", eventsFile.path, "--subtitles", subtitles.path, "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let events = try Self.events(eventsFile)
        #expect(events.count == 1)
        let event = try #require(events.first)
        #expect(event["value"] as? Int == 20)
        let start = try #require(event["start"] as? Double)
        let end = try #require(event["end"] as? Double)
        #expect(start >= 0.15 && start <= 0.5, "start \(start)")
        #expect(end >= 1.0 && end <= 1.4, "end \(end)")
        let vtt = try String(contentsOf: subtitles, encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT"))
        #expect(vtt.contains("20"))
        // Every frame is in the output, and once the sign is confirmed the badge (a red ring) sits in the top-right
        // corner: red shows as high V (Cr) in the chroma plane.
        let redRingFrames = Mutex<Set<Int>>([])
        let decoded = try await decode(output) { frame, index in
            var redSamples = 0
            for y in 0..<(frame.v.height / 4) {
                for x in (frame.v.width * 3 / 4)..<frame.v.width where frame.v[x, y] > 170 { redSamples += 1 }
            }
            if redSamples > 20 { redRingFrames.withLock { _ = $0.insert(index) } }
        }
        #expect(decoded.frames.count == 20)
        let badged = redRingFrames.withLock { $0 }
        #expect(badged.count >= 8, "badge on frames \(badged.sorted())")
        #expect(!badged.contains(0), "no badge before the sign is confirmed")
    }

    /// A US limit is badged as a US sign: a white plate, no red ring (a QA sweep found the European disc with "45").
    @Test func aUSSignIsBadgedAsAUSPlate() async throws {
        let folder = try makeTemporaryFolder()
        // A "20" plate in the middle of the frame, visible from 0.16 s to 1.04 s.
        let clip = try await Self.playableClip("us_sign_01_20_dim", width: 640, height: 272, in: folder, from: Self.usTestSet)
        let eventsFile = folder.appendingPathComponent("events.jsonl")
        let output = folder.appendingPathComponent("annotated.mkv")
        let result = try await runTool([
            "run", "--input", clip.path, "--output", output.path, "--speed-limits", "us", "--events", eventsFile.path,
            "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(try Self.events(eventsFile).map { $0["value"] as? Int } == [20])
        // The badge (38 px tall, 30 wide, 8 px from the top-right corner): a plate whose face is white, and no
        // red in the corner's chroma.
        let plateFrames = Mutex<Set<Int>>([]), redFrames = Mutex<Set<Int>>([])
        _ = try await decode(output) { frame, index in
            var white = 0
            for y in 12..<42 { for x in 606..<628 where frame.y[x, y] > 200 { white += 1 } }
            if white > 200 { plateFrames.withLock { _ = $0.insert(index) } }
            var red = 0
            for y in 0..<(frame.v.height / 4) {
                for x in (frame.v.width * 3 / 4)..<frame.v.width where frame.v[x, y] > 170 { red += 1 }
            }
            if red > 0 { redFrames.withLock { _ = $0.insert(index) } }
        }
        #expect(plateFrames.withLock { $0.count } >= 5, "plate on frames \(plateFrames.withLock { $0.sorted() })")
        #expect(redFrames.withLock { $0.isEmpty }, "red on frames \(redFrames.withLock { $0.sorted() })")
    }
}
