import Foundation
import SQLiteNIO

/// The catalog in an SQLite file (the default, `DIR/catalog.sqlite`): one machine, any number of workers in one
/// `streamlens batch` process (a second process on the same file also works: transactions are `BEGIN IMMEDIATE` and
/// wait for each other).
///
/// ## Thread Safety
/// An actor: one connection, and each method's transaction runs without another method's statements in between.
public actor SQLiteCatalog: BatchCatalog {
    private let connection: SQLiteConnection
    private let location: String
    private let lock = AsyncLock()
    /// Set by ``register(_:policy:)``: the batch's inputs are in the connection's temporary `batch_scope` table.
    private var scoped = false
    /// Whether the catalog has `batch_sign_positions` (one opened only to read may be older than it).
    private var hasSignPositions = true

    private init(connection: SQLiteConnection, location: String) {
        self.connection = connection
        self.location = location
    }

    /// Opens the catalog at `path`; `create` makes the tables when they are missing (a batch), otherwise a file
    /// without them is refused (`status` and `events` never write into another program's database).
    public static func open(path: String, create: Bool = true) async throws(CatalogError) -> SQLiteCatalog {
        let location = "sqlite:\(path)"
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            throw .cannotOpen(location: location, reason: "folder '\(folder)' does not exist")
        }
        let connection: SQLiteConnection
        do {
            // Who may write the catalog and its folder opens it as a batch does: SQLite then removes its write-ahead
            // files when the connection closes, which a read-only connection cannot.
            let writable = access(path, W_OK) == 0 && access(folder.isEmpty ? "." : folder, W_OK) == 0
            connection = try await create || writable ? SQLiteConnection.open(storage: .file(path: path)) : openForReading(path)
        } catch {
            throw .cannotOpen(location: location, reason: "\(error)")
        }
        let catalog = SQLiteCatalog(connection: connection, location: location)
        var isCatalog = true
        do {
            // WAL: readers (`status`, `events`) never wait for a worker's transaction; writers wait up to 10 s.
            _ = try await connection.query("PRAGMA busy_timeout = 10000")
            if create {
                _ = try await connection.query("PRAGMA journal_mode = WAL")
                _ = try await connection.query("PRAGMA synchronous = NORMAL")
                let before = try await connection.query("SELECT name FROM sqlite_master WHERE type = 'table'")
                    .compactMap { $0.column("name")?.string }
                // A catalog older than the sign positions gets them from the events its batches recorded, the table
                // made in the same transaction as it is filled: an interrupted fill leaves no empty table behind.
                let older = before.contains("batch_events") && !before.contains("batch_sign_positions")
                for statement in older ? Self.schema.dropLast() : Self.schema[...] {
                    _ = try await connection.query(statement)
                }
                if older { try await catalog.fillSignPositions(creating: Self.schema.last!) }
                // Catalogs written before the output folder was recorded get the column (empty: not known).
                let columns = try await connection.query("PRAGMA table_info(batch_files)").compactMap { $0.column("name")?.string }
                if !columns.contains("output_folder") {
                    _ = try await connection.query("ALTER TABLE batch_files ADD COLUMN output_folder TEXT")
                }
                // Catalogs written before the output settings were recorded: their files were done without any.
                if !columns.contains("output_settings") {
                    _ = try await connection.query(
                        "ALTER TABLE batch_files ADD COLUMN output_settings TEXT NOT NULL DEFAULT ''")
                }
            } else {
                // Only read: another program's database is not to be changed (tables, journal mode).
                let tables = try await connection.query("SELECT name FROM sqlite_master WHERE type = 'table'")
                    .compactMap { $0.column("name")?.string }
                isCatalog = tables.contains("batch_files")
                await catalog.setHasSignPositions(tables.contains("batch_sign_positions"))
            }
        } catch {
            try? await connection.close()
            throw .cannotOpen(location: location, reason: "\(error) (is it an SQLite file written by streamlens batch?)")
        }
        guard isCatalog else {
            try? await connection.close()
            throw .cannotOpen(location: location, reason: "it is not a catalog written by streamlens batch")
        }
        return catalog
    }

    /// Opens `path` read-only, for `status` and `events` by a user who cannot write it or its folder, or on a
    /// read-only disk (opened for writing, it said "attempt to write a readonly database"). Where even SQLite's
    /// shared-memory file cannot be made, the file is read as it is on disk (`immutable`: no locks, so a batch still
    /// writing it may be seen part-way).
    private static func openForReading(_ path: String) async throws -> SQLiteConnection {
        let uriPath = URL(fileURLWithPath: path).standardizedFileURL.path
            .addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        let connection = try await SQLiteConnection.open(storage: .file(path: "file:\(uriPath)?mode=ro"))
        do {
            // The first read is where a missing shared-memory file (an unwritable folder) shows.
            _ = try await connection.query("SELECT count(*) FROM sqlite_master")
            return connection
        } catch {
            try? await connection.close()
            return try await SQLiteConnection.open(storage: .file(path: "file:\(uriPath)?mode=ro&immutable=1"))
        }
    }

    /// The tables; the sign positions' table is the last (an older catalog gets it made and filled in one
    /// transaction).
    static let schema = [
        """
        CREATE TABLE IF NOT EXISTS batch_files (
            path TEXT PRIMARY KEY, output_name TEXT NOT NULL, size INTEGER NOT NULL, modified REAL NOT NULL,
            content_hash TEXT NOT NULL, status TEXT NOT NULL, lease_owner TEXT, lease_expires REAL,
            attempts INTEGER NOT NULL DEFAULT 0, completions INTEGER NOT NULL DEFAULT 0, error TEXT,
            frames INTEGER, dropped INTEGER, seconds REAL, event_count INTEGER NOT NULL DEFAULT 0, report TEXT,
            output_folder TEXT, output_settings TEXT NOT NULL DEFAULT '')
        """,
        """
        CREATE TABLE IF NOT EXISTS batch_events (
            file TEXT NOT NULL, sequence INTEGER NOT NULL, type TEXT NOT NULL, event TEXT NOT NULL,
            PRIMARY KEY (file, sequence))
        """,
        // Where each sign was passed: the speed_limit events that carry a position (docs/guides/gps.md).
        """
        CREATE TABLE IF NOT EXISTS batch_sign_positions (
            file TEXT NOT NULL, sequence INTEGER NOT NULL, value INTEGER NOT NULL, unit TEXT NOT NULL,
            time REAL NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL, PRIMARY KEY (file, sequence))
        """,
    ]

    private func setHasSignPositions(_ present: Bool) { hasSignPositions = present }

    /// Fills `batch_sign_positions` from the recorded `speed_limit` events, in one transaction.
    private func fillSignPositions(creating table: String) async throws {
        _ = try await connection.query("BEGIN IMMEDIATE")
        do {
            _ = try await connection.query(table)
            let events = try await connection.query(
                "SELECT file, sequence, event FROM batch_events WHERE type = 'speed_limit' ORDER BY file, sequence")
            for row in events {
                guard let sighting = SignSighting(
                    file: row.column("file")?.string ?? "", sequence: row.column("sequence")?.integer ?? 0,
                    event: row.column("event")?.string ?? "")
                else { continue }
                try await insert(sighting)
            }
            _ = try await connection.query("COMMIT")
        } catch {
            _ = try? await connection.query("ROLLBACK")
            throw error
        }
    }

    private func insert(_ sighting: SignSighting) async throws {
        _ = try await connection.query(
            """
            INSERT OR REPLACE INTO batch_sign_positions (file, sequence, value, unit, time, latitude, longitude)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(sighting.file), .integer(sighting.sequence), .integer(sighting.value), .text(sighting.unit),
             .float(sighting.time), .float(sighting.latitude), .float(sighting.longitude)])
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction, rolled back when it throws.
    private func transaction<Result>(_ body: () async throws -> Result) async throws(CatalogError) -> Result {
        try await lock.withLock { () async throws(CatalogError) -> Result in try await unlockedTransaction(body) }
    }

    private func unlockedTransaction<Result>(_ body: () async throws -> Result) async throws(CatalogError) -> Result {
        do {
            _ = try await connection.query("BEGIN IMMEDIATE")
            do {
                let result = try await body()
                _ = try await connection.query("COMMIT")
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK")
                throw error
            }
        } catch let error as CatalogError {
            throw error
        } catch {
            throw .queryFailed(location: location, reason: "\(error)")
        }
    }

    private func rows(_ sql: String, _ binds: [SQLiteData] = []) async throws -> [SQLiteRow] {
        try await connection.query(sql, binds)
    }

    private static func now() -> Double { Date().timeIntervalSince1970 }

    /// `WHERE` terms that keep a query to this batch's inputs (none before ``register(_:policy:)``).
    private var inScope: String { scoped ? "path IN (SELECT path FROM batch_scope)" : "1" }

    public func register(_ inputs: [CatalogInput], policy: RegistrationPolicy) async throws(CatalogError) -> StatusCounts {
        try await transaction {
            // Per connection: another process's batch has its own.
            _ = try await rows("CREATE TEMP TABLE IF NOT EXISTS batch_scope (path TEXT PRIMARY KEY)")
            _ = try await rows("DELETE FROM batch_scope")
            for input in inputs {
                _ = try await rows("INSERT OR IGNORE INTO batch_scope (path) VALUES (?)", [.text(input.path)])
            }
            for input in inputs where !input.outputFolder.isEmpty {
                if let other = try await rows(
                    "SELECT path FROM batch_files WHERE output_folder = ? AND output_name = ? AND path <> ? LIMIT 1",
                    [.text(input.outputFolder), .text(input.outputName), .text(input.path)]
                ).first?.column("path")?.string {
                    throw CatalogError.outputNameTaken(name: input.outputName, folder: input.outputFolder, path: other)
                }
            }
            for input in inputs {
                let existing = try await rows(
                    "SELECT size, modified, content_hash, status, output_folder, output_settings FROM batch_files WHERE path = ?",
                    [.text(input.path)])
                guard let row = existing.first else {
                    _ = try await rows(
                        """
                        INSERT INTO batch_files (path, output_name, size, modified, content_hash, status, output_folder,
                            output_settings)
                        VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)
                        """,
                        [.text(input.path), .text(input.outputName), .integer(Int(input.identity.size)),
                         .float(input.identity.modified), .text(input.identity.contentHash), .text(input.outputFolder),
                         .text(input.outputSettings)])
                    continue
                }
                // Done into another output folder: its outputs are not in this one, so it is done again here.
                let recordedFolder = row.column("output_folder")?.string ?? ""
                let movedOutputs = !recordedFolder.isEmpty && !input.outputFolder.isEmpty && recordedFolder != input.outputFolder
                if recordedFolder.isEmpty && !input.outputFolder.isEmpty {
                    _ = try await rows(
                        "UPDATE batch_files SET output_folder = ? WHERE path = ?", [.text(input.outputFolder), .text(input.path)])
                }
                let recorded = FileIdentity(
                    size: Int64(row.column("size")?.integer ?? -1), modified: row.column("modified")?.double ?? -1,
                    contentHash: row.column("content_hash")?.string ?? "")
                let status = FileStatus(rawValue: row.column("status")?.string ?? "") ?? .pending
                let changed = recorded != input.identity
                // Done with other settings (another blur, or none): its outputs are not what this batch makes.
                let otherSettings = (row.column("output_settings")?.string ?? "") != input.outputSettings
                if !changed && (movedOutputs || otherSettings || policy.force || (policy.retryFailed && status == .failed)) {
                    // To be done again, but what the last run found stays until the next one completes (an
                    // interrupted `--force` batch left its finished files with no events): `complete` replaces it.
                    _ = try await rows(
                        """
                        UPDATE batch_files SET output_name = ?, status = 'pending', lease_owner = NULL, lease_expires = NULL,
                            attempts = 0, error = NULL, output_folder = ?, output_settings = ?
                        WHERE path = ?
                        """, [.text(input.outputName), .text(input.outputFolder), .text(input.outputSettings), .text(input.path)])
                } else if changed {
                    // Another recording under the same name: what was found in the old one no longer describes it.
                    _ = try await rows("DELETE FROM batch_events WHERE file = ?", [.text(input.path)])
                    _ = try await rows("DELETE FROM batch_sign_positions WHERE file = ?", [.text(input.path)])
                    _ = try await rows(
                        """
                        UPDATE batch_files SET output_name = ?, size = ?, modified = ?, content_hash = ?,
                            status = 'pending', lease_owner = NULL, lease_expires = NULL, attempts = 0, error = NULL,
                            frames = NULL, dropped = NULL, seconds = NULL, event_count = 0, report = NULL,
                            output_folder = ?, output_settings = ?
                        WHERE path = ?
                        """,
                        [.text(input.outputName), .integer(Int(input.identity.size)), .float(input.identity.modified),
                         .text(input.identity.contentHash), .text(input.outputFolder), .text(input.outputSettings),
                         .text(input.path)])
                }
            }
        }
        scoped = true
        return try await statusCounts()
    }

    public func claim(worker: WorkerIdentity, lease: Duration) async throws(CatalogError) -> ClaimedFile? {
        try await transaction {
            let now = Self.now()
            // Leases of killed processes on this machine are free now; other leases when they expire.
            for row in try await rows("SELECT path, lease_owner FROM batch_files WHERE status = 'running'") {
                if let owner = row.column("lease_owner")?.string.flatMap(WorkerIdentity.init), owner.isDeadLocalProcess,
                    let path = row.column("path")?.string
                {
                    _ = try await rows("UPDATE batch_files SET lease_expires = 0 WHERE path = ?", [.text(path)])
                }
            }
            let claimed = try await rows(
                """
                UPDATE batch_files SET status = 'running', lease_owner = ?, lease_expires = ?, attempts = attempts + 1
                WHERE path = (SELECT path FROM batch_files
                              WHERE (status = 'pending' OR (status = 'running' AND lease_expires < ?)) AND \(inScope)
                              ORDER BY path LIMIT 1)
                RETURNING path, output_name, attempts
                """,
                [.text(worker.description), .float(now + lease.seconds), .float(now)])
            return claimed.first.map {
                ClaimedFile(
                    path: $0.column("path")?.string ?? "", outputName: $0.column("output_name")?.string ?? "",
                    attempt: $0.column("attempts")?.integer ?? 1)
            }
        }
    }

    public func renew(path: String, worker: WorkerIdentity, lease: Duration) async throws(CatalogError) -> Bool {
        try await transaction {
            !(try await rows(
                """
                UPDATE batch_files SET lease_expires = ? WHERE path = ? AND status = 'running' AND lease_owner = ?
                RETURNING path
                """, [.float(Self.now() + lease.seconds), .text(path), .text(worker.description)])).isEmpty
        }
    }

    public func complete(path: String, worker: WorkerIdentity, result: FileResult) async throws(CatalogError) -> Bool {
        try await transaction {
            let held = try await rows(
                "SELECT path FROM batch_files WHERE path = ? AND status = 'running' AND lease_owner = ?",
                [.text(path), .text(worker.description)])
            guard !held.isEmpty else { return false }
            _ = try await rows("DELETE FROM batch_events WHERE file = ?", [.text(path)])
            for (sequence, event) in result.events.enumerated() {
                _ = try await rows(
                    "INSERT INTO batch_events (file, sequence, type, event) VALUES (?, ?, ?, ?)",
                    [.text(path), .integer(sequence), .text(eventType(of: event)), .text(event)])
            }
            _ = try await rows("DELETE FROM batch_sign_positions WHERE file = ?", [.text(path)])
            for sighting in SignSighting.all(file: path, events: result.events) { try await insert(sighting) }
            _ = try await rows(
                """
                UPDATE batch_files SET status = 'done', lease_owner = NULL, lease_expires = NULL, error = NULL,
                    completions = completions + 1, frames = ?, dropped = ?, seconds = ?, event_count = ?, report = ?
                WHERE path = ?
                """,
                [.integer(result.frames), .integer(result.dropped), .float(result.seconds),
                 .integer(result.events.count), result.report.map { .text($0) } ?? .null, .text(path)])
            return true
        }
    }

    public func fail(path: String, worker: WorkerIdentity, error: String) async throws(CatalogError) {
        try await transaction {
            _ = try await rows(
                """
                UPDATE batch_files SET status = 'failed', error = ?, lease_owner = NULL, lease_expires = NULL
                WHERE path = ? AND status = 'running' AND lease_owner = ?
                """, [.text(error), .text(path), .text(worker.description)])
        }
    }

    public func release(path: String, worker: WorkerIdentity) async throws(CatalogError) {
        try await transaction {
            _ = try await rows(
                """
                UPDATE batch_files SET status = 'pending', lease_owner = NULL, lease_expires = NULL
                WHERE path = ? AND status = 'running' AND lease_owner = ?
                """, [.text(path), .text(worker.description)])
        }
    }

    public func statusCounts() async throws(CatalogError) -> StatusCounts {
        do {
            var counts = StatusCounts()
            for row in try await lock.withLock({ try await rows("SELECT status, count(*) AS n FROM batch_files WHERE \(inScope) GROUP BY status") }) {
                counts.add(row.column("status")?.string ?? "", count: row.column("n")?.integer ?? 0)
            }
            return counts
        } catch {
            throw .queryFailed(location: location, reason: "\(error)")
        }
    }

    public func files() async throws(CatalogError) -> [CatalogFile] {
        do {
            return try await lock.withLock({ try await rows("SELECT * FROM batch_files WHERE \(inScope) ORDER BY path") }).map { row in
                CatalogFile(
                    path: row.column("path")?.string ?? "", outputName: row.column("output_name")?.string ?? "",
                    size: Int64(row.column("size")?.integer ?? 0), modified: row.column("modified")?.double ?? 0,
                    contentHash: row.column("content_hash")?.string ?? "",
                    status: FileStatus(rawValue: row.column("status")?.string ?? "") ?? .pending,
                    leaseOwner: row.column("lease_owner")?.string, leaseExpires: row.column("lease_expires")?.double,
                    attempts: row.column("attempts")?.integer ?? 0, completions: row.column("completions")?.integer ?? 0,
                    error: row.column("error")?.string, frames: row.column("frames")?.integer,
                    dropped: row.column("dropped")?.integer, seconds: row.column("seconds")?.double,
                    events: row.column("event_count")?.integer ?? 0, report: row.column("report")?.string)
            }
        } catch {
            throw .queryFailed(location: location, reason: "\(error)")
        }
    }

    public func events(type: String?) async throws(CatalogError) -> [CatalogEvent] {
        do {
            let query = "SELECT file, sequence, type, event FROM batch_events"
                + (type == nil ? "" : " WHERE type = ?") + " ORDER BY file, sequence"
            return try await lock.withLock({ try await rows(query, type.map { [.text($0)] } ?? []) }).map { row in
                CatalogEvent(
                    file: row.column("file")?.string ?? "", sequence: row.column("sequence")?.integer ?? 0,
                    type: row.column("type")?.string ?? "", json: row.column("event")?.string ?? "")
            }
        } catch {
            throw .queryFailed(location: location, reason: "\(error)")
        }
    }

    public func signSightings() async throws(CatalogError) -> [SignSighting] {
        guard hasSignPositions else { return try await signSightingsFromEvents() }
        do {
            let query = "SELECT * FROM batch_sign_positions ORDER BY file, sequence"
            return try await lock.withLock({ try await rows(query) }).map { row in
                SignSighting(
                    file: row.column("file")?.string ?? "", sequence: row.column("sequence")?.integer ?? 0,
                    value: row.column("value")?.integer ?? 0, unit: row.column("unit")?.string ?? "",
                    time: row.column("time")?.double ?? 0, latitude: row.column("latitude")?.double ?? 0,
                    longitude: row.column("longitude")?.double ?? 0)
            }
        } catch {
            throw .queryFailed(location: location, reason: "\(error)")
        }
    }

    public func close() async {
        try? await connection.close()
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
