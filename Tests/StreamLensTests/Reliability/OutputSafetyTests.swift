import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Outputs never destroy data: an output that is the input is refused before anything opens; files appear under
/// their names only when complete; a failed run never replaces a good file; bad outputs, options and pipeline files
/// are one line and an exit status.
@Suite(.serialized) struct OutputSafetyTests {
    /// How a destination can turn out to be the input (the input is `clip.mp4` in the test folder).
    enum SameFile: String, CaseIterable, Sendable {
        case samePath, dotSlashPath, symlink, hardLink, sinkLocation, report, events, timeline, html, subtitles, partialName
        /// A sink's numbered names (`seg%05d.ts`) include the input's: compared as text, the first segment replaced it.
        case hlsSegmentPattern, splitFilePattern
    }

    @Test(arguments: SameFile.allCases)
    func anOutputThatIsTheInputIsRefusedBeforeAnythingOpens(_ way: SameFile) async throws {
        let folder = try makeTemporaryFolder()
        let input = folder.appendingPathComponent("clip.mp4")
        try FileManager.default.copyItem(at: try await Corpus.file("odd-641x361-444.mp4"), to: input)
        let original = try Data(contentsOf: input)
        var arguments = ["run", "--input", input.path, "--quiet"]
        var kept = input
        /// The input renamed to `name` and read from there.
        func renameInput(to name: String) throws {
            kept = folder.appendingPathComponent(name)
            try FileManager.default.moveItem(at: input, to: kept)
            arguments = ["run", "--input", name, "--quiet"]
        }
        switch way {
        case .samePath: arguments += ["--output", input.path]
        case .dotSlashPath: arguments += ["--output", "./clip.mp4"]
        case .symlink:
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.mp4").path, withDestinationPath: "clip.mp4")
            arguments += ["--output", "link.mp4"]
        case .hardLink:
            #expect(link(input.path, folder.appendingPathComponent("second name.mp4").path) == 0)
            arguments += ["--output", "second name.mp4"]
        case .sinkLocation: arguments += ["--output", "x264enc ! mp4mux ! filesink location=\"\(input.path)\""]
        case .report: arguments += ["--report", "clip.mp4"]
        case .events: arguments += ["--events", input.path]
        case .timeline: arguments += ["--timeline", input.path]
        case .html: arguments += ["--html", "./clip.mp4"]
        case .subtitles: arguments += ["--subtitles", input.path]
        case .partialName:
            // Writing out.mp4 goes through out.mp4.partial: that name is taken by the input here.
            try renameInput(to: "out.mp4.partial")
            arguments += ["--output", "out.mp4"]
        case .hlsSegmentPattern:
            try renameInput(to: "seg00000.ts")
            arguments += ["--output", "x264enc ! h264parse ! hlssink2 location=seg%05d.ts playlist-location=live.m3u8"]
        case .splitFilePattern:
            try renameInput(to: "part07.mp4")
            arguments += ["--output", "x264enc ! h264parse ! splitmuxsink location=part%02d.mp4 max-size-time=1000000000"]
        }
        let (result, seconds) = try await timedRun(arguments, in: folder, limit: .seconds(10))
        #expect(result.status == 2, "stderr: \(result.standardError)")
        #expect(result.standardError.contains("is the input"), "stderr: \(result.standardError)")
        #expect(seconds < 5)
        #expect(try Data(contentsOf: kept) == original, "the input changed")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains { $0.hasSuffix(".partial") && way != .partialName }, "\(names)")
    }

    @Test func twoOutputsNamingOneFileAreRefused() async throws {
        let folder = try makeTemporaryFolder()
        let input = try await Corpus.file("odd-17x9.mkv")
        let result = try await runTool(
            ["run", "--input", input.path, "--output", "out.mkv", "--report", "run.json", "--html", "./run.json", "--quiet"],
            in: folder)
        #expect(result.status == 2)
        #expect(result.standardError.contains("--report and --html both write"), "stderr: \(result.standardError)")
    }

