import Foundation
import Testing
import StreamLensBatch

/// `status`, `events` and the catalog addresses, on an SQLite catalog a real batch wrote.
@Suite(.serialized) struct CatalogQueryTests {
    @Test func statusAndEventsReadWhatTheBatchRecorded() async throws {
        let clips = try await TestClips.folder()
        let output = clips.deletingLastPathComponent().appendingPathComponent("out")
        let list = clips.deletingLastPathComponent().appendingPathComponent("list.txt")
        // A list file: one clip by relative path, a comment, a blank line.
        try "# two of the clips\nclips/20240501_093000.mp4\n\nclips/day2/20240502_080000.mp4\n".write(to: list, atomically: true, encoding: .utf8)
        let batch = try await streamlens(["batch", "@" + list.path, "--output-dir", output.path, "--quiet"] + analysisOptions)
        #expect(batch.status == 0, "\(batch.standardError)")
        let url = "sqlite:" + output.appendingPathComponent("catalog.sqlite").path

        let status = try await streamlens(["status", "--catalog", url])
        #expect(status.status == 0)
        let frames = try await TestClips.framesOfLoneRun("20240501_093000.mp4")
            + (try await TestClips.framesOfLoneRun("day2/20240502_080000.mp4"))
        let events = try await TestClips.eventsOfLoneRun("20240501_093000.mp4").count
            + (try await TestClips.eventsOfLoneRun("day2/20240502_080000.mp4")).count
        #expect(status.standardOutput == "files: 2 (2 done, 0 failed, 0 pending, 0 running)\nframes: \(frames) · events: \(events)\n")

        // A glob with a folder matches the end of the path: `day2/*` as `*/day2/*`.
        let byFolder = try await streamlens(["events", "--catalog", url, "--format", "csv", "--file", "day2/*"])
        #expect(byFolder.standardOutput.split(separator: "\n").count == 1 + (try await TestClips.eventsOfLoneRun("day2/20240502_080000.mp4")).count)
        let csv = try await streamlens(["events", "--catalog", url, "--format", "csv", "--file", "2024050[2]_*"])
        #expect(csv.status == 0, "\(csv.standardError)")
        var rows = csv.standardOutput.split(separator: "\n").map(String.init)
        #expect(rows.removeFirst() == "file,drive_time,type,stage,start,end,class,class_id,track_id,confidence,value,unit,box,reads,observations,reason")
        let lone = try await TestClips.eventsOfLoneRun("day2/20240502_080000.mp4")
        #expect(rows.count == lone.count)
        #expect(rows.allSatisfy { $0.hasPrefix(clips.appendingPathComponent("day2/20240502_080000.mp4").path + ",2024-05-02T08:00:0") })

        let tracks = try await streamlens(["events", "--catalog", url, "--type", "track"])
        #expect(tracks.standardOutput.split(separator: "\n").allSatisfy { $0.contains("\"type\":\"track\"") })
        let all = try await streamlens(["events", "--catalog", url])
        let loneAll = try await TestClips.eventsOfLoneRun("20240501_093000.mp4") + lone
        #expect(all.standardOutput.split(separator: "\n").count == loneAll.count)
    }

    /// A location that is not one is a bad argument (exit 2; it was 1, as for a catalog that cannot be opened).
    @Test(arguments: [
        (["status", "--catalog", "mysql://x@y/z"], Int32(2), "streamlens: error: bad catalog 'mysql://x@y/z': use sqlite:PATH or postgresql://"),
        (["events", "--catalog", "postgresql://host-without-user/db"], 2, "streamlens: error: bad catalog 'postgresql://host-without-user/db'"),
        (["status", "--catalog", "sqlite:/nonexistent/catalog.sqlite"], 1, "streamlens: error: cannot open catalog sqlite:/nonexistent/catalog.sqlite: no such file"),
        (["batch", "/dev/null", "--output-dir", "/tmp/streamlens-batch-bad-url", "--catalog", "redis://localhost"], 2, "streamlens: error: bad catalog 'redis://localhost'"),
        // The password is not repeated on a terminal or in a log (a QA sweep found it echoed).
        (["status", "--catalog", "postgresql://qa:secret@127.0.0.1:notaport/cat2"], 2, "streamlens: error: bad catalog 'postgresql://qa:***@127.0.0.1:notaport/cat2'"),
        // A password holding "/" must be written %2F: the message says how.
        (["events", "--catalog", "postgresql://qa:se/cret@127.0.0.1/cat2"], 2, "streamlens: error: bad catalog"),
    ])
    func badCatalogIsOneLine(arguments: [String], status: Int32, message: String) async throws {
        let result = try await streamlens(arguments)
        #expect(result.status == status)
        if status == 2 { #expect(result.standardError.contains("%40 %2F %3A %25"), "\(result.standardError)") }
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
    }

    /// `status` and `events` only read an SQLite catalog: a user who may read it but not write its folder (an archived
    /// or shared catalog) got "attempt to write a readonly database", and one who could write it left `-shm`/`-wal`
    /// files behind.
    @Test(.enabled(if: getuid() == 0, "needs root to switch to nobody")) func aCatalogIsReadWithoutWritingBesideIt() async throws {
        let clips = try await TestClips.folder()
        let output = clips.deletingLastPathComponent().appendingPathComponent("out")
        let batch = try await streamlens(["batch", clips.path, "--output-dir", output.path, "--quiet"] + analysisOptions)
        try #require(batch.status == 0, "\(batch.standardError)")
        let catalog = output.appendingPathComponent("catalog.sqlite").path
        let before = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        for command in ["status", "events"] {
            let asNobody = try await runCommand(
                "/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups", streamlensExecutable, command, "--catalog", "sqlite:" + catalog])
            #expect(asNobody.status == 0, "\(command): \(asNobody.standardError)")
            if command == "status" {
                #expect(asNobody.standardOutput.contains("files: 4 (4 done, 0 failed, 0 pending, 0 running)"), "\(asNobody.standardOutput)")
            }
        }
        let asOwner = try await streamlens(["status", "--catalog", "sqlite:" + catalog])
        #expect(asOwner.status == 0, "\(asOwner.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == before)
    }

