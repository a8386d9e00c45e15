import Foundation
import Testing
import StreamLensBatch

/// `streamlens batch` with its default SQLite catalog, on short clips cut from the real media.
@Suite(.serialized) struct SQLiteBatchTests {
    /// A folder of clips (one in a subfolder) and a corrupt file: every good file is done with the events a lone run
    /// gives, the corrupt one is failed with its error, the outputs keep the input layout, and a second run with
    /// nothing changed does nothing; a changed input is redone, alone; --retry-failed tries the failed one again.
    @Test func batchOverAFolderIsResumableAndNoticesChanges() async throws {
        let clips = try await TestClips.folder()
        TestClips.startLoneRuns()
        let corrupt = clips.appendingPathComponent("day2/20240502_090000.mp4")
        try Data((0..<20000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }).write(to: corrupt)
        try Data("not a video".utf8).write(to: clips.appendingPathComponent("notes.txt"))
        let output = clips.deletingLastPathComponent().appendingPathComponent("out")

        let first = try await streamlens(["batch", clips.path, "--output-dir", output.path, "--workers", "2"] + analysisOptions)
        #expect(first.status == 1, "a failed file makes the batch exit 1: \(first.standardError)")
        #expect(first.standardOutput.contains("5 files: 4 done, 1 failed"), "\(first.standardOutput)")
        #expect(first.standardError.contains("failed: \(corrupt.path): "), "\(first.standardError)")

        let catalog = try await CatalogLocation.sqlite(path: output.appendingPathComponent("catalog.sqlite").path).open()
        var files = try await catalog.files()
        #expect(files.map(\.path) == (TestClips.clips.map(\.relativePath) + ["day2/20240502_090000.mp4"]).sorted()
            .map { clips.appendingPathComponent($0).path })
        for clip in TestClips.clips {
            let path = clips.appendingPathComponent(clip.relativePath).path
            let file = try #require(files.first { $0.path == path })
            #expect(file.status == .done)
            #expect(file.completions == 1)
            #expect(file.frames == (try await TestClips.framesOfLoneRun(clip.relativePath)), "\(clip.relativePath)")
            #expect((file.frames ?? 0) >= clip.frames)
            #expect(try await catalogEvents(catalog, file: path) == (try await TestClips.eventsOfLoneRun(clip.relativePath)))
            // The input tree's layout under the output folder.
            let stem = output.appendingPathComponent((clip.relativePath as NSString).deletingPathExtension).path
            for suffix in [".report.json", ".events.jsonl"] {
                #expect(FileManager.default.fileExists(atPath: stem + suffix), "\(stem + suffix)")
            }
            #expect(!FileManager.default.fileExists(atPath: stem + ".mp4"), "--output null writes no video")
        }
        let failed = try #require(files.first { $0.path == corrupt.path })
        #expect(failed.status == .failed)
        // The run's own error line, which names the file.
        #expect(failed.error?.hasPrefix("input '\(corrupt.path)' is not a video GStreamer can decode") == true, "\(failed.error ?? "")")
        let people = try await catalog.events(type: "detection")
        #expect(!people.isEmpty, "HOG finds people in the street clips")

        // The summary covers every file.
        let summaryData = try Data(contentsOf: output.appendingPathComponent("batch-summary.json"))
        let summary = try #require(try JSONSerialization.jsonObject(with: summaryData) as? [String: Any])
        let counts = try #require(summary["counts"] as? [String: Int])
        #expect(counts == ["done": 4, "failed": 1, "pending": 0, "running": 0])
        var loneFrames = 0
        for clip in TestClips.clips { loneFrames += try await TestClips.framesOfLoneRun(clip.relativePath) }
        #expect(summary["frames"] as? Int == loneFrames)
        let html = try String(contentsOf: output.appendingPathComponent("batch-summary.html"), encoding: .utf8)
        #expect(html.contains("day2/20240502_080000") && html.contains("class=\"failed\""))

        // Nothing changed: nothing is done again.
        let second = try await streamlens(["batch", clips.path, "--output-dir", output.path, "--quiet"] + analysisOptions)
        #expect(second.status == 1)
        files = try await catalog.files()
        #expect(files.map(\.attempts) == [1, 1, 1, 1, 1])
        #expect(files.map(\.completions) == [1, 1, 1, 1, 0])

