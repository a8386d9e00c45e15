import Foundation
import StreamLensBatch
import StreamLensCore
import StreamLensDetection
import StreamLensTestMedia
import Testing

/// `streamlens batch --blur`: the catalog records the settings that decide the output video beside each file
/// (``CatalogInput/outputSettings``), so that a file done without the blur, or with another, is done again and one
/// done with the same settings is skipped. End to end on the privacy test set (two real face photographs pasted into
/// real street footage), checked with an independent detector (OpenCV's Haar frontal-face cascade).
@Suite(.serialized) struct PrivacyBatchTests {
    static var isReady: Bool {
        CenterFaceDetector.installedPath() != nil && FileManager.default.fileExists(atPath: PrivacyTestset.clip.path)
    }
    static let notReady: Comment = "needs bash scripts/models/install-privacy-models.sh and bash scripts/datasets/make-privacy-testset.sh"

    @Test(.enabled(if: isReady, notReady))
    func aFileDoneWithoutTheBlurIsBlurredAndThenSkipped() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.blurRunsAgainThenSkips(folder: folder, catalog: [])
    }

    /// The same batches on each catalog (PostgreSQL's test passes `--catalog URL`).
    static func blurRunsAgainThenSkips(folder: URL, catalog: [String]) async throws {
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let clip = inputs.appendingPathComponent("faces-bikes.mp4")
        try FileManager.default.copyItem(at: PrivacyTestset.clip, to: clip)
        let output = folder.appendingPathComponent("out")
        let video = output.appendingPathComponent("faces-bikes.mp4")
        func batch(_ options: [String]) async throws -> CommandResult {
            try await streamlens(["batch", inputs.path, "--output-dir", output.path, "--quiet"] + catalog + options, timeout: 900)
        }
        func completions() async throws -> Int? {
            let location = try CatalogLocation(
                parsing: catalog.last ?? "sqlite:" + output.appendingPathComponent("catalog.sqlite").path)
            let opened = try await location.open(create: false)
            let files = try await opened.files()
            await opened.close()
            return files.first { $0.path == clip.path }?.completions
        }
        let listing = try PrivacyTestset.Listing.load()
        let detector = try CascadeDetector(cascade: "frontalface")
        func haarFaces() throws -> [String: Int] {
            let decoded = try DecodedVideo(
                url: video, width: PrivacyTestset.width, height: PrivacyTestset.height, framesPerSecond: 25, maxFrames: 1000)
            #expect(decoded.frameCount >= PrivacyTestset.frames)
            return PrivacyTestset.faceHits(in: decoded, listing: listing) { ((try? detector.detect($0)) ?? []).map(\.box) }
        }

        let plain = try await batch([])
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(try await completions() == 1)
        let unblurred = try haarFaces()
        #expect((unblurred["messi5"] ?? 0) >= 200 && (unblurred["astronaut"] ?? 0) >= 200, "\(unblurred)")

        // Asked to blur: the file done without it runs again, and its output is blurred.
        let blurred = try await batch(["--blur", "faces"])
        #expect(blurred.status == 0, "\(blurred.standardError)")
        #expect(blurred.standardOutput.contains("1 files: 1 done, 0 failed"), "\(blurred.standardOutput)")
        #expect(try await completions() == 2, "the file done without the blur was done again")
        #expect(try haarFaces().isEmpty, "faces found in the output of batch --blur faces")
        #expect(!FileManager.default.fileExists(atPath: video.path + ".partial"))
        let written = try FileManager.default.attributesOfItem(atPath: video.path)[.modificationDate] as? Date

        // The same settings again: skipped, the blurred output left as it is.
        let again = try await batch(["--blur", "faces"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try await completions() == 2, "a file done with the same settings is skipped")
        #expect(try FileManager.default.attributesOfItem(atPath: video.path)[.modificationDate] as? Date == written)
    }

    @Test func otherSettingsPutAFileBackAndTheSameKeepItDone() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.otherSettingsPutAFileBack(
            on: CatalogLocation.sqlite(path: folder.appendingPathComponent("catalog.sqlite").path))
    }

    /// Shared with the PostgreSQL catalog's test.
    static func otherSettingsPutAFileBack(on location: CatalogLocation) async throws {
        let catalog = try await location.open()
        let worker = WorkerIdentity(worker: 0)
        func input(_ settings: String) -> CatalogInput {
            CatalogInput(
                path: "/videos/a.mp4", outputName: "a", identity: FileIdentity(size: 1, modified: 0, contentHash: "v1"),
                outputSettings: settings)
        }
        func runOnce() async throws {
            let claimed = try #require(try await catalog.claim(worker: worker, lease: .seconds(60)))
            _ = try await catalog.complete(
                path: claimed.path, worker: worker, result: FileResult(report: "{}", frames: 1, dropped: 0, seconds: 1, events: []))
        }
        #expect(try await catalog.register([input("")], policy: RegistrationPolicy()).pending == 1)
        try await runOnce()
        for (settings, pending) in [
            // (the batch's settings, whether the file done before goes back to pending)
            ("blur=faces style=gaussian", 1), ("blur=faces style=gaussian", 0), ("blur=faces style=solid", 1), ("", 1),
        ] {
            let counts = try await catalog.register([input(settings)], policy: RegistrationPolicy())
            #expect(counts.pending == pending && counts.done == 1 - pending, "\(settings): \(counts)")
            if pending == 1 { try await runOnce() }
        }
        #expect(try await catalog.files().first?.completions == 4)
        await catalog.close()
    }

    /// A catalog written before the settings were recorded opens, gains the column, and its done files count as done
    /// without privacy settings: kept by a batch without --blur, done again by one with it.
    @Test func anOldSQLiteCatalogReadsAsDoneWithoutSettings() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("catalog.sqlite").path
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute('''CREATE TABLE batch_files (path TEXT PRIMARY KEY, output_name TEXT NOT NULL, size INTEGER NOT NULL,
                modified REAL NOT NULL, content_hash TEXT NOT NULL, status TEXT NOT NULL, lease_owner TEXT,
                lease_expires REAL, attempts INTEGER NOT NULL DEFAULT 0, completions INTEGER NOT NULL DEFAULT 0,
                error TEXT, frames INTEGER, dropped INTEGER, seconds REAL, event_count INTEGER NOT NULL DEFAULT 0,
                report TEXT, output_folder TEXT)''')
            db.execute('''CREATE TABLE batch_events (file TEXT NOT NULL, sequence INTEGER NOT NULL, type TEXT NOT NULL,
                event TEXT NOT NULL, PRIMARY KEY (file, sequence))''')
            db.execute("INSERT INTO batch_files (path, output_name, size, modified, content_hash, status, completions, "
                "output_folder) VALUES ('/videos/a.mp4', 'a', 1, 0, 'v1', 'done', 1, '')")
            db.commit()
            """
        let made = try await runCommand("/usr/bin/python3", ["-c", script, path])
        try #require(made.status == 0, "\(made.standardError)")
        try await Self.oldCatalogReadsAsDoneWithoutSettings(CatalogLocation.sqlite(path: path))
    }

    /// Shared with the PostgreSQL catalog's test, once the old table is made.
    static func oldCatalogReadsAsDoneWithoutSettings(_ location: CatalogLocation) async throws {
        func input(_ settings: String) -> CatalogInput {
            CatalogInput(
                path: "/videos/a.mp4", outputName: "a", identity: FileIdentity(size: 1, modified: 0, contentHash: "v1"),
                outputSettings: settings)
        }
        let catalog = try await location.open()
        let plain = try await catalog.register([input("")], policy: RegistrationPolicy())
        #expect(plain.done == 1 && plain.pending == 0, "\(plain)")
        let blurred = try await catalog.register([input("blur=faces")], policy: RegistrationPolicy())
        #expect(blurred.pending == 1, "\(blurred)")
        await catalog.close()
    }
}

/// The same on a real PostgreSQL catalog (initdb on a free loopback port).
@Suite(.serialized, .enabled(if: PostgresServer.unavailableReason == nil, "\(PostgresServer.unavailableReason ?? "")"))
struct PostgresPrivacyBatchTests {
    /// Runs `body` on a fresh server, stopped afterwards whatever happened.
    private func onServer(_ body: (PostgresServer) async throws -> Void) async throws {
        let server = try await PostgresServer.start()
        do { try await body(server) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test(.enabled(if: PrivacyBatchTests.isReady, PrivacyBatchTests.notReady))
    func aFileDoneWithoutTheBlurIsBlurredAndThenSkipped() async throws {
        try await onServer { server in
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await PrivacyBatchTests.blurRunsAgainThenSkips(folder: folder, catalog: ["--catalog", server.url])
        }
    }

    @Test func otherSettingsPutAFileBackAndTheSameKeepItDone() async throws {
        try await onServer { server in
            try await PrivacyBatchTests.otherSettingsPutAFileBack(on: CatalogLocation(parsing: server.url))
        }
    }

    @Test func anOldCatalogReadsAsDoneWithoutSettings() async throws {
        try await onServer { server in
            let made = try await server.query("""
                CREATE TABLE batch_files (path TEXT PRIMARY KEY, output_name TEXT NOT NULL, size BIGINT NOT NULL,
                    modified DOUBLE PRECISION NOT NULL, content_hash TEXT NOT NULL, status TEXT NOT NULL, lease_owner TEXT,
                    lease_expires DOUBLE PRECISION, attempts BIGINT NOT NULL DEFAULT 0, completions BIGINT NOT NULL DEFAULT 0,
                    error TEXT, frames BIGINT, dropped BIGINT, seconds DOUBLE PRECISION, event_count BIGINT NOT NULL DEFAULT 0,
                    report TEXT, output_folder TEXT);
                CREATE TABLE batch_events (file TEXT NOT NULL, sequence BIGINT NOT NULL, type TEXT NOT NULL,
                    event TEXT NOT NULL, PRIMARY KEY (file, sequence));
                INSERT INTO batch_files (path, output_name, size, modified, content_hash, status, completions, output_folder)
                    VALUES ('/videos/a.mp4', 'a', 1, 0, 'v1', 'done', 1, '');
                """)
            try #require(made != nil, "could not make the old catalog's tables")
            try await PrivacyBatchTests.oldCatalogReadsAsDoneWithoutSettings(CatalogLocation(parsing: server.url))
        }
    }
}
