import Foundation
import Testing

/// One file of the bad-input corpus (scripts/datasets/make-corpus.sh) run through `streamlens run`, with what it must do:
/// fail with one clear line and an exit status, or complete with the right number of frames, in both cases within
/// a time bound (nothing may hang).
struct CorpusCase: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        /// Exit `status` with `message` in the one error line; nothing written.
        case fails(status: Int32, message: String)
        /// Exit 0 with `frames` frames decoded and output (all of them), the output file complete and holding
        /// exactly the frames the report counts, at `size` when given (after padding for the encoder).
        case completes(frames: ClosedRange<Int>, size: (width: Int, height: Int)? = nil)
    }

    var input: String
    /// The output file's extension ("mkv", "mp4"); nil: `--output null`.
    var output: String? = "mkv"
    var options: [String] = []
    var outcome: Outcome
    var limit: Duration = .seconds(30)

    var testDescription: String { "\(input)\(options.isEmpty ? "" : " " + options.joined(separator: " ")) → \(output ?? "null")" }
}

extension CorpusCase {
    static let inputs: [CorpusCase] = [
        // Not video at all: one line, exit 1, at once.
        CorpusCase(input: "zero-byte.mp4", outcome: .fails(status: 1, message: "is empty (0 bytes)")),
        CorpusCase(input: "random-bytes.mp4", outcome: .fails(status: 1, message: "is not a video GStreamer can decode")),
        CorpusCase(input: "text-renamed.mkv", outcome: .fails(status: 1, message: "is not a video GStreamer can decode")),
        CorpusCase(input: "audio-only.m4a", outcome: .fails(status: 1, message: "has no video stream")),
        CorpusCase(input: "a-folder.mp4", outcome: .fails(status: 1, message: "is a folder, not a file")),
        CorpusCase(input: "no-moov.mp4", outcome: .fails(status: 1, message: "is damaged: no frame could be decoded")),
        // Truncated: the frames before the cut come out (bikes.mp4 has 250).
        CorpusCase(input: "truncated-25.mp4", outcome: .completes(frames: 40...100)),
        CorpusCase(input: "truncated-50.mp4", outcome: .completes(frames: 90...160)),
        CorpusCase(input: "truncated-90.mp4", outcome: .completes(frames: 180...240)),
        CorpusCase(input: "truncated-50.mkv", outcome: .completes(frames: 90...160)),
        // Damaged in the middle: decoded around the damage.
        CorpusCase(input: "corrupted-mdat.mp4", outcome: .completes(frames: 200...250)),
        CorpusCase(input: "damaged.ts", output: "mp4", outcome: .completes(frames: 100...240)),
        // Odd sizes: padded for x264 (even) and mp4mux (16 at least); every frame encoded.
        CorpusCase(input: "odd-1x1.mkv", outcome: .completes(frames: 10...10, size: (2, 2))),
        CorpusCase(input: "odd-3x3.mkv", outcome: .completes(frames: 10...10, size: (4, 4))),
        CorpusCase(input: "odd-17x9.mkv", outcome: .completes(frames: 10...10, size: (18, 10))),
        CorpusCase(input: "odd-17x9.mkv", output: "mp4", outcome: .completes(frames: 10...10, size: (18, 16))),
        CorpusCase(input: "odd-17x9.mkv", output: "webm", outcome: .completes(frames: 10...10, size: (17, 16))),
        CorpusCase(input: "odd-641x361-444.mp4", output: "mp4", outcome: .completes(frames: 25...25, size: (642, 362))),
        CorpusCase(input: "odd-720x405.mpg", output: "mp4", outcome: .completes(frames: 25...25, size: (720, 406))),
        // Both analysers on odd-sized real footage.
        CorpusCase(
            input: "odd-641x361-444.mp4", output: "mp4", options: ["--detector", "hog", "--speed-limits", "eu"],
            outcome: .completes(frames: 25...25, size: (642, 362)), limit: .seconds(60)),
        CorpusCase(
            input: "odd-720x405.mpg", output: "mkv", options: ["--detector", "hog", "--speed-limits", "eu"],
            outcome: .completes(frames: 25...25, size: (720, 406)), limit: .seconds(60)),
        // Odd formats: converted to 4:2:0 8-bit on the way in.
        CorpusCase(input: "interlaced-576i.mpg", output: "mp4", outcome: .completes(frames: 25...25, size: (720, 576))),
        // Analysed too: the analysis copy refused interlaced frames (a GStreamer CRITICAL), and the detector
        // silently never ran.
        CorpusCase(
            input: "interlaced-576i.mpg", output: "mp4", options: ["--detector", "hog", "--speed-limits", "eu"],
            outcome: .completes(frames: 25...25, size: (720, 576)), limit: .seconds(60)),
        CorpusCase(input: "h264-444.mp4", output: "mp4", outcome: .completes(frames: 25...25, size: (640, 272))),
        CorpusCase(input: "h264-422-10bit.mkv", outcome: .completes(frames: 25...25, size: (640, 272))),
        CorpusCase(input: "prores-422-10bit.mov", outcome: .completes(frames: 25...25, size: (640, 272))),
        CorpusCase(input: "hevc-10bit.mkv", output: "mp4", outcome: .completes(frames: 25...25, size: (640, 272))),
        CorpusCase(input: "vtest-30.avi", outcome: .completes(frames: 30...30, size: (768, 576))),
        CorpusCase(input: "4k.mp4", output: "mp4", outcome: .completes(frames: 5...5, size: (3840, 2160)), limit: .seconds(60)),
        CorpusCase(input: "8k.mkv", outcome: .completes(frames: 3...3, size: (7680, 4320)), limit: .seconds(90)),
        // A phone video (landscape stored, rotated 90° in its container): output and analysis see it upright.
        CorpusCase(input: "rotated-90.mp4", output: "mp4", outcome: .completes(frames: 25...25, size: (272, 640))),
        // Timestamps: variable rate, restarting at zero, jumping ahead.
        CorpusCase(input: "vfr.mkv", outcome: .completes(frames: 50...50)),
        CorpusCase(input: "timestamps-backwards.ts", output: "mp4", outcome: .completes(frames: 100...100)),
        CorpusCase(input: "timestamps-jump.ts", output: "mp4", outcome: .completes(frames: 100...100)),
        // Stills and animations (GStreamer's GIF demuxer never ends its stream: taken as ended after 5 s idle).
        CorpusCase(input: "still.jpg", outcome: .completes(frames: 1...1)),
        CorpusCase(input: "still.png", outcome: .completes(frames: 1...1)),
        CorpusCase(input: "still.gif", outcome: .completes(frames: 1...1)),
        CorpusCase(input: "logo-animated.gif", output: "mp4", outcome: .completes(frames: 20...20, size: (128, 128))),
        // Names with spaces, accents, a dash and CJK characters.
        CorpusCase(input: "ünïcødé folder/rue du marché – 東京 1.mp4", outcome: .completes(frames: 20...20)),
    ]
}