        // A changed input (same size, new content at the end, new time) is redone, alone.
        let changed = clips.appendingPathComponent("20240501_093100.mp4")
        let handle = try FileHandle(forUpdating: changed)
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size - 1)
        let last = try handle.read(upToCount: 1) ?? Data([0])
        try handle.seek(toOffset: size - 1)
        try handle.write(contentsOf: Data([last[0] ^ 0x01]))
        try handle.close()
        let third = try await streamlens(["batch", clips.path, "--output-dir", output.path, "--quiet"] + analysisOptions)
        #expect(third.status == 1)
        files = try await catalog.files()
        #expect(files.first { $0.path == changed.path }?.completions == 2, "done before the change and once after")
        #expect(files.first { $0.path == changed.path }?.attempts == 1)
        #expect(files.filter { $0.path != changed.path }.map(\.attempts) == [1, 1, 1, 1])
        #expect(files.first { $0.path == changed.path }?.status == .done)

        // --retry-failed tries the corrupt file again (and it fails again); --force redoes everything.
        _ = try await streamlens(["batch", clips.path, "--output-dir", output.path, "--quiet", "--retry-failed"] + analysisOptions)
        files = try await catalog.files()
        #expect(files.first { $0.path == corrupt.path }?.attempts == 1, "reset to pending, then tried once")
        #expect(files.first { $0.path == corrupt.path }?.status == .failed)
        #expect(files.filter { $0.status == .done }.map(\.completions) == [1, 2, 1, 1], "done files are not redone")
        await catalog.close()
    }

    /// SIGKILL in the middle of a batch, then the same command again: every file done once, with the events of a lone
    /// run, and the killed batch's child did not live on.
    @Test func killedBatchResumesWithOnlyWhatIsNotDone() async throws {
        let clips = try await TestClips.folder()
        let output = clips.deletingLastPathComponent().appendingPathComponent("out")
        let arguments = ["batch", clips.path, "--output-dir", output.path, "--workers", "1"] + analysisOptions
        let batch = try startStreamlens(arguments, log: clips.deletingLastPathComponent().appendingPathComponent("first.log"))
        let catalogPath = output.appendingPathComponent("catalog.sqlite").path
        // Kill it once one file is done and the next one is running.
        let midway = try await waitUntil {
            guard FileManager.default.fileExists(atPath: catalogPath) else { return false }
            let status = try await streamlens(["status", "--catalog", "sqlite:" + catalogPath, "--json"])
            let json = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
            let counts = json?["files"] as? [String: Int]
            return (counts?["done"] ?? 0) >= 1 && (counts?["running"] ?? 0) == 1
        }
        #expect(midway)
        kill(batch.processIdentifier, SIGKILL)
        batch.waitUntilExit()
        #expect(try await waitUntil(timeout: 10) { processes(mentioning: output.path).isEmpty },
                "the running file's child dies with its batch")

        let catalog = try await CatalogLocation.sqlite(path: catalogPath).open()
        let before = try await catalog.files()
        #expect(before.contains { $0.status == .running }, "the killed batch left its file running")
        #expect(before.contains { $0.status == .done })

        let resumed = try await streamlens(arguments + ["--quiet"])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        let after = try await catalog.files()
        #expect(after.map(\.status) == Array(repeating: FileStatus.done, count: TestClips.clips.count))
        #expect(after.map(\.completions) == Array(repeating: 1, count: TestClips.clips.count))
        for file in before where file.status == .done {
            #expect(after.first { $0.path == file.path }?.attempts == 1, "done before the kill: not run again")
        }
        for clip in TestClips.clips {
            let path = clips.appendingPathComponent(clip.relativePath).path
            #expect(try await catalogEvents(catalog, file: path) == (try await TestClips.eventsOfLoneRun(clip.relativePath)))
        }
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("20240501_093000.events.jsonl.partial").path))
        await catalog.close()
    }

    /// A summary page that could not be written was still named in the batch's last line (a QA sweep's full disk):
    /// now the line names it only when it is there, and no half-written summary is left behind.
    @Test func aSummaryThatCouldNotBeWrittenIsNotNamed() async throws {
        let clips = try await TestClips.folder()
        let output = clips.deletingLastPathComponent().appendingPathComponent("out")
        // A folder where the page goes: writing it fails.
        try FileManager.default.createDirectory(
            at: output.appendingPathComponent("batch-summary.html"), withIntermediateDirectories: true)
        let result = try await streamlens(["batch", clips.path, "--output-dir", output.path] + analysisOptions)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("cannot write the batch summary into"), "\(result.standardError)")
        #expect(result.standardOutput.contains("files: 4 done, 0 failed\n"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("batch-summary.html"), "\(result.standardOutput)")
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path)
        #expect(!names.contains { $0.contains(".partial-") }, "\(names)")
    }

    /// An output folder that fills up: the batch stops at the first file that meets it, with one line, exit 1, and
    /// no file marked failed (it used to run and fail every remaining file in turn, each needing --retry-failed);
    /// with room again, the same command does them all.
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root")) func aFullOutputFolderStopsTheBatchWithItsFilesPending() async throws {
        let clips = try await TestClips.folder()
        let output = clips.deletingLastPathComponent().appendingPathComponent("out")
        let catalog = "sqlite:" + clips.deletingLastPathComponent().appendingPathComponent("catalog.sqlite").path
        // 200 KiB: the first video fills it (the clips encode to 300 KB and more at x264's default rate).
        let unmount = try mountTmpfs(at: output, size: "200k")
        let arguments = ["batch", clips.path, "--output-dir", output.path, "--catalog", catalog, "--quiet",
                         "--pipeline", testPipeline, "--output", "mp4"]
        let full = try await streamlens(arguments)
        unmount()
        #expect(full.status == 1, "\(full.standardError)")
        let lines = full.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(full.standardError)")
        #expect(full.standardError.contains("the output folder '\(output.path)' is full (No space left"), "\(full.standardError)")
        #expect(full.standardError.contains("free space there and run the same command"), "\(full.standardError)")
        let status = try await CatalogLocation(parsing: catalog).open()
        let counts = try await status.statusCounts()
        await status.close()
        #expect(counts.failed == 0 && counts.running == 0 && counts.pending >= 3, "\(counts)")

        let again = try await streamlens(arguments)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput.contains("4 files: 4 done, 0 failed"), "\(again.standardOutput)")
    }

    /// The same with the catalog in the output folder (the default): the catalog's own write fails first, and the
    /// batch said only "catalog … failed: full: database or disk is full". Now the one line says the folder is full.
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root")) func aFullOutputFolderHoldingTheCatalogIsSaidSo() async throws {
        let clips = try await TestClips.folder()
        let disk = clips.deletingLastPathComponent().appendingPathComponent("disk")
        let unmount = try mountTmpfs(at: disk, size: "300k")
        defer { unmount() }
        let output = disk.appendingPathComponent("out")
        let full = try await streamlens(
            ["batch", clips.path, "--output-dir", output.path, "--quiet", "--pipeline", testPipeline, "--output", "mp4"])
        #expect(full.status == 1, "\(full.standardError)")
        #expect(full.standardError.split(separator: "\n").count == 1, "\(full.standardError)")
        #expect(full.standardError.hasPrefix("streamlens: error: the output folder '\(output.path)' is full"), "\(full.standardError)")
        #expect(full.standardError.contains("free space there and run the same command"), "\(full.standardError)")
    }

    /// An output folder that is a file: "cannot create output folder …: check the path and its permissions" did not
    /// say what was wrong.
    @Test func anOutputFolderThatIsAFileIsSaidSo() async throws {
        let clips = try await TestClips.folder()
        let file = clips.deletingLastPathComponent().appendingPathComponent("out")
        try Data("a file".utf8).write(to: file)
        let result = try await streamlens(["batch", clips.path, "--output-dir", file.path, "--quiet"] + analysisOptions)
        #expect(result.status == 1)
        #expect(result.standardError == "streamlens: error: --output-dir '\(file.path)' is a file, not a folder: give a folder "
            + "(it is created when missing)\n", "\(result.standardError)")
        #expect(try Data(contentsOf: file) == Data("a file".utf8))
    }

    /// The recordings' own folder as the output folder: every recording's output is the recording itself. It was
    /// failed file by file as "not an output of this recording", with advice that could not help; now the batch is
    /// refused before it starts, and nothing is written there.
    @Test func anOutputFolderThatIsTheInputFolderIsRefused() async throws {
        let clips = try await TestClips.folder()
        let before = try FileManager.default.contentsOfDirectory(atPath: clips.path).sorted()
        let result = try await streamlens(["batch", clips.path, "--output-dir", clips.path, "--quiet", "--pipeline", testPipeline])
        #expect(result.status == 2)
        let first = clips.appendingPathComponent("20240501_093000.mp4").path
        #expect(result.standardError == "streamlens: error: --output-dir '\(clips.path)' would write '\(first)', which is the "
            + "recording '\(first)' itself: choose an output folder outside the input folder\n", "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: clips.path).sorted() == before)
    }

    /// A worker whose lease was taken over (it expired while the worker could not renew it, and another worker took
    /// the file) stops its run of the file at once: it ran on beside the new owner's, both writing the same outputs.
    /// Here the takeover is written into the catalog by hand, as another machine's claim would; when that lease
    /// expires unrenewed, the batch takes the file back and does it, once.
    @Test func aWorkerThatLostItsLeaseStopsItsRun() async throws {
        let folder = try makeTemporaryFolder()
        let inputs = try await makeLongClipFolder(in: folder)
        let output = folder.appendingPathComponent("out")
        let log = folder.appendingPathComponent("batch.log")
        let batch = try startStreamlens(
            ["batch", inputs.path, "--output-dir", output.path, "--workers", "1", "--lease", "3", "--detector", "hog",
             "--analysis-interval", "0", "--quiet"], log: log)
        defer { if batch.isRunning { kill(batch.processIdentifier, SIGKILL) } }
        let started = try await waitUntil(timeout: 60) {
            FileManager.default.fileExists(atPath: output.appendingPathComponent("long.mp4.partial").path)
        }
        try #require(started, "the file never started")
        let child = try #require(processes(mentioning: "long.mp4").first { $0 != batch.processIdentifier })

        let catalog = output.appendingPathComponent("catalog.sqlite").path
        let takeover = try await runCommand("/usr/bin/python3", ["-c", """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], timeout=10)
            c.execute("UPDATE batch_files SET lease_owner = 'elsewhere:1:0', lease_expires = ? WHERE status = 'running'", (time.time() + 4,))
            c.commit()
            """, catalog])
        try #require(takeover.status == 0, "\(takeover.standardError)")
        let stopped = try await waitUntil(timeout: 5) { !FileManager.default.fileExists(atPath: "/proc/\(child)") }
        #expect(stopped, "the run of the taken-over file went on")

        let ended = try await waitUntil(timeout: 240) { !batch.isRunning }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(ended && batch.terminationStatus == 0, "status \(batch.terminationStatus): \(text)")
        #expect(text.contains("lease lost (expired and taken over by another worker); its run here was stopped"), "\(text)")
        let status = try await CatalogLocation(parsing: "sqlite:" + catalog).open(create: false)
        let files = try await status.files()
        await status.close()
        #expect(files.map(\.status) == [.done] && files.first?.completions == 1 && files.first?.attempts == 2, "\(files)")
    }

    /// Ctrl-C reaches only the batch (its children run in process groups of their own): the batch passes it on, the
    /// running file stops at once, keeps what it wrote as `NAME.partial` and goes back to pending, and the good
    /// outputs of an earlier run under the final names stay as they were.
    /// Its last line says how to go on: the same command, or without `--force` (the same `--force` command started
    /// every file over again).
    @Test(arguments: [false, true]) func anInterruptedBatchStopsItsFileAndNamesNothing(force: Bool) async throws {
        let folder = try makeTemporaryFolder()
        let inputs = try await makeLongClipFolder(in: folder)
        let output = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        // An earlier run's files, each as such a file starts (a run replaces only its own kind of file); its report
        // names the video as its output, as a batch's run report does.
        let earlier = [
            "long.mp4": "an earlier run's good video", "long.events.jsonl": "{\"type\":\"detection\",\"start\":0.3}\n",
            "long.vtt": "WEBVTT\n\n",
            "long.report.json": "{\"run\":{\"streamlens_version\":\"0.1.0\",\"output\":\"\(output.path)/long.mp4\"}}",
        ].mapValues { Data($0.utf8) }
        let names = earlier.keys.sorted()
        for (name, data) in earlier { try data.write(to: output.appendingPathComponent(name)) }

        let batch = try startStreamlens(
            ["batch", inputs.path, "--output-dir", output.path, "--workers", "1", "--detector", "hog",
             "--analysis-interval", "0", "--quiet"] + (force ? ["--force"] : []), log: folder.appendingPathComponent("batch.log"))
        // Stopped once the child's encoder has written some of the file.
        let partial = output.appendingPathComponent("long.mp4.partial").path
        let started = try await waitUntil(timeout: 60) {
            ((try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int) ?? 0) > 0
        }
        try #require(started, "the file never started")
        let signalled = Date()
        kill(batch.processIdentifier, SIGINT)
        let ended = try await waitUntil(timeout: 60) { !batch.isRunning }
        let stopTime = Date().timeIntervalSince(signalled)
        #expect(ended && batch.terminationStatus == 130, "status \(batch.terminationStatus)")
        #expect(stopTime < 10, "the batch took \(stopTime) s to stop")
        for name in names {
            #expect(try Data(contentsOf: output.appendingPathComponent(name)) == earlier[name], "\(name) was replaced")
        }
        // The child stopped partway: its report, kept partial, says so.
        let reportData = try Data(contentsOf: output.appendingPathComponent("long.report.json.partial"))
        let report = try #require(try JSONSerialization.jsonObject(with: reportData) as? [String: Any])
        let run = try #require(report["run"] as? [String: Any])
        #expect(run["interrupted"] as? Bool == true)
        let frames = try #require(report["frames"] as? [String: Any])
        #expect(try #require(frames["decoded"] as? Int) < 1200, "\(frames)")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("long.mp4.partial").path))
        let catalog = try await CatalogLocation.sqlite(path: output.appendingPathComponent("catalog.sqlite").path).open()
        #expect(try await catalog.files().map(\.status) == [.pending])
        await catalog.close()
        let log = try String(contentsOf: folder.appendingPathComponent("batch.log"), encoding: .utf8)
        #expect(log.contains("batch: interrupted; 0 of 1 files done; " + (force
            ? "run it again without --force to do the files left (with --force every file starts over)"
            : "run the same command to go on")), "\(log)")
    }

    /// `--force` (and a retry, and a new output folder) marks done files to be done again, but what their last run
    /// found stays until the next run of each completes: an interrupted `--force` batch emptied the catalog's events
    /// and results of files it never started. A changed recording's old events go at once.
    @Test func aForcedRedoKeepsTheLastResultsUntilItCompletes() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.aForcedRedoKeepsTheLastResults(
            on: CatalogLocation.sqlite(path: folder.appendingPathComponent("catalog.sqlite").path))
    }

    /// Shared with the PostgreSQL catalog's test.
    static func aForcedRedoKeepsTheLastResults(on location: CatalogLocation) async throws {
        let catalog = try await location.open()
        let worker = WorkerIdentity(worker: 0)
        func input(_ name: String, hash: String = "v1") -> CatalogInput {
            CatalogInput(path: "/videos/\(name).mp4", outputName: name, identity: FileIdentity(size: 1, modified: 0, contentHash: hash))
        }
        func result(_ events: [String]) -> FileResult {
            FileResult(report: "{}", frames: 10, dropped: 0, seconds: 1, events: events)
        }
        _ = try await catalog.register([input("a"), input("b")], policy: RegistrationPolicy())
        for _ in 0..<2 {
            let claimed = try #require(try await catalog.claim(worker: worker, lease: .seconds(60)))
            _ = try await catalog.complete(path: claimed.path, worker: worker, result: result(["{\"type\":\"first\"}"]))
        }
        let forced = try await catalog.register([input("a"), input("b")], policy: RegistrationPolicy(force: true))
        #expect(forced.pending == 2)
        #expect(try await catalog.events(type: nil).map(\.type) == ["first", "first"], "the last run's events stay")
        #expect(try await catalog.files().map(\.frames) == [10, 10])
        // The redo of a completes: its events replace the old ones; b, never redone, keeps its own.
        let claimed = try #require(try await catalog.claim(worker: worker, lease: .seconds(60)))
        _ = try await catalog.complete(path: claimed.path, worker: worker, result: result(["{\"type\":\"second\"}"]))
        #expect(try await catalog.events(type: nil).map(\.type) == ["second", "first"])
        // A changed recording under b's name: its old events describe another file and go.
        _ = try await catalog.register([input("a"), input("b", hash: "v2")], policy: RegistrationPolicy())
        #expect(try await catalog.events(type: nil).map(\.type) == ["second"])
        await catalog.close()
    }

    /// Two batches on one catalog (another folder, other options): the second took the first's pending files and
    /// ran them with its own options into its own output folder, and the first, run again, found them done.
    @Test func aBatchTakesOnlyItsOwnInputsFromASharedCatalog() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.eachBatchTakesOnlyItsOwnInputs(
            on: CatalogLocation.sqlite(path: folder.appendingPathComponent("catalog.sqlite").path))
    }

    /// Shared with the PostgreSQL catalog's test.
    static func eachBatchTakesOnlyItsOwnInputs(on location: CatalogLocation) async throws {
        func inputs(_ names: [String]) -> [CatalogInput] {
            names.map { CatalogInput(path: "/videos/\($0).mp4", outputName: $0, identity: FileIdentity(size: 1, modified: 0, contentHash: $0)) }
        }
        let may = try await location.open(), june = try await location.open()
        _ = try await may.register(inputs(["may1", "may2"]), policy: RegistrationPolicy())
        let juneCounts = try await june.register(inputs(["june1"]), policy: RegistrationPolicy())
        #expect(juneCounts.total == 1 && juneCounts.pending == 1)
        let worker = WorkerIdentity(worker: 0)
        #expect(try await june.claim(worker: worker, lease: .seconds(60))?.path == "/videos/june1.mp4")
        #expect(try await june.claim(worker: worker, lease: .seconds(60)) == nil, "May's files are May's")
        #expect(try await june.files().map(\.path) == ["/videos/june1.mp4"])
        #expect(try await may.claim(worker: worker, lease: .seconds(60))?.path == "/videos/may1.mp4")
        #expect(try await may.statusCounts().total == 2)
        // The status command sees the whole catalog.
        let status = try await location.open()
        #expect(try await status.statusCounts().total == 3)
        for catalog in [may, june, status] { await catalog.close() }
    }

    /// Two cards' FILE0001.MP4 into one output folder: the second batch replaced the first's outputs, and the
    /// catalog listed both as done with the same outputs. A catalog reused with another output folder wrote nothing
    /// there: every file counted as done already.
    static func outputsAreOwnedByOneFileAndFollowTheOutputFolder(on location: CatalogLocation) async throws {
        func card(_ name: String, into folder: String) -> CatalogInput {
            CatalogInput(
                path: "/cards/\(name)/FILE0001.MP4", outputName: "FILE0001",
                identity: FileIdentity(size: 1, modified: 0, contentHash: name), outputFolder: folder)
        }
        let first = try await location.open()
        _ = try await first.register([card("A", into: "/out")], policy: RegistrationPolicy())
        let worker = WorkerIdentity(worker: 0)
        let claimed = try #require(try await first.claim(worker: worker, lease: .seconds(60)))
        _ = try await first.complete(
            path: claimed.path, worker: worker, result: FileResult(report: nil, frames: 1, dropped: 0, seconds: 1, events: []))
        await first.close()

        let second = try await location.open()
        let error = await #expect(throws: CatalogError.self) {
            _ = try await second.register([card("B", into: "/out")], policy: RegistrationPolicy())
        }
        #expect(error.map { "\($0)" }?.contains("'FILE0001' in '/out' is already the output of '/cards/A/FILE0001.MP4'") == true)
        // Into another folder it is no clash; card A, registered for a new folder, is to be done again there.
        let counts = try await second.register([card("A", into: "/out2")], policy: RegistrationPolicy())
        #expect(counts.pending == 1 && counts.done == 0)
        await second.close()
    }

    @Test func outputsAreOwnedByOneFileAndFollowTheOutputFolder() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.outputsAreOwnedByOneFileAndFollowTheOutputFolder(
            on: CatalogLocation.sqlite(path: folder.appendingPathComponent("catalog.sqlite").path))
    }

    /// A user's own recording that carries an output's name in the output folder was replaced by the batch's
    /// annotated video. Now that file fails with one line naming it, the recording is left byte for byte, the other
    /// files are done; once it is moved away, --retry-failed does the file. A second batch run replaces its own
    /// outputs (their report names them) without complaint.
    @Test func aRecordingOfAnOutputsNameInTheOutputFolderIsLeftAlone() async throws {
        let clips = try await TestClips.folder()
        let output = clips.deletingLastPathComponent().appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let recording = output.appendingPathComponent("20240501_093000.mp4")
        let ownBytes = Data("the user's own recording, not an output".utf8)
        try ownBytes.write(to: recording)
        let options = ["--output-dir", output.path, "--quiet", "--pipeline", testPipeline, "--output", "mp4"]

        let first = try await streamlens(["batch", clips.path] + options)
        #expect(first.status == 1, "\(first.standardError)")
        #expect(first.standardError.contains("failed: \(clips.path)/20240501_093000.mp4: '\(recording.path)' already exists "
            + "and is not an output of this recording: it was left as it is; move it away or choose another --output-dir"),
            "\(first.standardError)")
        #expect(try Data(contentsOf: recording) == ownBytes)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("20240501_093000.report.json").path))
        let catalog = try await CatalogLocation.sqlite(path: output.appendingPathComponent("catalog.sqlite").path).open()
        let counts = try await catalog.statusCounts()
        #expect(counts.done == 3 && counts.failed == 1 && counts.pending == 0)

        try FileManager.default.moveItem(at: recording, to: clips.deletingLastPathComponent().appendingPathComponent("kept.mp4"))
        let retried = try await streamlens(["batch", clips.path, "--retry-failed"] + options)
        #expect(retried.status == 0, "\(retried.standardError)")
        #expect(try await catalog.statusCounts().done == 4)
        #expect(try Data(contentsOf: recording) != ownBytes)

        // Its own outputs, done again, are replaced.
        let forced = try await streamlens(["batch", clips.path, "--force"] + options)
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try await catalog.statusCounts().done == 4)
        await catalog.close()
    }

    /// An earlier batch's output folder inside the input tree (written by a batch into another folder, or a run
    /// beside its report): a later batch writing elsewhere took its annotated videos as new recordings. A video a
    /// run report beside it names as its output is not an input; a video of the same name without one still is.
    @Test func anEarlierBatchsOutputsInTheInputTreeAreNotInputs() async throws {
        let clips = try await TestClips.folder()
        let earlier = clips.appendingPathComponent("annotated")
        let first = try await streamlens(["batch", clips.appendingPathComponent("day2").path, "--output-dir", earlier.path,
                                          "--quiet", "--pipeline", testPipeline, "--output", "mp4"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(FileManager.default.fileExists(atPath: earlier.appendingPathComponent("20240502_080000.mp4").path))
        // A recording that merely sits beside another's report is still one.
        let stray = clips.appendingPathComponent("annotated/stray.mp4")
        try FileManager.default.copyItem(at: clips.appendingPathComponent("20240501_093000.mp4"), to: stray)
        try FileManager.default.copyItem(
            at: earlier.appendingPathComponent("20240502_080000.report.json"),
            to: clips.appendingPathComponent("annotated/stray.report.json"))

        let found = try InputDiscovery.discover([clips.path], outputFolder: clips.deletingLastPathComponent().appendingPathComponent("elsewhere").path)
        #expect(found.map(\.outputName) == ["20240501_093000", "20240501_093100", "annotated/stray", "day2/20240502_080000",
                                            "day2/20240502_081500"])
    }

    /// A batch of the test clips into `out/` beside them with a pipeline file holding `yaml` (then `rewrite` before a
    /// second batch, which is expected refused): the first run's result, and where its outputs went.
    private func batchWithPipeline(_ yaml: String, thenRefused rewrite: String) async throws
        -> (first: CommandResult, refused: CommandResult, pipeline: URL, output: URL)
    {
        let clips = try await TestClips.folder()
        let pipeline = clips.deletingLastPathComponent().appendingPathComponent("pipeline.yaml")
        try yaml.write(to: pipeline, atomically: true, encoding: .utf8)
        let output = clips.deletingLastPathComponent().appendingPathComponent("out")
        let first = try await streamlens(["batch", clips.path, "--output-dir", output.path, "--pipeline", pipeline.path, "--quiet"])
        try rewrite.write(to: pipeline, atomically: true, encoding: .utf8)
        let refused = try await streamlens(["batch", clips.path, "--output-dir", output.path, "--pipeline", pipeline.path])
        return (first, refused, pipeline, output)
    }

    /// Without --output, the pipeline file's `sink.output` says the container: it was ignored (every file became an
    /// .mp4). A sink description, which names one place for every file, is refused.
    @Test func thePipelineFilesContainerIsUsed() async throws {
        let (result, refused, pipeline, output) = try await batchWithPipeline(
            "stages: { detector: false, speed_limits: false }\nsink: { output: somewhere.mkv }\n",
            thenRefused: "sink: { output: x264enc ! matroskamux ! filesink location=all.mkv }\n")
        #expect(result.status == 0, "\(result.standardError)")
        for clip in TestClips.clips {
            let stem = output.appendingPathComponent((clip.relativePath as NSString).deletingPathExtension).path
            #expect(FileManager.default.fileExists(atPath: stem + ".mkv"), "\(stem).mkv")
            #expect(!FileManager.default.fileExists(atPath: stem + ".mp4"))
        }
        #expect(refused.status == 2)
        #expect(refused.standardError == "streamlens: error: \(pipeline.path): 'sink.output' is a GStreamer description, "
            + "which would write every file to one place; give a file name (its container is used: mp4, mkv, webm or mov) "
            + "or null, or pass --output\n", "\(refused.standardError)")
    }

    /// A pipeline file's report page is written per file (the shipped dashcam pipeline sets one, and a batch refused
    /// it); a timeline every file would share is still refused.
    @Test func aPipelineFilesReportPageIsWrittenPerFile() async throws {
        let (result, refused, _, output) = try await batchWithPipeline(
            "stages: { detector: false, speed_limits: false }\nsink: { output: out/x.mkv }\nreport: { html: out/x.html }\n",
            thenRefused: "report: { timeline: all.csv }\n")
        #expect(result.status == 0, "\(result.standardError)")
        for clip in TestClips.clips {
            let stem = output.appendingPathComponent((clip.relativePath as NSString).deletingPathExtension).path
            let page = try String(contentsOfFile: stem + ".report.html", encoding: .utf8)
            #expect(page.contains("<title>StreamLens report"))
            #expect(FileManager.default.fileExists(atPath: stem + ".mkv"), "\(stem).mkv")
        }
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("x.html").path))
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("sets report.timeline or report.metrics_port"), "\(refused.standardError)")
    }

    /// A missing entry of an @LIST file was said as a missing input, without the list or the line to correct.
    @Test func aMissingEntryOfAListNamesTheListAndTheLine() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("a".utf8).write(to: folder.appendingPathComponent("a.mp4"))
        let list = folder.appendingPathComponent("files.txt")
        try "# May\na.mp4\n\nb.mp4\n".write(to: list, atomically: true, encoding: .utf8)
        let error = #expect(throws: BatchInputError.self) { try InputDiscovery.discover(["@" + list.path]) }
        #expect(error.map { "\($0)" } == "'b.mp4' (\(list.path), line 4) does not exist: correct or remove that line")
    }

    /// An output folder inside the input folder was searched too: each run took the last one's outputs as inputs
    /// (2, 4, then 6 files, `out/out/out/a.mp4`); hidden folders such as `.Trashes` were searched as well.
    @Test func theOutputFolderAndHiddenFoldersAreNotInputs() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for relative in ["a.mp4", "day1/b.mp4", "out/a.mp4", "out/day1/b.mp4", ".Trashes/deleted.mp4", ".hidden.mp4"] {
            let file = folder.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(relative.utf8).write(to: file)
        }
        let found = try InputDiscovery.discover([folder.path], outputFolder: folder.appendingPathComponent("out").path)
        #expect(found.map(\.outputName) == ["a", "day1/b"])
    }
}

