import Foundation
import Testing
import StreamLensBatch

/// Many machines on one PostgreSQL catalog: a real server (initdb on a free loopback port), three `streamlens batch`
/// processes playing three machines, one of them SIGKILLed while it holds a file.
@Suite(.serialized, .enabled(if: PostgresServer.unavailableReason == nil, "\(PostgresServer.unavailableReason ?? "")"))
struct PostgresBatchTests {
    @Test func threeWorkersOneKilledDoEveryFileExactlyOnce() async throws {
        let server = try await PostgresServer.start()
        do {
            try await threeWorkersOneKilled(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func threeWorkersOneKilled(_ server: PostgresServer) async throws {
        let clips = try await TestClips.folder()
        let output = clips.deletingLastPathComponent().appendingPathComponent("out")
        func arguments(machine: Int) -> [String] {
            ["batch", clips.path, "--output-dir", output.path, "--catalog", server.url, "--workers", "1", "--lease", "2",
             "--worker-host", "machine-\(machine)", "--quiet"] + analysisOptions
        }
        let logs = (1...3).map { clips.deletingLastPathComponent().appendingPathComponent("machine-\($0).log") }
        var workers = [try startStreamlens(arguments(machine: 1), log: logs[0])]
        // Machine 1 takes the first file; then the others join.
        let holding = try await waitUntil {
            (try? await server.query("SELECT count(*) FROM batch_files WHERE lease_owner LIKE 'machine-1:%'")) == "1"
        }
        #expect(holding)
        workers.append(try startStreamlens(arguments(machine: 2), log: logs[1]))
        workers.append(try startStreamlens(arguments(machine: 3), log: logs[2]))
        let heldFile = try #require(try await server.query("SELECT path FROM batch_files WHERE lease_owner LIKE 'machine-1:%'"))
        kill(workers[0].processIdentifier, SIGKILL)
        workers[0].waitUntilExit()

        for worker in workers.dropFirst() {
            let finished = try await waitUntil(timeout: 180) { !worker.isRunning }
            #expect(finished)
            #expect(worker.terminationStatus == 0, "\((try? String(contentsOf: logs[1], encoding: .utf8)) ?? "")")
        }
        let catalog = try await CatalogLocation(parsing: server.url).open(create: false)
        let files = try await catalog.files()
        #expect(files.count == TestClips.clips.count)
        #expect(files.map(\.status) == Array(repeating: FileStatus.done, count: TestClips.clips.count))
        #expect(files.map(\.completions) == Array(repeating: 1, count: TestClips.clips.count), "every file done exactly once")
        if !heldFile.isEmpty {
            #expect(files.first { $0.path == heldFile }?.attempts == 2, "the killed machine's file was taken over once")
        }
        for clip in TestClips.clips {
            let path = clips.appendingPathComponent(clip.relativePath).path
            #expect(try await catalogEvents(catalog, file: path) == (try await TestClips.eventsOfLoneRun(clip.relativePath)),
                    "\(clip.relativePath)")
        }
        await catalog.close()

        // Queries on the server.
        let status = try await streamlens(["status", "--catalog", server.url, "--json"])
        #expect(status.status == 0, "\(status.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any])
        #expect(json["files"] as? [String: Int] == ["done": 4, "failed": 0, "pending": 0, "running": 0])
        var loneFrames = 0
        for clip in TestClips.clips { loneFrames += try await TestClips.framesOfLoneRun(clip.relativePath) }
        #expect(json["frames"] as? Int == loneFrames)

        let events = try await streamlens(["events", "--catalog", server.url, "--type", "detection", "--file", "20240501_*"])
        #expect(events.status == 0, "\(events.standardError)")
        let lines = events.standardOutput.split(separator: "\n")
        let expected = try await TestClips.eventsOfLoneRun("20240501_093000.mp4").filter { $0.contains("\"type\":\"detection\"") }.count
            + (try await TestClips.eventsOfLoneRun("20240501_093100.mp4")).filter { $0.contains("\"type\":\"detection\"") }.count
        #expect(lines.count == expected)
        #expect(expected > 0)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["type"] as? String == "detection")
            let file = try #require(object["file"] as? String)
            #expect(file.hasPrefix(clips.path + "/20240501_"))
            // 20240501_093000.mp4 starts at 09:30:00; an event at 0.4 s is at 09:30:00.400.
            let start = try #require(object["start"] as? Double)
            let fileStart = file.hasSuffix("093000.mp4") ? 0.0 : 60.0
            let seconds = fileStart + start
            let expectedTime = String(format: "2024-05-01T09:3%d:%06.3f", Int(seconds) / 60, seconds.truncatingRemainder(dividingBy: 60))
            #expect(object["drive_time"] as? String == expectedTime)
        }
    }

    @Test func aForcedRedoKeepsTheLastResultsUntilItCompletes() async throws {
        let server = try await PostgresServer.start()
        do { try await SQLiteBatchTests.aForcedRedoKeepsTheLastResults(on: CatalogLocation(parsing: server.url)) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func aBatchTakesOnlyItsOwnInputsFromASharedCatalog() async throws {
        let server = try await PostgresServer.start()
        do { try await SQLiteBatchTests.eachBatchTakesOnlyItsOwnInputs(on: CatalogLocation(parsing: server.url)) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func outputsAreOwnedByOneFileAndFollowTheOutputFolder() async throws {
        let server = try await PostgresServer.start()
        do {
            try await SQLiteBatchTests.outputsAreOwnedByOneFileAndFollowTheOutputFolder(on: CatalogLocation(parsing: server.url))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// A server stopped under a batch: the next query never got an answer, and the batch (and a Ctrl-C) hung for
    /// good. Now each transaction gives up after its limit, and so does every later one, at once.
    @Test func aServerThatStopsAnsweringFailsTheCatalogInsteadOfHanging() async throws {
        let server = try await PostgresServer.start()
        do { try await stopAnswering(server) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func stopAnswering(_ server: PostgresServer) async throws {
        guard case .postgres(let address) = try CatalogLocation(parsing: server.url) else {
            Issue.record("\(server.url) is not a PostgreSQL address")
            return
        }
        let catalog = try await PostgresCatalog.open(address, answerLimit: .seconds(2))
        let identity = FileIdentity(size: 1, modified: 0, contentHash: "x")
        _ = try await catalog.register(
            [CatalogInput(path: "/videos/a.mp4", outputName: "a", identity: identity)], policy: RegistrationPolicy())
        // A fast shutdown, as `pg_ctl stop` or a restart does.
        kill(server.server.processIdentifier, SIGINT)
        _ = try await waitUntil(timeout: 30) { !server.server.isRunning }
        let started = ContinuousClock.now
        await #expect(throws: CatalogError.self) { _ = try await catalog.claim(worker: WorkerIdentity(worker: 0), lease: .seconds(5)) }
        #expect(ContinuousClock.now - started < .seconds(10))
        let again = ContinuousClock.now
        let error = await #expect(throws: CatalogError.self) { _ = try await catalog.statusCounts() }
        #expect(ContinuousClock.now - again < .seconds(3))
        #expect("\(error.map { "\($0)" } ?? "")".contains("failed"), "\(String(describing: error))")
    }

    /// A server restarted between two of a batch's calls (a fast shutdown ends every session): the batch failed at
    /// its next call, and, with the connection's query unanswered, only after the catalog's limit. Now the catalog
    /// connects again, puts the batch's scope back, and the lease, the completion and the next claim go through.
    @Test func aServerThatRestartsIsConnectedToAgain() async throws {
        var server = try await PostgresServer.start()
        do {
            guard case .postgres(let address) = try CatalogLocation(parsing: server.url) else {
                Issue.record("\(server.url) is not a PostgreSQL address")
                await server.stop()
                return
            }
            let catalog = try await PostgresCatalog.open(address, answerLimit: .seconds(20))
            let identity = FileIdentity(size: 1, modified: 0, contentHash: "x")
            let inputs = ["a", "b"].map { CatalogInput(path: "/videos/\($0).mp4", outputName: $0, identity: identity) }
            _ = try await catalog.register(inputs, policy: RegistrationPolicy())
            let worker = WorkerIdentity(worker: 0)
            #expect(try await catalog.claim(worker: worker, lease: .seconds(60))?.path == "/videos/a.mp4")

            server = try await server.restarted()
            let started = ContinuousClock.now
            #expect(try await catalog.renew(path: "/videos/a.mp4", worker: worker, lease: .seconds(60)))
            #expect(ContinuousClock.now - started < .seconds(10))
            let result = FileResult(report: "{}", frames: 3, dropped: 0, seconds: 1, events: ["{\"type\":\"object\"}"])
            #expect(try await catalog.complete(path: "/videos/a.mp4", worker: worker, result: result))
            #expect(try await catalog.claim(worker: worker, lease: .seconds(60))?.path == "/videos/b.mp4")
            // The batch's scope came back with the new session: counting reads it.
            let counts = try await catalog.statusCounts()
            #expect(counts.done == 1 && counts.running == 1 && counts.total == 2, "\(counts)")
            await catalog.close()
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// `status` and `events` only read: a role allowed only to read the tables could not run them (opening made the
    /// tables where missing, which needs more). A database no batch has used is one line, and gains no tables.
    @Test func aRoleThatOnlyReadsCanAskForStatusAndEvents() async throws {
        let server = try await PostgresServer.start()
        do {
            let noDatabase = server.url.replacingOccurrences(of: "/\(PostgresServer.database)", with: "/nodb")
            let missing = try await streamlens(["status", "--catalog", noDatabase])
            #expect(missing.standardError == "streamlens: error: cannot open catalog \(noDatabase): database \"nodb\" does not "
                + "exist (check the user, password and database in the address)\n", "\(missing.standardError)")
            let empty = try await streamlens(["status", "--catalog", server.url])
            #expect(empty.status == 1, "\(empty.standardError)")
            #expect(empty.standardError == "streamlens: error: cannot open catalog \(server.url): no batch catalog in this "
                + "database (a batch creates it: streamlens batch … --catalog \(server.url))\n", "\(empty.standardError)")
            #expect(try await server.query("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'batch_%'") == "0")

            guard case .postgres(let address) = try CatalogLocation(parsing: server.url) else {
                Issue.record("\(server.url) is not a PostgreSQL address")
                await server.stop()
                return
            }
            let catalog = try await PostgresCatalog.open(address)
            let identity = FileIdentity(size: 1, modified: 0, contentHash: "x")
            _ = try await catalog.register(
                [CatalogInput(path: "/videos/a.mp4", outputName: "a", identity: identity)], policy: RegistrationPolicy())
            await catalog.close()
            let granted = try await server.query("CREATE ROLE reader LOGIN; GRANT SELECT ON batch_files, batch_events TO reader")
            #expect(granted != nil, "the role could not be made")
            let reader = server.url.replacingOccurrences(of: "\(PostgresServer.user)@", with: "reader@")
            let status = try await streamlens(["status", "--catalog", reader])
            #expect(status.status == 0, "\(status.standardError)")
            #expect(status.standardOutput.contains("files: 1 (0 done, 0 failed, 1 pending, 0 running)"), "\(status.standardOutput)")
            let events = try await streamlens(["events", "--catalog", reader])
            #expect(events.status == 0, "\(events.standardError)")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Ctrl-C while the catalog's server is down: the batch waited out the catalog's 30 s limit and ended as failed
    /// (exit 1; a QA sweep). Now, once its file has stopped, it ends interrupted within seconds, saying the file stays
    /// claimed until its lease expires.
    @Test func aStopWhileTheServerIsDownEndsTheBatchInSeconds() async throws {
        let server = try await PostgresServer.start()
        do { try await stopWhileDown(server) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func stopWhileDown(_ server: PostgresServer) async throws {
        let folder = try makeTemporaryFolder()
        let inputs = try await makeLongClipFolder(in: folder)
        let output = folder.appendingPathComponent("out")
        let log = folder.appendingPathComponent("batch.log")
        let batch = try startStreamlens(
            ["batch", inputs.path, "--output-dir", output.path, "--catalog", server.url, "--workers", "1",
             "--detector", "hog", "--analysis-interval", "0", "--quiet"], log: log)
        defer { if batch.isRunning { kill(batch.processIdentifier, SIGKILL) } }
        let started = try await waitUntil(timeout: 60) {
            FileManager.default.fileExists(atPath: output.appendingPathComponent("long.mp4.partial").path)
        }
        try #require(started, "the file never started: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        // A fast shutdown, as `pg_ctl stop` does; then Ctrl-C.
        kill(server.server.processIdentifier, SIGINT)
        _ = try await waitUntil(timeout: 30) { !server.server.isRunning }
        let signalled = Date()
        kill(batch.processIdentifier, SIGINT)
        let ended = try await waitUntil(timeout: 40) { !batch.isRunning }
        let stopTime = Date().timeIntervalSince(signalled)
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(ended && batch.terminationStatus == 130, "status \(batch.terminationStatus): \(text)")
        #expect(stopTime < 15, "the batch took \(stopTime) s to stop")
        #expect(text.contains("the catalog did not answer, so the files in progress stay claimed"), "\(text)")
        // The child stopped its file as on any Ctrl-C: what it wrote is kept.
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("long.mp4.partial").path))
    }

    /// Unreachable servers and bad catalog addresses: one line, exit 1.
    /// The reasons are the user's, not the driver's ("Connection errors: SingleConnectionFailure(target: [IPv4]…",
    /// "serverClosedConnection").
    @Test func unreachableServerIsOneLineAndExitOne() async throws {
        let port = try freeLoopbackPort()
        let unreachable = "postgresql://nobody@127.0.0.1:\(port)/batch"
        for arguments in [["status", "--catalog", unreachable], ["events", "--catalog", unreachable]] {
            let result = try await streamlens(arguments)
            #expect(result.status == 1)
            #expect(result.standardError == "streamlens: error: cannot open catalog \(unreachable): nothing accepts connections "
                + "at 127.0.0.1:\(port) (is the server running, and listening on that address and port?)\n", "\(result.standardError)")
        }
        // Something that is not PostgreSQL: it takes the connection and closes it.
        let (listener, hangUpPort) = try hangingUpListener()
        defer { close(listener) }
        let wrong = "postgresql://nobody@127.0.0.1:\(hangUpPort)/batch"
        let result = try await streamlens(["status", "--catalog", wrong])
        #expect(result.status == 1)
        #expect(result.standardError == "streamlens: error: cannot open catalog \(wrong): 127.0.0.1:\(hangUpPort) closed the "
            + "connection before answering (is it a PostgreSQL server?)\n", "\(result.standardError)")
    }

    /// A loopback socket that accepts every connection and closes it at once, on a thread of its own; closing the
    /// returned descriptor ends it.
    private func hangingUpListener() throws -> (descriptor: Int32, port: Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listening else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        Thread {
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 { return }
                close(connection)
            }
        }.start()
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }
}