    /// Percent-encoding in a PostgreSQL address is decoded once, as libpq does: a password "50%off", written
    /// "50%25off", was decoded twice and dropped.
    @Test func aPercentEncodedPasswordIsDecodedOnce() throws {
        let location = try CatalogLocation(parsing: "postgresql://night%20shift:50%25off%40home@db.local:5433/batch")
        guard case .postgres(let address) = location else {
            Issue.record("\(location) is not a PostgreSQL address")
            return
        }
        #expect(address.user == "night shift")
        #expect(address.password == "50%off@home")
        #expect(address.host == "db.local" && address.port == 5433 && address.database == "batch")
    }

    /// `status` on another program's SQLite database (or an empty file) printed "files: 0" and created the
    /// catalog's tables in it.
    @Test(arguments: ["", "other"])
    func queriesNeverWriteIntoAFileThatIsNotACatalog(content: String) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("other.sqlite").path
        if content.isEmpty {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        } else {
            let made = try await runCommand("/usr/bin/env", ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t(x)'); c.commit()", path])
            try #require(made.status == 0, "\(made.standardError)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for command in ["status", "events"] {
            let result = try await streamlens([command, "--catalog", "sqlite:\(path)"])
            #expect(result.status == 1)
            #expect(result.standardError.contains("it is not a catalog written by streamlens batch"), "\(result.standardError)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// A SIGKILLed batch's files showed as "running" for good; the next run takes them over, and status says so.
    @Test func statusTellsAFileWhoseWorkerIsGone() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("catalog.sqlite").path
        let catalog = try await CatalogLocation.sqlite(path: path).open()
        let identity = FileIdentity(size: 1, modified: 0, contentHash: "x")
        _ = try await catalog.register(
            [CatalogInput(path: "/v/alive.mp4", outputName: "alive", identity: identity),
             CatalogInput(path: "/v/gone.mp4", outputName: "gone", identity: identity)], policy: RegistrationPolicy())
        // A process id no process has (above the kernel's pid_max).
        _ = try await catalog.claim(worker: WorkerIdentity(worker: 0), lease: .seconds(600))
        _ = try await catalog.claim(worker: WorkerIdentity(processID: 4_194_999, worker: 0), lease: .seconds(600))
        await catalog.close()
        let result = try await streamlens(["status", "--catalog", "sqlite:\(path)"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("running: /v/gone.mp4") && $0.hasSuffix("its worker is gone; the next batch run takes it over") },
                "\(result.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("running: /v/alive.mp4") && !$0.contains("gone") }, "\(result.standardOutput)")
    }

    @Test func perFileRunOptionsAreRefused() async throws {
        let result = try await streamlens(["batch", "/dev/null", "--output-dir", "/tmp/x", "--events", "e.jsonl"])
        #expect(result.status == 2)
        #expect(result.standardError == "streamlens: error: --events is set per file by batch (under --output-dir); leave it out\n")
        // A batch sets no timeline, page or metrics port per file: those are refused for what they are.
        let timeline = try await streamlens(["batch", "/dev/null", "--output-dir", "/tmp/x", "--timeline", "t.jsonl"])
        #expect(timeline.status == 2)
        #expect(timeline.standardError == "streamlens: error: --timeline is for a single run: every file of a batch would "
            + "share it; leave it out (each file's report, events and subtitles go under --output-dir)\n")
        // A negative number is a value out of range, not a missing one.
        let workers = try await streamlens(["batch", "/dev/null", "--output-dir", "/tmp/x", "--workers", "-1"])
        #expect(workers.status == 2)
        #expect(workers.standardError == "streamlens: error: --workers -1 is not within 1…256\n", "\(workers.standardError)")
    }
}
