import Foundation

/// Where a batch remembers its files: what each input is (path, size, modification time, content hash), how far it
/// got (pending, running under a lease, done, failed), and the report and events of every finished file. Two
/// implementations: ``SQLiteCatalog`` (one machine, the default `DIR/catalog.sqlite`) and ``PostgresCatalog`` (any
/// number of `streamlens batch` processes on any number of machines sharing the work).
///
/// Every method is one transaction: a process killed between two calls leaves the catalog consistent, and a file's
/// events change only together with its status.
public protocol BatchCatalog: Sendable {
    /// Adds `inputs` that are new, and puts back to pending those whose content changed, whose outputs now go to
    /// another output folder or would be made with other ``CatalogInput/outputSettings`` (and, per `policy`, failed
    /// or all files). Returns how many of them each status holds
    /// afterwards. Throws ``CatalogError/outputNameTaken(name:folder:path:)`` when another file of the catalog writes
    /// the same outputs (two cards' `FILE0001.MP4` into one output folder).
    ///
    /// From then on this catalog object works for this batch alone: ``claim(worker:lease:)``, ``statusCounts()`` and
    /// ``files()`` see only `inputs`. A catalog shared by other batches (other folders, other options, other output
    /// folders) holds their pending files too, and a batch took those and ran them with its own options.
    func register(_ inputs: [CatalogInput], policy: RegistrationPolicy) async throws(CatalogError) -> StatusCounts

    /// Takes one file to work on: a pending one, or a running one whose lease expired (its worker died), leased to
    /// `worker` until `lease` from now. Nil when no file can be taken now.
    func claim(worker: WorkerIdentity, lease: Duration) async throws(CatalogError) -> ClaimedFile?

    /// Extends `worker`'s lease on `path`; false when the lease was lost (expired and taken over, or the file reset).
    func renew(path: String, worker: WorkerIdentity, lease: Duration) async throws(CatalogError) -> Bool

    /// Records `path` as done with its report and events, replacing any events recorded before, in one transaction.
    /// False (and nothing recorded) when `worker` no longer holds the file.
    func complete(path: String, worker: WorkerIdentity, result: FileResult) async throws(CatalogError) -> Bool

    /// Records `path` as failed with `error` (when `worker` still holds it).
    func fail(path: String, worker: WorkerIdentity, error: String) async throws(CatalogError)

    /// Gives `path` back as pending (an interrupted worker), when `worker` still holds it.
    func release(path: String, worker: WorkerIdentity) async throws(CatalogError)

    /// How many files each status holds (of this batch's inputs, after ``register(_:policy:)``).
    func statusCounts() async throws(CatalogError) -> StatusCounts

    /// Every file with its status, in path order (this batch's inputs, after ``register(_:policy:)``).
    func files() async throws(CatalogError) -> [CatalogFile]

    /// The recorded events, in file then emission order; `type` keeps one event type.
    func events(type: String?) async throws(CatalogError) -> [CatalogEvent]

    /// The signs passed where the run had a position (`batch_sign_positions`), in file then event order. A catalog
    /// written before that table existed and opened only to read gives them from its `speed_limit` events.
    func signSightings() async throws(CatalogError) -> [SignSighting]

    /// Closes the connection.
    func close() async
}

/// One input as the batch found it.
public struct CatalogInput: Sendable, Equatable {
    /// The absolute path every worker reads.
    public var path: String
    /// Where its outputs go, relative to the output folder and without extension (`day1/clip-0001`).
    public var outputName: String
    public var identity: FileIdentity
    /// The batch's output folder (absolute; empty when not known).
    public var outputFolder: String
    /// The settings that decide what the output video looks like (``OutputSettings``); empty: none recorded (no
    /// privacy settings). A file done with other settings is done again.
    public var outputSettings: String

    public init(
        path: String, outputName: String, identity: FileIdentity, outputFolder: String = "", outputSettings: String = ""
    ) {
        self.path = path
        self.outputName = outputName
        self.identity = identity
        self.outputFolder = outputFolder
        self.outputSettings = outputSettings
    }
}

/// Which recorded files go back to pending when a batch starts.
public struct RegistrationPolicy: Sendable {
    /// Failed files are tried again (`--retry-failed`).
    public var retryFailed: Bool
    /// Every file is done again (`--force`).
    public var force: Bool

