import Foundation
import Testing
import StreamLensBatch

/// `streamlens events --catalog X --geojson FILE`: the signs three recordings passed, recorded by the catalog as a
/// batch's workers record them (claim, complete with the run's events), then mapped by the built tool. Positions are
/// generated around one junction (they prove the merging, not a GPS).
enum SignDrives {
    /// 25 m is about 0.000225° of latitude.
    static let events: [String: [String]] = [
        "/drives/a.mp4": [
            sign(50, at: 45.25, 13.9), #"{"type":"detection","start":2,"end":2,"class":"car"}"#, sign(80, at: 45.26, 13.91),
        ],
        // The same two signs: the 50 about 7 m off, the 80 at the same place.
        "/drives/b.mp4": [sign(50, at: 45.25005, 13.90003), sign(80, at: 45.26, 13.91)],
        // A 50 44 m further on (another sign); an 80 where a's 50 stands (another value); a 30 read without a position.
        "/drives/c.mp4": [sign(50, at: 45.2504, 13.9), sign(80, at: 45.25, 13.9), #"{"type":"speed_limit","value":30,"unit":"km/h","start":9,"end":9.5}"#],
    ]

    static func sign(_ value: Int, at latitude: Double, _ longitude: Double) -> String {
        #"{"type":"speed_limit","value":\#(value),"unit":"km/h","start":1,"end":1.5,"confidence":0.9,"position":{"lat":\#(latitude),"lon":\#(longitude)}}"#
    }

    /// Registers the three drives and completes each with its events, as workers do.
    static func record(in catalog: any BatchCatalog) async throws {
        let inputs = events.keys.sorted().map { path in
            CatalogInput(path: path, outputName: (path as NSString).lastPathComponent, identity: FileIdentity(size: 1, modified: 0, contentHash: path))
        }
        _ = try await catalog.register(inputs, policy: RegistrationPolicy())
        let worker = WorkerIdentity(worker: 1)
        while let claimed = try await catalog.claim(worker: worker, lease: .seconds(60)) {
            let lines = try #require(events[claimed.path])
            let done = try await catalog.complete(
                path: claimed.path, worker: worker,
                result: FileResult(report: nil, frames: 10, dropped: 0, seconds: 1, events: lines))
            #expect(done)
        }
    }

    /// Runs `streamlens events --geojson` and checks the map: four signs, the repeated ones counted twice; then the
    /// GeoJSON with the `geojson` package (scripts/evaluation/check-gps-exports.sh). Returns the map's features.
    static func checkMap(catalog url: String, in folder: URL) async throws {
        let map = folder.appendingPathComponent("signs-\(UUID().uuidString).geojson")
        let result = try await streamlens(["events", "--catalog", url, "--geojson", map.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "4 sign(s) from 6 sighting(s) in 3 file(s) written to \(map.path)\n", "\(result.standardOutput)")
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: map)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        let points = features.map { feature -> [String] in
            let properties = feature["properties"] as? [String: Any] ?? [:]
            let coordinates = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] ?? []
            return [
                "\(properties["value"] ?? "")", "\(properties["count"] ?? "")",
                coordinates.map { String(format: "%.6f", $0) }.joined(separator: ","),
                (properties["files"] as? [String] ?? []).joined(separator: " "),
            ]
        }
        #expect(points == [
            // a's and b's 50: the mean of the two positions.
            ["50", "2", "13.900015,45.250025", "/drives/a.mp4 /drives/b.mp4"],
            ["80", "2", "13.910000,45.260000", "/drives/a.mp4 /drives/b.mp4"],
            ["50", "1", "13.900000,45.250400", "/drives/c.mp4"],
            ["80", "1", "13.900000,45.250000", "/drives/c.mp4"],
        ])
        let check = try await runCommand("/bin/bash", [repositoryRoot.appendingPathComponent("scripts/evaluation/check-gps-exports.sh").path, map.path])
        #expect(check.status == 0, "\(check.standardOutput) \(check.standardError)")
        #expect(check.standardOutput.contains("geojson: valid=True features={'speed_limit': 4}"), "\(check.standardOutput)")
        // `--file` keeps the drives it matches.
        let onlyC = try await streamlens(["events", "--catalog", url, "--geojson", map.path, "--file", "c.mp4"])
        #expect(onlyC.standardOutput.hasPrefix("2 sign(s) from 2 sighting(s) in 1 file(s)"), "\(onlyC.standardOutput)")
    }
}

