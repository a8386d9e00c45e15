import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The catalog on a PostgreSQL server: any number of `streamlens batch` processes on any number of machines share
/// one batch. Each claims one file at a time with `SELECT … FOR UPDATE SKIP LOCKED` (two workers never take the same
/// file, and none waits for another's claim), holds it under a lease it renews while working, and a file whose
/// worker died is taken over once its lease expires. Lease times come from the server's clock, so machines whose
/// clocks disagree still agree on when a lease expires. A server that restarts (a fast shutdown ends every session)
/// is connected to again, within the time one transaction may wait.
///
/// ## Thread Safety
/// An actor: one connection per process, and each method's transaction runs without another method's statements in
/// between.
public actor PostgresCatalog: BatchCatalog {
    private var connection: PostgresConnection
    private let configuration: PostgresConnection.Configuration
    /// Connections made so far: each new one gets the next number as its id.
    private var connectionCount = 1
    private let location: String
    let logger: Logger
    private let lock = AsyncLock()
    /// How long one transaction may wait for the server (see ``transaction(_:)``).
    private let answerLimit: Duration
    /// Set by ``register(_:policy:)``: the batch's inputs are in the session's temporary `batch_scope` table.
    private var scoped = false
    /// The batch's inputs, put back into a new session's `batch_scope` after a reconnection.
    private var scopePaths: [String] = []
    /// Set once a transaction outlived ``answerLimit`` and the connection was closed: every later call fails at once.
    private var stoppedAnswering = false
    /// Whether the database has `batch_sign_positions` (one opened only to read may hold an older catalog).
    var hasSignPositions = true

    /// How long a transaction waits for the server by default: far beyond a claim, a renewal or a completion (a few
    /// statements each), short enough that a batch whose server went away says so. A registration gets 10 ms more
    /// per input (a few statements each, one round trip apiece).
    public static let defaultAnswerLimit: Duration = .seconds(30)

    private init(
        connection: PostgresConnection, configuration: PostgresConnection.Configuration, location: String, logger: Logger,
        answerLimit: Duration
    ) {
        self.connection = connection
        self.configuration = configuration
        self.location = location
        self.logger = logger
        self.answerLimit = answerLimit
    }

    /// Connects; with `create`, makes the tables where they are missing (a batch), else only checks that they are
    /// there (`status` and `events`, which a role allowed only to read the tables can run).
    public static func open(
        _ address: CatalogLocation.PostgresAddress, create: Bool = true, answerLimit: Duration = defaultAnswerLimit
    ) async throws(CatalogError) -> PostgresCatalog {
        let location = CatalogLocation.postgres(address).description
        var configuration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password,
            database: address.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(10)
        let logger = Logger(label: "streamlens.catalog", factory: { _ in SwiftLogNoOpLogHandler() })
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        } catch {
            throw .cannotOpen(location: location, reason: Self.whyNotConnected(error, to: address, within: configuration.options.connectTimeout))
        }
        let catalog = PostgresCatalog(
            connection: connection, configuration: configuration, location: location, logger: logger, answerLimit: answerLimit)
        var tablesPresent = true
        do {
            if create {
                // Several workers may start together: the advisory lock makes creating the tables happen once.
                try await connection.query("SELECT pg_advisory_lock(727272)", logger: logger)
                var olderCatalog = false
                for try await older in try await connection.query(
                    "SELECT to_regclass('batch_events') IS NOT NULL AND to_regclass('batch_sign_positions') IS NULL",
                    logger: logger
                ).decode(Bool.self) { olderCatalog = older }
                // A catalog older than the sign positions gets them from the events its batches recorded, the table
                // made in the same transaction as it is filled: an interrupted fill leaves no empty table behind.
                for statement in olderCatalog ? schema.dropLast() : schema[...] {
                    try await connection.query(statement, logger: logger)
                }
                if olderCatalog { try await fillSignPositions(connection, creating: schema.last!, logger: logger) }
                try await connection.query("SELECT pg_advisory_unlock(727272)", logger: logger)
            } else {
                let rows = try await connection.query(
                    "SELECT to_regclass('batch_files') IS NOT NULL AND to_regclass('batch_events') IS NOT NULL", logger: logger)
                for try await exists in rows.decode(Bool.self) { tablesPresent = exists }
                let signs = try await connection.query("SELECT to_regclass('batch_sign_positions') IS NOT NULL", logger: logger)
                for try await exists in signs.decode(Bool.self) { await catalog.setHasSignPositions(exists) }
            }
        } catch {
            try? await connection.close()
            throw .cannotOpen(location: location, reason: Self.reason(error))
        }
        guard tablesPresent else {
            try? await connection.close()
            throw .cannotOpen(
                location: location, reason: "no batch catalog in this database (a batch creates it: streamlens batch … --catalog \(location))")
        }
        return catalog
    }

    /// The tables; the sign positions' table is the last (an older catalog gets it made and filled in one
    /// transaction).
    static let schema: [PostgresQuery] = [
        """
        CREATE TABLE IF NOT EXISTS batch_files (
            path TEXT PRIMARY KEY, output_name TEXT NOT NULL, size BIGINT NOT NULL,
            modified DOUBLE PRECISION NOT NULL, content_hash TEXT NOT NULL, status TEXT NOT NULL, lease_owner TEXT,
            lease_expires DOUBLE PRECISION, attempts BIGINT NOT NULL DEFAULT 0, completions BIGINT NOT NULL DEFAULT 0,
            error TEXT, frames BIGINT, dropped BIGINT, seconds DOUBLE PRECISION, event_count BIGINT NOT NULL DEFAULT 0,
            report TEXT, output_folder TEXT, output_settings TEXT NOT NULL DEFAULT '')
        """,
        // Catalogs written before the output folder was recorded (empty: not known).
        "ALTER TABLE batch_files ADD COLUMN IF NOT EXISTS output_folder TEXT",
        // Catalogs written before the output settings were recorded: their files were done without any.
        "ALTER TABLE batch_files ADD COLUMN IF NOT EXISTS output_settings TEXT NOT NULL DEFAULT ''",
        """
        CREATE TABLE IF NOT EXISTS batch_events (
            file TEXT NOT NULL, sequence BIGINT NOT NULL, type TEXT NOT NULL, event TEXT NOT NULL,
            PRIMARY KEY (file, sequence))
        """,
        // Where each sign was passed: the speed_limit events that carry a position (docs/guides/gps.md).
        """
        CREATE TABLE IF NOT EXISTS batch_sign_positions (
            file TEXT NOT NULL, sequence BIGINT NOT NULL, value BIGINT NOT NULL, unit TEXT NOT NULL,
            time DOUBLE PRECISION NOT NULL, latitude DOUBLE PRECISION NOT NULL, longitude DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (file, sequence))
        """,
    ]

    /// Why connecting failed, in the user's terms (the driver's say "SingleConnectionFailure(target: [IPv4]…" or
    /// "serverClosedConnection" for a host that never answered), with what to check.
    private static func whyNotConnected(
        _ error: any Error, to address: CatalogLocation.PostgresAddress, within timeout: TimeAmount
    ) -> String {
        let place = "\(address.host):\(address.port)"
        if let error = error as? PSQLError, let message = error.serverInfo?[.message] {
            // The server answered: a missing database or role, a refused password.
            return message + " (check the user, password and database in the address)"
        }
        let text = String(reflecting: error)
        if text.contains("Connection refused") {
            return "nothing accepts connections at \(place) (is the server running, and listening on that address and port?)"
        }
        if text.contains("UnknownHost") || text.contains("Name or service not known") {
            return "no host named '\(address.host)' (check the address)"
        }
        if text.contains("connectTimeout") || text.contains("Connect timeout") || text.contains("timed out") {
            return "no answer from \(place) within \(timeout.nanoseconds / 1_000_000_000) s (is the host reachable and the port open?)"
        }
        if text.contains("authMechanismRequiresPassword") {
            return "the server asks for a password and the address gives none (postgresql://USER:PASSWORD@HOST/DATABASE)"
        }
        // A closed connection reads as a clean end or, when the peer's close overtakes the startup message, a reset.
        if text.contains("serverClosedConnection") || text.contains("Connection reset by peer") {
            return "\(place) closed the connection before answering (is it a PostgreSQL server?)"
        }
        return reason(error) + " (is the server running and the database created?)"
    }

    /// The server's error message (PSQLError's description hides it to avoid leaking data into logs).
    private static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }
        if let error = error as? PostgresTransactionError {
            return reason(error.closureError ?? error.commitError ?? error.beginError ?? error)
        }
        return "\(error)"
    }

    /// Runs `body` in one transaction, waiting at most ``answerLimit`` for the server. A server that restarts under
    /// a batch ends its session: a connection found closed, or lost while `body` ran, is made again (every 250 ms
    /// while the server is starting) and `body` runs on the new one. Running it again is safe: `renew`, `complete`,
    /// `fail` and `release` act only while the worker still holds the file, and a `claim` whose commit was lost
    /// leaves at most that file claimed until its lease expires. (Without it a restart of under a second failed the
    /// batch after the limit.) A server that stays away, or a query sent on a dropped connection that never gets
    /// an answer, runs into the limit: the transaction is left behind, the connection closed, and this and every
    /// later call fail with one line — a batch, and a Ctrl-C that waits for files to be handed back, never hang.
    func transaction<Result: Sendable>(
        extraTime: Duration = .zero, _ body: @escaping (PostgresConnection) async throws -> Result
    ) async throws(CatalogError) -> Result {
        if stoppedAnswering { throw noAnswer }
        // The task inherits this actor, so `body` runs where it always did.
        nonisolated(unsafe) let body = body
        let work = Task { () async throws -> Result in
            try await self.lock.withLock {
                if self.connection.isClosed { try await self.reconnect() }
                do {
                    return try await self.connection.withTransaction(logger: self.logger) { connection in try await body(connection) }
                } catch where self.lostConnection(error) {
                    try await self.reconnect()
                    return try await self.connection.withTransaction(logger: self.logger) { connection in try await body(connection) }
                }
            }
        }
        switch await Self.outcome(of: work, within: answerLimit + extraTime) {
        case .success(let result)?:
            return result
        case .failure(let error)?:
            throw .queryFailed(location: location, reason: Self.reason(error))
        case nil:
            stoppedAnswering = true
            work.cancel()
            Task { [connection] in try? await connection.close() }
            throw noAnswer
        }
    }

    /// True when `error` ended the session rather than the statement: the connection closed, or the server ended it
    /// (SQLSTATE class 57P: "terminating connection due to administrator command", a restart's fast shutdown).
    private func lostConnection(_ error: any Error) -> Bool {
        if connection.isClosed { return true }
        let error = (error as? PostgresTransactionError).flatMap { $0.closureError ?? $0.commitError ?? $0.beginError } ?? error
        guard let error = error as? PSQLError else { return false }
        if [.serverClosedConnection, .connectionError, .uncleanShutdown].contains(error.code) { return true }
        return error.serverInfo?[.sqlState]?.hasPrefix("57P") == true
    }

    /// A new connection in place of the closed one, with this batch's `batch_scope` put back; tries again every
    /// 250 ms until it connects or the transaction's time runs out (its task is cancelled).
    private func reconnect() async throws {
        try? await connection.close()
        while true {
            try Task.checkCancellation()
            connectionCount += 1
            do {
                let fresh = try await PostgresConnection.connect(configuration: configuration, id: connectionCount, logger: logger)
                do {
                    if scoped {
                        try await fresh.query("CREATE TEMP TABLE IF NOT EXISTS batch_scope (path TEXT PRIMARY KEY)", logger: logger)
                        try await fresh.query("INSERT INTO batch_scope (path) SELECT unnest(\(scopePaths)::text[])", logger: logger)
                    }
                } catch {
                    // A server still starting takes the connection but not the statements: try again on a new one.
                    try? await fresh.close()
                    throw error
                }
                connection = fresh
                return
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// `work`'s result, or nil when it has none after `limit` (then it is not waited for).
    private static func outcome<Result: Sendable>(
        of work: Task<Result, any Error>, within limit: Duration
    ) async -> Swift.Result<Result, any Error>? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Swift.Result<Result, any Error>?, Never>) in
            let answered = OnceFlag()
            let timer = Task {
                do { try await Task.sleep(for: limit) } catch { return }
                if answered.claim() { continuation.resume(returning: nil) }
            }
            Task {
                let result = await work.result
                timer.cancel()
                if answered.claim() { continuation.resume(returning: result) }
            }
        }
    }

    private var noAnswer: CatalogError {
        .queryFailed(
            location: location,
            reason: "the server did not answer for \(answerLimit.components.seconds) s (stopped, restarted or unreachable); "
                + "run the same command again when it is back")
    }


    /// `WHERE` terms that keep a query to this batch's inputs (none before ``register(_:policy:)``).
    private var inScope: String { scoped ? "path IN (SELECT path FROM batch_scope)" : "TRUE" }

    public func register(_ inputs: [CatalogInput], policy: RegistrationPolicy) async throws(CatalogError) -> StatusCounts {
        let logger = logger
        try await transaction(extraTime: .milliseconds(10 * inputs.count)) { connection in
            // Per session: every other process's batch has its own.
            try await connection.query("CREATE TEMP TABLE IF NOT EXISTS batch_scope (path TEXT PRIMARY KEY)", logger: logger)
            try await connection.query("DELETE FROM batch_scope", logger: logger)
            for input in inputs {
                try await connection.query(
                    "INSERT INTO batch_scope (path) VALUES (\(input.path)) ON CONFLICT DO NOTHING", logger: logger)
            }
            for input in inputs where !input.outputFolder.isEmpty {
                let others = try await connection.query(
                    """
                    SELECT path FROM batch_files
                    WHERE output_folder = \(input.outputFolder) AND output_name = \(input.outputName) AND path <> \(input.path)
                    LIMIT 1
                    """, logger: logger)
                for try await other in others.decode(String.self) {
                    throw CatalogError.outputNameTaken(name: input.outputName, folder: input.outputFolder, path: other)
                }
            }
            for input in inputs {
                let size = input.identity.size
                let modified = input.identity.modified
                let hash = input.identity.contentHash
                try await connection.query(
                    """
                    INSERT INTO batch_files (path, output_name, size, modified, content_hash, status, output_folder,
                        output_settings)
                    VALUES (\(input.path), \(input.outputName), \(size), \(modified), \(hash), 'pending', \(input.outputFolder),
                        \(input.outputSettings))
                    ON CONFLICT (path) DO NOTHING
                    """, logger: logger)
                // Recorded before the output folder was: it is this one.
                try await connection.query(
                    """
                    UPDATE batch_files SET output_folder = \(input.outputFolder)
                    WHERE path = \(input.path) AND coalesce(output_folder, '') = ''
                    """, logger: logger)
                let rows = try await connection.query(
                    """
                    SELECT size, modified, content_hash, status, output_folder, output_settings FROM batch_files
                    WHERE path = \(input.path) FOR UPDATE
                    """, logger: logger)
                for try await (recordedSize, recordedModified, recordedHash, status, recordedFolder, recordedSettings)
                    in rows.decode((Int64, Double, String, String, String?, String).self)
                {
                    let changed = FileIdentity(size: recordedSize, modified: recordedModified, contentHash: recordedHash)
                        != input.identity
                    // Done into another output folder: its outputs are not in this one, so it is done again here.
                    let movedOutputs = !input.outputFolder.isEmpty && (recordedFolder ?? "") != input.outputFolder
                    // Done with other settings (another blur, or none): its outputs are not what this batch makes.
                    let otherSettings = recordedSettings != input.outputSettings
                    guard changed || movedOutputs || otherSettings || policy.force
                        || (policy.retryFailed && status == FileStatus.failed.rawValue)
                    else {
                        continue
                    }
                    if !changed {
                        // To be done again, but what the last run found stays until the next one completes (an
                        // interrupted `--force` batch left its finished files with no events): `complete` replaces it.
                        try await connection.query(
                            """
                            UPDATE batch_files SET output_name = \(input.outputName), status = 'pending', lease_owner = NULL,
                                lease_expires = NULL, attempts = 0, error = NULL, output_folder = \(input.outputFolder),
                                output_settings = \(input.outputSettings)
                            WHERE path = \(input.path)
                            """, logger: logger)
                        continue
                    }
                    // Another recording under the same name: what was found in the old one no longer describes it.
                    try await connection.query("DELETE FROM batch_events WHERE file = \(input.path)", logger: logger)
                    try await connection.query("DELETE FROM batch_sign_positions WHERE file = \(input.path)", logger: logger)
                    try await connection.query(
                        """
                        UPDATE batch_files SET output_name = \(input.outputName), size = \(size), modified = \(modified),
                            content_hash = \(hash), status = 'pending', lease_owner = NULL, lease_expires = NULL,
                            attempts = 0, error = NULL, frames = NULL, dropped = NULL, seconds = NULL, event_count = 0,
                            report = NULL, output_folder = \(input.outputFolder), output_settings = \(input.outputSettings)
                        WHERE path = \(input.path)
                        """, logger: logger)
                }
            }
        }
        scoped = true
        scopePaths = inputs.map(\.path)
        return try await statusCounts()
    }

    public func claim(worker: WorkerIdentity, lease: Duration) async throws(CatalogError) -> ClaimedFile? {
        let logger = logger
        let owner = worker.description
        let leaseSeconds = lease.seconds
        let inScope = inScope
        return try await transaction { connection in
            // Leases of killed processes on this machine are free now; other leases when they expire.
            let running = try await connection.query(
                "SELECT path, lease_owner FROM batch_files WHERE status = 'running' FOR UPDATE SKIP LOCKED",
                logger: logger)
            var orphaned: [String] = []
            for try await (path, leaseOwner) in running.decode((String, String?).self) {
                if let identity = leaseOwner.flatMap(WorkerIdentity.init), identity.isDeadLocalProcess { orphaned.append(path) }
            }
            for path in orphaned {
                try await connection.query("UPDATE batch_files SET lease_expires = 0 WHERE path = \(path)", logger: logger)
            }
            let claimed = try await connection.query(
                """
                UPDATE batch_files SET status = 'running', lease_owner = \(owner),
                    lease_expires = extract(epoch from clock_timestamp()) + \(leaseSeconds), attempts = attempts + 1
                WHERE path = (SELECT path FROM batch_files
                              WHERE (status = 'pending'
                                 OR (status = 'running' AND lease_expires < extract(epoch from clock_timestamp())))
                                 AND \(unescaped: inScope)
                              ORDER BY path LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING path, output_name, attempts
                """, logger: logger)
            for try await (path, outputName, attempts) in claimed.decode((String, String, Int64).self) {
                return ClaimedFile(path: path, outputName: outputName, attempt: Int(attempts))
            }
            return nil
        }
    }

    public func renew(path: String, worker: WorkerIdentity, lease: Duration) async throws(CatalogError) -> Bool {
        let logger = logger
        let owner = worker.description
        let leaseSeconds = lease.seconds
        return try await transaction { connection in
            let rows = try await connection.query(
                """
                UPDATE batch_files SET lease_expires = extract(epoch from clock_timestamp()) + \(leaseSeconds)
                WHERE path = \(path) AND status = 'running' AND lease_owner = \(owner) RETURNING path
                """, logger: logger)
            for try await _ in rows { return true }
            return false
        }
    }

    public func complete(path: String, worker: WorkerIdentity, result: FileResult) async throws(CatalogError) -> Bool {
        let logger = logger
        let owner = worker.description
        return try await transaction { connection in
            let held = try await connection.query(
                """
                SELECT path FROM batch_files WHERE path = \(path) AND status = 'running' AND lease_owner = \(owner)
                FOR UPDATE
                """, logger: logger)
            var holds = false
            for try await _ in held { holds = true }
            guard holds else { return false }
            try await connection.query("DELETE FROM batch_events WHERE file = \(path)", logger: logger)
            for (sequence, event) in result.events.enumerated() {
                try await connection.query(
                    """
                    INSERT INTO batch_events (file, sequence, type, event)
                    VALUES (\(path), \(Int64(sequence)), \(eventType(of: event)), \(event))
                    """, logger: logger)
            }
            try await connection.query("DELETE FROM batch_sign_positions WHERE file = \(path)", logger: logger)
            for sighting in SignSighting.all(file: path, events: result.events) {
                try await Self.insert(sighting, connection, logger: logger)
            }
            try await connection.query(
                """
                UPDATE batch_files SET status = 'done', lease_owner = NULL, lease_expires = NULL, error = NULL,
                    completions = completions + 1, frames = \(Int64(result.frames)), dropped = \(Int64(result.dropped)),
                    seconds = \(result.seconds), event_count = \(Int64(result.events.count)), report = \(result.report)
                WHERE path = \(path)
                """, logger: logger)
            return true
        }
    }

    public func fail(path: String, worker: WorkerIdentity, error: String) async throws(CatalogError) {
        let logger = logger
        let owner = worker.description
        _ = try await transaction { connection in
            try await connection.query(
                """
                UPDATE batch_files SET status = 'failed', error = \(error), lease_owner = NULL, lease_expires = NULL
                WHERE path = \(path) AND status = 'running' AND lease_owner = \(owner)
                """, logger: logger)
        }
    }

    public func release(path: String, worker: WorkerIdentity) async throws(CatalogError) {
        let logger = logger
        let owner = worker.description
        _ = try await transaction { connection in
            try await connection.query(
                """
                UPDATE batch_files SET status = 'pending', lease_owner = NULL, lease_expires = NULL
                WHERE path = \(path) AND status = 'running' AND lease_owner = \(owner)
                """, logger: logger)
        }
    }

    public func statusCounts() async throws(CatalogError) -> StatusCounts {
        let logger = logger
        let inScope = inScope
        return try await transaction { connection in
            var counts = StatusCounts()
            let rows = try await connection.query(
                "SELECT status, count(*) FROM batch_files WHERE \(unescaped: inScope) GROUP BY status", logger: logger)
            for try await (status, count) in rows.decode((String, Int64).self) { counts.add(status, count: Int(count)) }
            return counts
        }
    }

    public func files() async throws(CatalogError) -> [CatalogFile] {
        let logger = logger
        let inScope = inScope
        return try await transaction { connection in
            let rows = try await connection.query(
                """
                SELECT path, output_name, size, modified, content_hash, status, lease_owner, lease_expires, attempts,
                    completions, error, frames, dropped, seconds, event_count, report
                FROM batch_files WHERE \(unescaped: inScope) ORDER BY path
                """, logger: logger)
            var files: [CatalogFile] = []
            for try await row in rows {
                let cells = row.makeRandomAccess()
                files.append(CatalogFile(
                    path: try cells["path"].decode(String.self), outputName: try cells["output_name"].decode(String.self),
                    size: try cells["size"].decode(Int64.self), modified: try cells["modified"].decode(Double.self),
                    contentHash: try cells["content_hash"].decode(String.self),
                    status: FileStatus(rawValue: try cells["status"].decode(String.self)) ?? .pending,
                    leaseOwner: try cells["lease_owner"].decode(String?.self),
                    leaseExpires: try cells["lease_expires"].decode(Double?.self),
                    attempts: Int(try cells["attempts"].decode(Int64.self)),
                    completions: Int(try cells["completions"].decode(Int64.self)),
                    error: try cells["error"].decode(String?.self),
                    frames: try cells["frames"].decode(Int64?.self).map(Int.init),
                    dropped: try cells["dropped"].decode(Int64?.self).map(Int.init),
                    seconds: try cells["seconds"].decode(Double?.self),
                    events: Int(try cells["event_count"].decode(Int64.self)),
                    report: try cells["report"].decode(String?.self)))
            }
            return files
        }
    }

    public func events(type: String?) async throws(CatalogError) -> [CatalogEvent] {
        let logger = logger
        return try await transaction { connection in
            let rows = try await connection.query(
                """
                SELECT file, sequence, type, event FROM batch_events
                WHERE \(type == nil) OR type = \(type ?? "") ORDER BY file, sequence
                """, logger: logger)
            var events: [CatalogEvent] = []
            for try await (file, sequence, type, json) in rows.decode((String, Int64, String, String).self) {
                events.append(CatalogEvent(file: file, sequence: Int(sequence), type: type, json: json))
            }
            return events
        }
    }

    public func close() async {
        try? await connection.close()
    }
}

/// True for the first caller of ``claim()`` only: whichever of an answer and its deadline comes first.
private final class OnceFlag: Sendable {
    private let claimed = Atomic<Bool>(false)
    func claim() -> Bool { !claimed.exchange(true, ordering: .acquiringAndReleasing) }
}