    public init(retryFailed: Bool = false, force: Bool = false) {
        self.retryFailed = retryFailed
        self.force = force
    }
}

/// The status of a file in the catalog.
public enum FileStatus: String, Sendable, Codable, CaseIterable {
    case pending, running, done, failed
}

/// How many files each status holds.
public struct StatusCounts: Sendable, Equatable, Codable {
    public var pending = 0
    public var running = 0
    public var done = 0
    public var failed = 0

    public init() {}

    public var total: Int { pending + running + done + failed }

    mutating func add(_ status: String, count: Int) {
        switch FileStatus(rawValue: status) {
        case .pending: pending += count
        case .running: running += count
        case .done: done += count
        case .failed: failed += count
        case nil: break
        }
    }

    public init(_ files: [CatalogFile]) {
        for file in files {
            switch file.status {
            case .pending: pending += 1
            case .running: running += 1
            case .done: done += 1
            case .failed: failed += 1
            }
        }
    }
}

/// Who holds a lease: the machine, the process and the worker within it (`host:pid:worker`). A lease held by a
/// process of this machine that no longer exists is free at once (a killed batch resumes without waiting for its
/// leases to expire).
public struct WorkerIdentity: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var processID: Int32
    public var worker: Int

    public init(host: String = WorkerIdentity.localHost, processID: Int32 = getpid(), worker: Int) {
        self.host = host
        self.processID = processID
        self.worker = worker
    }

    public var description: String { "\(host):\(processID):\(worker)" }

    /// This machine's name (`gethostname`: no name service lookup, which could hang on a machine without DNS).
    public static let localHost: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Parses `host:pid:worker`.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let worker = Int(parts[parts.count - 1]), let pid = Int32(parts[parts.count - 2]) else {
            return nil
        }
        self.init(host: parts.dropLast(2).joined(separator: ":"), processID: pid, worker: worker)
    }

    /// True when this lease belongs to a process of this machine that has ended.
    public var isDeadLocalProcess: Bool {
        guard host == Self.localHost, processID != getpid() else { return false }
        return kill(processID, 0) != 0 && errno == ESRCH
    }
}

/// A file taken to work on.
public struct ClaimedFile: Sendable, Equatable {
    public var path: String
    public var outputName: String
    /// How many times the file has been taken, this time included.
    public var attempt: Int
}

/// What a finished file leaves in the catalog.
public struct FileResult: Sendable {
    /// The run report (JSON text), when the run wrote one.
    public var report: String?
    public var frames: Int
    public var dropped: Int
    public var seconds: Double
    /// The events, one JSON object each, in emission order.
    public var events: [String]

    public init(report: String?, frames: Int, dropped: Int, seconds: Double, events: [String]) {
        self.report = report
        self.frames = frames
        self.dropped = dropped
        self.seconds = seconds
        self.events = events
    }
}

/// A file as the catalog holds it.
public struct CatalogFile: Sendable, Codable, Equatable {
    public var path: String
    public var outputName: String
    public var size: Int64
    public var modified: Double
    public var contentHash: String
    public var status: FileStatus
    public var leaseOwner: String?
    public var leaseExpires: Double?
    public var attempts: Int
    /// How many times the file was recorded done (1 after any number of crashes and resumes; more only after
    /// `--force` or a changed input).
    public var completions: Int
    public var error: String?
    public var frames: Int?
    public var dropped: Int?
    public var seconds: Double?
    public var events: Int
    public var report: String?
}

/// One recorded event of one file.
public struct CatalogEvent: Sendable, Equatable {
    public var file: String
    public var sequence: Int
    public var type: String
    /// The event as the run wrote it (a JSON object).
    public var json: String
}

/// The event type of one JSON-lines event (its `type` field), or "unknown".
func eventType(of line: String) -> String {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let type = object["type"] as? String
    else { return "unknown" }
    return type
}

extension BatchCatalog {
    /// The sightings in the recorded `speed_limit` events: what a catalog older than its sign positions' table
    /// answers with when opened only to read.
    func signSightingsFromEvents() async throws(CatalogError) -> [SignSighting] {
        try await events(type: "speed_limit").compactMap {
            SignSighting(file: $0.file, sequence: $0.sequence, event: $0.json)
        }
    }
}