/// A real batch: two recordings of the sign test set's 50 then 80 (with road between, GPSRunTests' clip), both on
/// the real Visnjan drive (scripts/datasets/fetch-gps-samples.sh) at the same offset: each sign is passed twice at one place.
enum SignBatch {
    static let drive = repositoryRoot.appendingPathComponent(".media-cache/gps/around-visnjan-with-car.gpx")
    static let signSet = repositoryRoot.appendingPathComponent(".media-cache/sign-testset")
    static var available: Bool {
        FileManager.default.fileExists(atPath: drive.path)
            && FileManager.default.fileExists(atPath: signSet.appendingPathComponent("sequence_50_then_80.i420").path)
    }

    /// `day1/20240501_093000.mkv` and `day2/20240502_080000.mkv` in a new folder: the 50 sign, 12 s of road, the 80.
    static func recordings() async throws -> URL {
        let frameBytes = 640 * 272 * 3 / 2
        let sequence = try Data(contentsOf: signSet.appendingPathComponent("sequence_50_then_80.i420"))
        let road = try Data(contentsOf: signSet.appendingPathComponent("background_only.i420"))
        func frames(_ data: Data, _ range: Range<Int>) -> Data { data.subdata(in: range.lowerBound * frameBytes..<range.upperBound * frameBytes) }
        let roadFrames = road.count / frameBytes
        var raw = frames(sequence, 0..<16)
        for index in 0..<150 { raw += frames(road, index % roadFrames..<index % roadFrames + 1) }
        raw += frames(sequence, 16..<32)
        let folder = try makeTemporaryFolder()
        let rawFile = folder.appendingPathComponent("drive.i420")
        try raw.write(to: rawFile)
        let inputs = folder.appendingPathComponent("in")
        for name in ["day1/20240501_093000.mkv", "day2/20240502_080000.mkv"] {
            let clip = inputs.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: clip.deletingLastPathComponent(), withIntermediateDirectories: true)
            let made = try await runCommand("/usr/bin/gst-launch-1.0", [
                "-q", "filesrc", "location=\(rawFile.path)", "!", "rawvideoparse", "format=i420", "width=640", "height=272",
                "framerate=25/2", "!", "avenc_ffv1", "!", "matroskamux", "!", "filesink", "location=\(clip.path)",
            ])
            try #require(made.status == 0, "\(made.standardError)")
        }
        return inputs
    }

    /// Runs the batch into `catalog` (nil: its default SQLite file) and checks the map: two signs, each passed twice.
    static func run(catalog: String?) async throws {
        let inputs = try await recordings()
        let output = inputs.deletingLastPathComponent().appendingPathComponent("out")
        let batch = try await streamlens(
            ["batch", inputs.path, "--output-dir", output.path, "--quiet", "--output", "null", "--speed-limits", "eu",
             "--gps", drive.path, "--gps-offset", "-100"] + (catalog.map { ["--catalog", $0] } ?? []))
        #expect(batch.status == 0, "\(batch.standardError)")
        let url = catalog ?? "sqlite:" + output.appendingPathComponent("catalog.sqlite").path
        let map = output.appendingPathComponent("signs.geojson")
        let result = try await streamlens(["events", "--catalog", url, "--geojson", map.path])
        #expect(result.standardOutput == "2 sign(s) from 4 sighting(s) in 2 file(s) written to \(map.path)\n",
                "\(result.standardOutput) \(result.standardError)")
        let features = try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: map)) as? [String: Any])?["features"] as? [[String: Any]])
        let properties = features.compactMap { $0["properties"] as? [String: Any] }
        #expect(properties.map { $0["value"] as? Int } == [50, 80] && properties.allSatisfy { $0["count"] as? Int == 2 })
        // Each point is where the events put the sign.
        let events = try await streamlens(["events", "--catalog", url, "--type", "speed_limit", "--file", "20240501_*"])
        let positions = events.standardOutput.split(separator: "\n").compactMap {
            ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["position"] as? [String: Double]
        }
        let points = features.compactMap { ($0["geometry"] as? [String: Any])?["coordinates"] as? [Double] }
        #expect(positions.count == 2 && points.map { [$0[1], $0[0]] } == positions.map { [$0["lat"]!, $0["lon"]!] })
    }
}