/// Inputs whose outputs would share a name: a dashcam's two cameras (`Front/`, `Rear/`) name their files alike, and a
/// batch of both was refused whole.
@Suite struct SharedOutputNameTests {
    private func files(_ relatives: [String]) throws -> URL {
        let folder = try makeTemporaryFolder()
        for relative in relatives {
            let file = folder.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(relative.utf8).write(to: file)
        }
        return folder
    }

    @Test func twoFoldersWithTheSameFileNamesKeepTheirFoldersNames() throws {
        let folder = try files(["Front/clip0001.mp4", "Front/clip0002.mp4", "Rear/clip0001.mp4", "Rear/day/only.mp4"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let found = try InputDiscovery.discover(
            [folder.appendingPathComponent("Front").path, folder.appendingPathComponent("Rear").path])
        // Only the names that met change: the others stay where a batch of one folder puts them.
        #expect(found.map(\.outputName) == ["Front/clip0001", "clip0002", "Rear/clip0001", "day/only"])
    }

    @Test func oneNameInTwoContainersKeepsTheExtension() throws {
        let folder = try files(["a.mkv", "a.mp4", "b.mp4"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let found = try InputDiscovery.discover([folder.path])
        #expect(found.map(\.outputName) == ["a-mkv", "a-mp4", "b"])
        // Named one by one, from their folders.
        let named = try InputDiscovery.discover([folder.appendingPathComponent("a.mp4").path, folder.appendingPathComponent("a.mkv").path])
        #expect(named.map(\.outputName) == ["a-mkv", "a-mp4"])
    }

    @Test func filesNeitherTheirFoldersNorExtensionsTellApartAreRefused() throws {
        let folder = try files(["x/cam/a.mp4", "y/cam/a.mp4"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("x/cam/a.mp4").path
        let second = folder.appendingPathComponent("y/cam/a.mp4").path
        let error = #expect(throws: BatchInputError.self) { try InputDiscovery.discover([first, second]) }
        #expect(error.map { "\($0)" } == "'\(first)' and '\(second)' would both write 'a' (neither their folders' names "
            + "nor their extensions tell them apart): give them in separate batches or rename one")
    }

    /// The whole batch of two camera folders runs, each recording's outputs under its camera's name.
    @Test func aBatchOfTwoCamerasWritesEachUnderItsFolder() async throws {
        let clips = try await TestClips.folder()
        let cameras = clips.deletingLastPathComponent().appendingPathComponent("cameras")
        for camera in ["Front", "Rear"] {
            let folder = cameras.appendingPathComponent(camera)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: clips.appendingPathComponent(camera == "Front" ? "20240501_093000.mp4" : "20240501_093100.mp4"),
                to: folder.appendingPathComponent("clip0001.mp4"))
        }
        let output = cameras.appendingPathComponent("out")
        let result = try await streamlens(
            ["batch", cameras.appendingPathComponent("Front").path, cameras.appendingPathComponent("Rear").path,
             "--output-dir", output.path, "--quiet"] + analysisOptions)
        #expect(result.status == 0, "\(result.standardError)")
        for camera in ["Front", "Rear"] {
            let report = try JSONSerialization.jsonObject(
                with: Data(contentsOf: output.appendingPathComponent("\(camera)/clip0001.report.json"))) as? [String: Any]
            let run = report?["run"] as? [String: Any]
            #expect((run?["input"] as? String)?.hasSuffix("\(camera)/clip0001.mp4") == true, "\(String(describing: run))")
            #expect(((report?["frames"] as? [String: Any])?["output"] as? Int ?? 0) > 0)
        }
    }
}