    /// Bad outputs and bad command lines: one line, the right status.
    @Test(arguments: [
        (["--output", "/no/such/folder/out.mkv"], Int32(1), "folder '/no/such/folder' does not exist"),
        (["--output", "out.xyz"], 2, "unknown extension"),
        (["--output", "x264enc ! ! filesink location=x.mkv"], 1, "invalid pipeline description"),
        (["--output", "x264enc bogus-prop=1 ! matroskamux ! filesink location=x.mkv"], 1, "no property \"bogus-prop\""),
        (["--output", "x264enc ! matroskamux ! filesink location=/dev/full"], 1, "No space left"),
        (["--output", "a-folder.mkv"], 2, "exists and is a folder"),
        (["--shutdown-grace=-1"], 2, "--shutdown-grace"),
        (["--reconnect-max=-2"], 2, "--reconnect-max"),
        (["--stall-timeout", "0"], 2, "--stall-timeout"),
        (["--watchdog", "soon"], 2, "--watchdog"),
        (["--pool-size", "three"], 2, "--pool-size"),
        (["--frobnicate"], 2, "Unknown option '--frobnicate'; see 'streamlens run --help'"),
        // A negative number was taken for an unknown option ("Missing value for '--pool-size'").
        (["--pool-size", "-1"], 2, "'--pool-size': -1 is out of range; allowed 1…64"),
        (["--encoder-preset", "turbo"], 2, "--encoder-preset"),
        // Durations too long to count in milliseconds crashed the run (an overflow, exit 132).
        (["--analysis-interval", "inf"], 2, "--analysis-interval"),
        (["--watchdog", "1e17"], 2, "--watchdog"),
        (["--shutdown-grace", "1e300"], 2, "--shutdown-grace"),
        // An empty name ran the whole video and then failed to rename a hidden ".partial".
        (["--report", ""], 2, "'--report': is empty"),
        (["--events", " "], 2, "'--events': is empty"),
    ])
    func badOutputsAndOptions(arguments: [String], status: Int32, message: String) async throws {
        let folder = try makeTemporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("a-folder.mkv"), withIntermediateDirectories: true)
        let input = try await Corpus.file("odd-17x9.mkv")
        let (result, seconds) = try await timedRun(
            ["run", "--input", input.path, "--quiet"] + arguments, in: folder, limit: .seconds(20))
        #expect(result.status == status, "stderr: \(result.standardError)")
        #expect(result.standardError.contains(message), "stderr: \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "stderr: \(result.standardError)")
        #expect(result.standardError.hasPrefix("streamlens: error: "), "stderr: \(result.standardError)")
        #expect(seconds < 20)
    }

    /// A report named after the pipeline file replaced the user's pipeline with JSON.
    @Test func aPipelineFileIsNeverWrittenOver() async throws {
        let folder = try makeTemporaryFolder()
        let input = try await Corpus.file("odd-17x9.mkv")
        let file = folder.appendingPathComponent("self.yaml")
        let text = "source: {input: \(input.path)}\nsink: {output: \"null\"}\nreport: {json: ./self.yaml}\n"
        try Data(text.utf8).write(to: file)
        let result = try await runTool(["run", file.path, "--quiet"], in: folder)
        #expect(result.status == 2, "stderr: \(result.standardError)")
        #expect(result.standardError.contains("'./self.yaml' is the pipeline file"), "stderr: \(result.standardError)")
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
    }

    /// Pipeline files that are not right: exit 2 with the file and the key.
    @Test(arguments: [
        ("source: {input: x.mp4, reconnect: maybe}\n", "'source.reconnect': expected true or false"),
        ("source: {input: x.mp4, stall_timeout: -3}\n", "source.stall_timeout"),
        ("source: {input: x.mp4}\nsink: {output: out.avi}\n", "unknown extension"),
        ("source:\n  input: [unclosed\n", "not valid YAML"),
        ("\u{1}\u{2}binary", "not valid YAML"),
        // A key given twice quoted the whole file as Yams's context.
        ("source: {input: x.mp4}\npool: {size: 3}\npool: {size: 4}\n",
         "run.yaml: '(file)': 'pool' given twice in one section (the first at line 2); keep one"),
        ("source: {input: x.mp4}\nreport: {json: }\n", "'report.json': is empty"),
        ("source: {input: x.mp4}\n? [a]\n: 1\n", "'(top level)': a key is a list or a mapping"),
        ("source: {input: x.mp4, ? {a: 1} : 2}\n", "'source': a key is a list or a mapping"),
        // Values the stages refuse are refused with the key: a zero expiry crashed the run (exit 132).
        ("source: {input: x.mp4}\nstages: {speed_limits: {expiry: 0}}\n", "'stages.speed_limits.expiry': 0.0 is out of range"),
        ("source: {input: x.mp4}\nstages: {detector: {backend: hog, max_age: 0}}\n", "'stages.detector.max_age'"),
        ("source: {input: x.mp4}\nstages: {detector: {backend: hog, smoothing: 0}}\n", "'stages.detector.smoothing'"),
    ])
    func badPipelineFiles(text: String, message: String) async throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("run.yaml")
        try Data(text.utf8).write(to: file)
        let result = try await runTool(["run", file.path, "--quiet"], in: folder)
        #expect(result.status == 2, "stderr: \(result.standardError)")
        #expect(result.standardError.contains(message), "stderr: \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "stderr: \(result.standardError)")
    }

    /// Good files under the names a run writes alongside its video: events, subtitles, timeline.
    static let sideFiles = ["events.jsonl", "limits.vtt", "timeline.csv"]
    static let sideFileArguments = ["--events", "events.jsonl", "--subtitles", "limits.vtt", "--timeline", "timeline.csv"]

    /// Writes an earlier run's files under ``sideFiles``' names (each as such a file starts: a run replaces only its
    /// own kind of file) and returns them by name.
    static func writeGoodSideFiles(in folder: URL) throws -> [String: Data] {
        let good = [
            "events.jsonl": Data("{\"type\":\"speed_limit\",\"value\":50,\"start\":1.2}\n".utf8),
            "limits.vtt": Data("WEBVTT\n\n1\n00:00:01.200 --> 00:00:03.200\nSpeed limit 50 km/h\n\n".utf8),
            "timeline.csv": Data("index,pts_ms,arrival_ms\n0,0.000,1.000\n".utf8),
        ]
        for (name, data) in good { try data.write(to: folder.appendingPathComponent(name)) }
        return good
    }

    /// `--events drive.mp4` (a slip of the keyboard) emptied the recording: a report, timeline, page, events or
    /// subtitles name that holds another kind of file is refused before anything opens, and the file stays.
    @Test(arguments: ["--report", "--timeline", "--html", "--events", "--subtitles"])
    func aSideFileNeverReplacesAnotherKindOfFile(option: String) async throws {
        let folder = try makeTemporaryFolder()
        let recording = folder.appendingPathComponent("yesterday.mp4")
        try FileManager.default.copyItem(at: try await Corpus.file("odd-641x361-444.mp4"), to: recording)
        let original = try Data(contentsOf: recording)
        let input = try await Corpus.file("odd-17x9.mkv")
        let (result, seconds) = try await timedRun(
            ["run", "--input", input.path, "--output", "null", "--quiet", "--speed-limits", "eu", option, recording.path],
            in: folder, limit: .seconds(20))
        #expect(result.status == 2, "stderr: \(result.standardError)")
        #expect(result.standardError.hasPrefix("streamlens: error: \(option) '\(recording.path)' exists and is not "),
                "stderr: \(result.standardError)")
        #expect(result.standardError.contains("writing it would destroy it"), "stderr: \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "stderr: \(result.standardError)")
        #expect(seconds < 10)
        #expect(try Data(contentsOf: recording) == original, "the recording changed")
    }

    /// A user's own file of the same kind under a report, page, events or subtitles name — a recording's own
    /// `drive.vtt`, a settings JSON, a home page — was replaced (only the kind was checked). Only files StreamLens
    /// wrote are replaced: the user's stays byte for byte; this run's own files, written again, are replaced.
    @Test(arguments: [
        ("--report", "settings.json", "{\"theme\":\"dark\",\"fontSize\":14}\n"),
        ("--events", "users.jsonl", "{\"user\":\"alice\",\"id\":1}\n{\"type\":\"x\"}\n"),
        ("--html", "index.html", "<!DOCTYPE html>\n<html><head><title>My homepage</title></head><body></body></html>\n"),
        ("--subtitles", "movie.vtt", "WEBVTT\n\n1\n00:00:01.000 --> 00:00:04.000\nHello, my own movie subtitle\n"),
    ])
    func aUsersOwnFileOfTheSameKindIsNotReplaced(option: String, name: String, contents: String) async throws {
        let folder = try makeTemporaryFolder()
        let own = folder.appendingPathComponent(name)
        try Data(contents.utf8).write(to: own)
        let input = try await Corpus.file("odd-17x9.mkv")
        let arguments = ["run", "--input", input.path, "--output", "null", "--quiet", "--speed-limits", "eu", option, own.path]
        let refused = try await runTool(arguments, in: folder)
        #expect(refused.status == 2, "stderr: \(refused.standardError)")
        #expect(refused.standardError.hasPrefix("streamlens: error: \(option) '\(own.path)' exists and is not "),
                "stderr: \(refused.standardError)")
        #expect(try Data(contentsOf: own) == Data(contents.utf8))

        // Once moved away, the run writes the file; a second run replaces its own.
        try FileManager.default.removeItem(at: own)
        for _ in 0..<2 {
            let result = try await runTool(arguments, in: folder)
            #expect(result.status == 0, "stderr: \(result.standardError)")
            #expect(FileManager.default.fileExists(atPath: own.path))
        }
    }

    /// The run's own overlay clip (or model) named as its output was replaced by the annotated video: every file the
    /// run reads is compared with every file it writes.
    @Test func anOverlayClipTheRunReadsIsNotItsOutput() async throws {
        let folder = try makeTemporaryFolder()
        let clip = folder.appendingPathComponent("logo.webm")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(".media-cache/media/overlays/gtk-logo.webm"), to: clip)
        let original = try Data(contentsOf: clip)
        let input = try await Corpus.file("odd-17x9.mkv")
        let result = try await runTool(
            ["run", "--input", input.path, "--overlay", "logo.webm@2,2", "--output", "logo.webm", "--quiet"], in: folder)
        #expect(result.status == 2, "stderr: \(result.standardError)")
        #expect(result.standardError == "streamlens: error: --output 'logo.webm' is the overlay clip 'logo.webm' (the same "
            + "path) the run reads; writing it would destroy it: choose another name\n", "stderr: \(result.standardError)")
        #expect(try Data(contentsOf: clip) == original)
    }

    /// A run that fails part-way leaves its work as `NAME.partial` and the good files already under the names —
    /// video, events, subtitles, timeline — untouched.
    @Test func aFailedRunNeverReplacesAGoodFile() async throws {
        let folder = try makeTemporaryFolder()
        let output = folder.appendingPathComponent("out.mkv")
        let good = Data("an earlier, good recording".utf8)
        try good.write(to: output)
        let goodSideFile = try Self.writeGoodSideFiles(in: folder)
        let reportPath = folder.appendingPathComponent("report.json")
        let result = try await runTool([
            "run", "--input",
            "videotestsrc num-buffers=100 ! video/x-raw,width=320,height=240,framerate=25/1 ! identity error-after=40",
            "--output", output.path, "--quiet", "--report", reportPath.path,
        ] + Self.sideFileArguments, in: folder, timeout: .seconds(30))
        #expect(result.status == 1)
        #expect(result.standardError.contains("identity"), "stderr: \(result.standardError)")
        #expect(try Data(contentsOf: output) == good)
        for name in Self.sideFiles {
            #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == goodSideFile[name], "\(name)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name + ".partial").path))
            #expect(result.standardOutput.contains("\(name).partial: the run did not finish"), "stdout: \(result.standardOutput)")
        }
        // The timeline kept holds the rows of the frames before the error.
        let timelineRows = try String(contentsOfFile: folder.appendingPathComponent("timeline.csv.partial").path, encoding: .utf8)
            .split(separator: "\n")
        #expect(timelineRows.count > 1, "\(timelineRows)")
        let report = try Report(reportPath)
        #expect(report.conservesFrames)
        #expect(report.outputFileState == "partial")
        #expect(report.outputFilePath == output.path + ".partial")
        // What was written is kept, readable (Matroska) and holds the frames before the error.
        let partial = try await decode(URL(fileURLWithPath: output.path + ".partial"))
        #expect(partial.frames.count == report.output)
        #expect((30...40).contains(report.output), "output \(report.output)")
    }

    /// A report (or page) in a folder that is not there stops the run before it starts: it is written at the end,
    /// and finding out then would waste the whole run.
    @Test(arguments: ["--report", "--html"])
    func aReportThatCouldNotBeWrittenStopsTheRunBeforeItStarts(option: String) async throws {
        let folder = try makeTemporaryFolder()
        let input = try await Corpus.file("odd-17x9.mkv")
        let result = try await runTool(
            ["run", "--input", input.path, "--output", "out.mkv", "--quiet", option, "/no/such/folder/report"],
            in: folder)
        #expect(result.status == 1, "stderr: \(result.standardError)")
        #expect(result.standardError == "streamlens: error: cannot write '/no/such/folder/report': folder "
            + "'/no/such/folder' does not exist; choose a writable location\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// A run that cannot start (its input does not exist) leaves the good files under its names as they were and no
    /// `.partial` file behind.
    @Test func aRunThatNeverStartsLeavesTheFilesAlone() async throws {
        let folder = try makeTemporaryFolder()
        let goodSideFile = try Self.writeGoodSideFiles(in: folder)
        let result = try await runTool(
            ["run", "--input", folder.appendingPathComponent("missing.mp4").path, "--output", "null", "--quiet",
             "--speed-limits", "eu"] + Self.sideFileArguments, in: folder)
        #expect(result.status == 1)
        #expect(result.standardError.contains("does not exist"), "stderr: \(result.standardError)")
        for name in Self.sideFiles {
            #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == goodSideFile[name], "\(name)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(name + ".partial").path))
        }
    }

    /// A run that succeeds replaces the file under its name in one step, through a symlink to its target, and clears a
    /// partial file left by a run that died.
    @Test func aSuccessfulRunReplacesTheFileThroughASymlinkAndLeavesNoPartialFile() async throws {
        let folder = try makeTemporaryFolder()
        let targets = folder.appendingPathComponent("recordings")
        try FileManager.default.createDirectory(at: targets, withIntermediateDirectories: true)
        let target = targets.appendingPathComponent("today.mkv")
        try Data("yesterday's".utf8).write(to: target)
        try Data("left by a run that was killed".utf8).write(to: URL(fileURLWithPath: target.path + ".partial"))
        let link = folder.appendingPathComponent("latest.mkv")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        let result = try await runTool([
            "run", "--input", "videotestsrc num-buffers=20 ! video/x-raw,width=320,height=240,framerate=25/1",
            "--output", link.path, "--quiet", "--events", "events.jsonl", "--timeline", "timeline.csv",
            "--report", "report.json", "--html", "report.html",
        ], in: folder)
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try await decode(target).frames.count == 20)
        for directory in [folder, targets] {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!names.contains { $0.hasSuffix(".partial") }, "\(names)")
        }
        for name in ["events.jsonl", "timeline.csv", "report.json", "report.html"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }
    }

    /// An output file deleted while the run wrote it: the run said "output not written: no frame reached it" and
    /// exited 0 (a QA sweep). Now it fails with one line saying the file was removed.
    @Test func anOutputRemovedDuringTheRunFailsIt() async throws {
        let folder = try makeTemporaryFolder()
        let output = folder.appendingPathComponent("live.mkv")
        let reportPath = folder.appendingPathComponent("report.json")
        let run = try BackgroundRun(
            [
                "run", "--input", "videotestsrc is-live=true ! video/x-raw,width=640,height=360,framerate=30/1",
                "--output", output.path, "--quiet", "--report", reportPath.path,
            ], folder: folder)
        #expect(try await waitUntil { fileSize(output.path + ".partial") >= 100_000 }, "the encoder wrote nothing")
        #expect(unlink(output.path + ".partial") == 0)
        run.signal(SIGINT)
        let (result, _) = try await run.finish(within: .seconds(20))
        #expect(result.status == 1, "stderr: \(result.standardError)")
        // After the interrupt's own notice, one error line.
        #expect(result.standardError.hasSuffix("\nstreamlens: error: '\(output.path).partial' was removed while the run "
            + "was writing it: nothing of the output is kept; run again\n"), "stderr: \(result.standardError)")
        #expect(result.standardError.components(separatedBy: "error:").count == 2, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("output lost: its file was removed"), "stdout: \(result.standardOutput)")
        #expect(try Report(reportPath).error?.contains("was removed") == true)
    }

    /// A 1 MiB tmpfs in `folder` (unmounted by the returned closure).
    static func mountSmallDisk(in folder: URL) throws -> (disk: URL, unmount: () -> Void) {
        let disk = folder.appendingPathComponent("small disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.path]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "this machine does not allow mounting a tmpfs")
        return (disk, {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = [disk.path]
            try? unmount.run()
            unmount.waitUntilExit()
        })
    }

    /// A timeline and events file on a disk that fills up were cut off mid-row under their final names, and the run
    /// said "output written", exit 0 (a QA sweep). Now the run fails with one line naming them and the cause, and
    /// they keep their .partial names with whole rows up to the failure.
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root")) func sideFilesOnAFullDiskFailTheRun() async throws {
        let folder = try makeTemporaryFolder()
        let (disk, unmount) = try Self.mountSmallDisk(in: folder)
        defer { unmount() }
        // 8 KiB left: room for the first 100 or so of the 250 timeline rows, and for a few events.
        try Data(repeating: 0, count: 1024 * 1024 - 8 * 1024).write(to: disk.appendingPathComponent("filler"))
        let timeline = disk.appendingPathComponent("timeline.csv"), events = disk.appendingPathComponent("events.jsonl")
        let (result, _) = try await timedRun(
            ["run", "--input", DetectionRunTests.pedestrians.path, "--output", "null", "--quiet", "--detector", "hog",
             "--timeline", timeline.path, "--events", events.path, "--report", "report.json"],
            in: folder, limit: .seconds(120))
        #expect(result.status == 1, "stderr: \(result.standardError)")
        #expect(result.standardError.hasPrefix("streamlens: error: writing '\(timeline.path)'"), "stderr: \(result.standardError)")
        #expect(result.standardError.contains("No space left on device"), "stderr: \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "stderr: \(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: timeline.path))
        #expect(result.standardOutput.contains("timeline kept as \(timeline.path).partial: writing it failed"),
                "stdout: \(result.standardOutput)")
        // What is kept ends with whole rows and events (the timeline is written in 64 KiB pieces: here none fitted).
        let rows = try String(contentsOfFile: timeline.path + ".partial", encoding: .utf8).split(separator: "\n")
        #expect(rows.count < 250, "\(rows.count) rows")
        #expect(rows.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 10 }, "\(rows.suffix(2))")
        let eventData = try Data(contentsOf: URL(fileURLWithPath: events.path + ".partial"))
        #expect(eventData.isEmpty || eventData.last == UInt8(ascii: "\n"))
        for line in eventData.split(separator: UInt8(ascii: "\n")) {
            #expect((try? JSONSerialization.jsonObject(with: Data(line))) != nil, "\(String(decoding: line, as: UTF8.self))")
        }
        let report = try Report(folder.appendingPathComponent("report.json"))
        #expect(report.error?.contains("failed partway") == true, "\(report.error ?? "no error")")
    }

    /// Subtitles or a report asked for on a disk with no room left: the run said "check that the folder exists and is
    /// writable" (a QA sweep's batch on a full disk recorded that for every file). The system's reason comes first now.
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"), arguments: [("--subtitles", "limits.vtt"), ("--report", "run.json")])
    func aFileThatCannotBeCreatedSaysWhy(option: String, name: String) async throws {
        let folder = try makeTemporaryFolder()
        let (disk, unmount) = try Self.mountSmallDisk(in: folder)
        defer { unmount() }
        try Data(repeating: 0, count: 1024 * 1024).write(to: disk.appendingPathComponent("filler"))
        let file = disk.appendingPathComponent(name)
        let input = try await Corpus.file("odd-17x9.mkv")
        let result = try await runTool(
            ["run", "--input", input.path, "--output", "null", "--quiet", "--speed-limits", "eu", option, file.path], in: folder)
        #expect(result.status == 1, "stderr: \(result.standardError)")
        #expect(result.standardError == "streamlens: error: cannot write '\(file.path)': No space left on device; "
            + "check that the folder exists, is writable and has room\n")
        #expect(!FileManager.default.fileExists(atPath: file.path + ".partial"))
    }

    /// A full disk (a 1 MiB tmpfs; 6 s of noise at x264's default 2 Mbit/s need 1.5 MB): the run fails with one line naming the cause, the good file there stays.
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root")) func aFullDiskFailsCleanly() async throws {
        let folder = try makeTemporaryFolder()
        let (disk, unmount) = try Self.mountSmallDisk(in: folder)
        defer { unmount() }
        let output = disk.appendingPathComponent("out.mkv")
        let good = Data(repeating: 7, count: 1000)
        try good.write(to: output)
        let reportPath = folder.appendingPathComponent("report.json")
        let (result, seconds) = try await timedRun(
            ["run", "--input", "videotestsrc num-buffers=150 pattern=snow ! video/x-raw,width=640,height=360,framerate=25/1",
             "--output", output.path, "--quiet", "--report", reportPath.path],
            in: folder, limit: .seconds(60))
        #expect(result.status == 1)
        #expect(result.standardError.contains("No space left"), "stderr: \(result.standardError)")
        #expect(seconds < 60)
        #expect(try Data(contentsOf: output) == good)
        #expect(try Report(reportPath).conservesFrames)
    }
}