extension CorpusCase {
    /// What one case's `streamlens run` did.
    struct Run: Sendable {
        var result: ToolResult
        var seconds: Double
        /// Still running at the case's limit (then killed).
        var killed: Bool
        var output: URL?
        var report: URL
    }

    /// Every case's run, made once for the suite, three at a time: a case is mostly process start-up, and the GIFs
    /// mostly the 5 s a run waits on a demuxer that never ends its stream, idle time the other cases fill. The runs
    /// are independent processes, each in its own folder, and each case's test checks its own run as before. One at a
    /// time when the reliability table is written (its seconds are one run's alone).
    static let runs = Task<[String: Run], any Error> {
        try await Corpus.ensure()
        let width = ProcessInfo.processInfo.environment["STREAMLENS_RELIABILITY_TABLE"].map { $0.isEmpty ? 3 : 1 } ?? 3
        // The longest first, so that the short ones fill in beside them: the GIF overlay's run (its clip decoder
        // waits 3 s for a demuxer that never ends), the GIFs, then by limit.
        let order = [gifOverlay] + inputs.sorted {
            ($0.input.hasSuffix(".gif") ? 1 : 0, $0.limit) > ($1.input.hasSuffix(".gif") ? 1 : 0, $1.limit)
        }
        return try await withThrowingTaskGroup(of: (String, Run).self) { group in
            var runs: [String: Run] = [:]
            var next = order.makeIterator()
            func start(_ testCase: CorpusCase) {
                group.addTask { (testCase.testDescription, try await testCase.run()) }
            }
            for _ in 0..<width { if let testCase = next.next() { start(testCase) } }
            while let (name, run) = try await group.next() {
                runs[name] = run
                if let testCase = next.next() { start(testCase) }
            }
            return runs
        }
    }