@Suite(.serialized) struct SignMapTests {
    @Test(.enabled(if: SignBatch.available, "run scripts/datasets/make-sign-testset.sh and scripts/datasets/fetch-gps-samples.sh"))
    func aBatchKeepsThePositionsOfTheSignsItsRunsPassed() async throws {
        try await SignBatch.run(catalog: nil)
    }

    @Test(.enabled(if: SignBatch.available && PostgresServer.unavailableReason == nil, "no sign test set, GPS samples or PostgreSQL"))
    func aBatchKeepsThePositionsOfTheSignsInAPostgresCatalog() async throws {
        let server = try await PostgresServer.start()
        do { try await SignBatch.run(catalog: server.url) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func signsSeenTwiceAtOnePlaceAreOnePointInAnSQLiteCatalog() async throws {
        let folder = try makeTemporaryFolder()
        let path = folder.appendingPathComponent("catalog.sqlite").path
        let catalog = try await SQLiteCatalog.open(path: path)
        try await SignDrives.record(in: catalog)
        #expect(try await catalog.signSightings().count == 6)
        await catalog.close()
        try await SignDrives.checkMap(catalog: "sqlite:" + path, in: folder)

        // A catalog from before the sign positions: read as it is, its events give the map; opened by a batch, the
        // table is made and filled from them.
        let drop = try await sqlite(path, "DROP TABLE batch_sign_positions")
        try #require(drop.status == 0, "\(drop.standardError)")
        try await SignDrives.checkMap(catalog: "sqlite:" + path, in: folder)
        let tables = try await sqlite(path, "SELECT name FROM sqlite_master WHERE type = 'table'")
        #expect(!tables.standardOutput.contains("batch_sign_positions"), "reading changed the catalog")
        let reopened = try await SQLiteCatalog.open(path: path)
        await reopened.close()
        let count = try await sqlite(path, "SELECT count(*) FROM batch_sign_positions")
        #expect(count.standardOutput == "6\n", "\(count.standardOutput) \(count.standardError)")
        try await SignDrives.checkMap(catalog: "sqlite:" + path, in: folder)
    }

    @Test(.enabled(if: PostgresServer.unavailableReason == nil, "\(PostgresServer.unavailableReason ?? "")"))
    func signsSeenTwiceAtOnePlaceAreOnePointInAPostgresCatalog() async throws {
        let server = try await PostgresServer.start()
        do {
            guard case .postgres(let address) = try CatalogLocation(parsing: server.url) else {
                Issue.record("\(server.url) is not a PostgreSQL address")
                await server.stop()
                return
            }
            let folder = try makeTemporaryFolder()
            let catalog = try await PostgresCatalog.open(address)
            try await SignDrives.record(in: catalog)
            await catalog.close()
            #expect(try await server.query("SELECT count(*) FROM batch_sign_positions") == "6")
            try await SignDrives.checkMap(catalog: server.url, in: folder)

            // Older catalog: read from its events; opened by a batch, filled from them.
            #expect(try await server.query("DROP TABLE batch_sign_positions") != nil)
            try await SignDrives.checkMap(catalog: server.url, in: folder)
            #expect(try await server.query("SELECT to_regclass('batch_sign_positions') IS NULL") == "t")
            let reopened = try await PostgresCatalog.open(address)
            await reopened.close()
            #expect(try await server.query("SELECT count(*) FROM batch_sign_positions") == "6")
            try await SignDrives.checkMap(catalog: server.url, in: folder)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}

/// One SQL statement on the SQLite file at `path` through Python's sqlite3 module (the sqlite3 shell is not installed):
/// each result row on a line, its columns joined by `|`, as the shell prints them.
private func sqlite(_ path: String, _ statement: String) async throws -> CommandResult {
    let script = """
        import sqlite3, sys
        connection = sqlite3.connect(sys.argv[1])
        for row in connection.execute(sys.argv[2]):
            print("|".join(str(column) for column in row))
        connection.commit()
        """
    return try await runCommand("/usr/bin/env", ["python3", "-c", script, path, statement])
}