    /// ``CorpusTests/anAnimatedGIFIsAnOverlayClip()``'s run, made with the cases' runs.
    static let gifOverlay = CorpusCase(
        input: "odd-720x405.mpg", output: nil,
        options: ["--overlay", "\(Corpus.folder.appendingPathComponent("logo-animated.gif").path)@10,10"],
        outcome: .completes(frames: 25...25), limit: .seconds(60))

    /// Runs this case in a folder of its own.
    private func run() async throws -> Run {
        let input = Corpus.folder.appendingPathComponent(input)
        // Outputs go to a folder with a space and accents too.
        let folder = try makeTemporaryFolder().appendingPathComponent("sortie ü")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = output.map { folder.appendingPathComponent("résultat 1.\($0)") }
        let report = folder.appendingPathComponent("report.json")
        let run = try BackgroundRun(
            ["run", "--input", input.path, "--output", output?.path ?? "null", "--quiet", "--report", report.path] + options,
            folder: folder)
        let (result, seconds, killed) = try await run.end(within: limit)
        return Run(result: result, seconds: seconds, killed: killed, output: output, report: report)
    }
}

@Suite(.serialized) struct CorpusTests {
    @Test(arguments: CorpusCase.inputs)
    func corpusInput(_ testCase: CorpusCase) async throws {
        let run = try #require(try await CorpusCase.runs.value[testCase.testDescription])
        let (result, seconds, output, reportPath) = (run.result, run.seconds, run.output, run.report)
        #expect(!run.killed, "still running after \(testCase.limit); killed")
        #expect(seconds < testCase.limit.seconds, "took \(seconds) s")
        switch testCase.outcome {
        case .fails(let status, let message):
            let line = result.standardError.split(separator: "\n").first.map(String.init) ?? ""
            ReliabilityTable.record(
                testCase.testDescription, outcome: "`\(line.replacingOccurrences(of: "|", with: "\\|"))`",
                status: result.status, seconds: seconds)
            #expect(result.status == status, "stderr: \(result.standardError)")
            let errorLines = result.standardError.split(separator: "\n").filter { $0.contains("error") }
            #expect(errorLines.count == 1, "stderr: \(result.standardError)")
            #expect(result.standardError.contains(message), "stderr: \(result.standardError)")
            if let output {
                #expect(!FileManager.default.fileExists(atPath: output.path))
                #expect(!FileManager.default.fileExists(atPath: output.path + ".partial"))
            }
        case .completes(let frames, let size):
            #expect(result.status == 0, "stderr: \(result.standardError)")
            let report = try Report(reportPath)
            #expect(frames.contains(report.output), "output \(report.output) frames")
            #expect(report.conservesFrames)
            #expect(report.output == report.decoded, "dropped: \(report.dropped)")
            // Every analyser asked for ran, and never failed.
            let analysis = report.json["analysis"] as? [String: [String: Any]] ?? [:]
            if testCase.options.contains("--detector") {
                #expect((analysis["objects"]?["completed"] as? Int ?? 0) > 0, "analysis: \(analysis)")
            }
            #expect(analysis.values.allSatisfy { ($0["failed"] as? Int ?? 0) == 0 }, "analysis: \(analysis)")
            guard let output else { return }
            #expect(report.outputFileState == "complete")
            #expect(!FileManager.default.fileExists(atPath: output.path + ".partial"))
            let decoded = try await decode(output)
            ReliabilityTable.record(
                testCase.testDescription,
                outcome: "\(decoded.frames.count) frames, \(decoded.width)×\(decoded.height)"
                    + (report.decodeErrors > 0 ? ", \(report.decodeErrors) decode errors" : "")
                    + (report.gaps > 0 ? ", \(report.gaps) gaps" : ""),
                status: result.status, seconds: seconds)
            #expect(decoded.frames.count == report.output)
            if let size { #expect((decoded.width, decoded.height) == size) }
            // Output timestamps only go forward, whatever the input's did.
            let stamps = decoded.frames.compactMap(\.pts)
            #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "timestamps \(stamps.prefix(20))")
            if let size, let fit = report.outputFit { #expect(fit == size) }
        }
    }

    /// A small picture into WebM: libvpx's look-ahead lost the last 6–14 of 50 frames at end-of-stream (a QA sweep:
    /// 32 of 50 at 97×61) while the report counted all 50 as output. Every frame reaches the file now.
    @Test(arguments: ["ball", "snow"]) func aSmallWebMOutputKeepsEveryFrame(pattern: String) async throws {
        let folder = try makeTemporaryFolder()
        let output = folder.appendingPathComponent("small.webm")
        let (result, _) = try await timedRun(
            ["run", "--input", "videotestsrc num-buffers=50 pattern=\(pattern) ! video/x-raw,width=97,height=61,framerate=25/1",
             "--output", output.path, "--quiet"], in: folder, limit: .seconds(60))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await decode(output).frames.count == 50)
    }

    /// libav's GIF decoder stamps every frame at 0 (each 100 ms long): the output was put in order, but the analysis
    /// schedule saw no time pass (one analysis per stage in 2 s), the file was called cut short ("ends at 0.0 s")
    /// and events would all be at 0. Frames stamped alike now follow one another by their durations.
    @Test func anAnimatedGIFsFramesFollowOneAnother() async throws {
        let folder = try makeTemporaryFolder()
        let (result, _) = try await timedRun(
            ["run", "--input", try await Corpus.file("logo-animated.gif").path, "--output", "out.mp4",
             "--detector", "hog", "--speed-limits", "eu", "--timeline", "t.csv", "--report", "r.json"],
            in: folder, limit: .seconds(120))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("cut short"), "\(result.standardError)")
        #expect(!result.standardError.contains("went backwards"), "\(result.standardError)")
        let report = try Report(folder.appendingPathComponent("r.json"))
        #expect(report.run["input_cut_short"] == nil)
        let analysis = try #require(report.json["analysis"] as? [String: [String: Any]])
        // 20 frames over 2 s: HOG every 0.3 s, the sign reader every 80 ms (every frame at 10 fps).
        #expect((6...8).contains(analysis["objects"]?["completed"] as? Int ?? 0), "\(analysis)")
        #expect(analysis["speed_limit"]?["completed"] as? Int == 20, "\(analysis)")
        let rows = try String(contentsOf: folder.appendingPathComponent("t.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.map { Double($0[1]) } == (0..<20).map { Double($0 * 100) })
        #expect(try await decode(folder.appendingPathComponent("out.mp4")).frames.count == 20)
    }

    /// The same GIF as an overlay clip: libav's GIF demuxer never ends it, so the clip decoder spun for its whole 60 s
    /// limit (uninterruptible), then disabled the rule. Frames followed by 3 s of nothing are the whole clip now.
    @Test func anAnimatedGIFIsAnOverlayClip() async throws {
        // Run with the corpus cases (CorpusCase.runs): --input odd-720x405.mpg --output null --overlay GIF@10,10.
        let run = try #require(try await CorpusCase.runs.value[CorpusCase.gifOverlay.testDescription])
        let (result, seconds) = (run.result, run.seconds)
        #expect(!run.killed, "still running after 60 s; killed")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("overlay"), "\(result.standardError)")
        #expect(seconds < 20, "\(seconds) s")
        let details = try #require(Report(run.report).json["stage_details"] as? [String: Any])
        let overlays = try #require(details["overlays"] as? [String: Any])
        #expect(overlays["loads"] as? Int == 1)
        #expect(overlays["failures"] as? Int == 0)
        // 20 frames of 128 × 128 (2.5 bytes a pixel and alpha bookkeeping): the whole loop, not its first frame.
        #expect((overlays["cache_bytes"] as? Int ?? 0) > 19 * 128 * 128 * 2, "\(overlays)")
    }

    /// A recording whose name holds " ! " is a file, not a pipeline description: `run` failed on it ("no source
    /// element for URI"), and so did a batch that found it in a folder.
    @Test func aFileNamedLikeAPipelineIsReadAsAFile() async throws {
        let folder = try makeTemporaryFolder()
        let input = folder.appendingPathComponent("front ! rear.mp4")
        try FileManager.default.copyItem(at: try await Corpus.file("odd-641x361-444.mp4"), to: input)
        let (result, _) = try await timedRun(
            ["run", "--input", input.path, "--output", "null", "--report", "r.json", "--quiet"], in: folder, limit: .seconds(60))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Report(folder.appendingPathComponent("r.json")).framesSection["decoded"] as? Int == 25)
    }

    /// ffmpeg's uncompressed AVI (raw BGR, as many capture tools write): GStreamer's AVI demuxer gives it no pixel
    /// shape (-1/1), which went into the output caps, where no converter takes it: "the output failed" after 3 of
    /// 25 frames. Square pixels are assumed now, as players do.
    @Test func anUncompressedAVIWithoutAPixelShapeIsEncodedWhole() async throws {
        let folder = try makeTemporaryFolder()
        let input = folder.appendingPathComponent("capture.avi")
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        make.arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-frames:v", "25",
                          "-c:v", "rawvideo", "-pix_fmt", "bgr24", input.path]
        try make.run()
        make.waitUntilExit()
        try #require(make.terminationStatus == 0, "ffmpeg could not make the AVI")
        let output = folder.appendingPathComponent("out.mp4")
        let (result, _) = try await timedRun(
            ["run", "--input", input.path, "--output", output.path, "--quiet"], in: folder, limit: .seconds(60))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await decode(output).frames.count == 25)
    }

    /// A FIFO given as input would block the reader until someone writes to it: refused at once.
    @Test func aFIFOInputIsRefusedAtOnce() async throws {
        let folder = try makeTemporaryFolder()
        let fifo = folder.appendingPathComponent("camera.mp4")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let (result, seconds) = try await timedRun(["run", "--input", fifo.path, "--quiet"], in: folder, limit: .seconds(10))
        #expect(result.status == 1)
        #expect(result.standardError.contains("is a FIFO, not a file"), "stderr: \(result.standardError)")
        #expect(seconds < 10)
    }

    /// Permission cases need a user other than root: `nobody` can neither read a 0600 file of root's nor write in a
    /// folder of root's.
    @Test(.enabled(if: getuid() == 0, "needs root to switch to nobody")) func unreadableInputAndUnwritableFolder() async throws {
        let folder = try makeTemporaryFolder()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let locked = folder.appendingPathComponent("locked.mkv")
        try FileManager.default.copyItem(at: try await Corpus.file("odd-17x9.mkv"), to: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: locked.path)
        let unreadable = try await timedRun(
            ["run", "--input", locked.path, "--quiet"], in: folder, limit: .seconds(30), prefix: asNobody)
        #expect(unreadable.result.status == 1)
        #expect(unreadable.result.standardError.contains("cannot be read (permission denied)"), "\(unreadable.result.standardError)")

        let readable = try await Corpus.file("odd-17x9.mkv")
        let unwritable = try await timedRun(
            ["run", "--input", readable.path, "--output", folder.appendingPathComponent("out.mkv").path, "--quiet"],
            in: folder, limit: .seconds(30), prefix: asNobody)
        #expect(unwritable.result.status == 1)
        #expect(unwritable.result.standardError.contains("is not writable"), "\(unwritable.result.standardError)")
    }
}
