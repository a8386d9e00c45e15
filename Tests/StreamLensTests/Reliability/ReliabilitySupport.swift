import Foundation
import StreamLensCore
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The bad-input corpus (scripts/datasets/make-corpus.sh): `$STREAMLENS_CORPUS`, default `<repo>/.media-cache/corpus`. The
/// script is idempotent and quick when the corpus is there; the first test that needs it runs it.
enum Corpus {
    static let folder: URL = {
        if let configured = ProcessInfo.processInfo.environment["STREAMLENS_CORPUS"], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        return repositoryRoot.appendingPathComponent(".media-cache/corpus")
    }()

    private static let made = Mutex(false)

    /// Makes the corpus if needed and returns the URL of `name` in it.
    static func file(_ name: String) async throws -> URL {
        try await ensure()
        return folder.appendingPathComponent(name)
    }

    static func ensure() async throws {
        if made.withLock({ $0 }) { return }
        let status = try await offThePool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [repositoryRoot.appendingPathComponent("scripts/datasets/make-corpus.sh").path]
            process.environment = ProcessInfo.processInfo.environment.merging(["STREAMLENS_CORPUS": folder.path]) { $1 }
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        guard status == 0 else { throw CorpusError("scripts/datasets/make-corpus.sh failed (status \(status)); run it by hand") }
        made.withLock { $0 = true }
    }
}

struct CorpusError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Rows for the corpus table of docs/reliability.md: when `STREAMLENS_RELIABILITY_TABLE` names a file, each corpus case
/// appends `| case | outcome | exit | seconds |` to it (the tests run one at a time).
enum ReliabilityTable {
    static func record(_ testCase: String, outcome: String, status: Int32, seconds: Double) {
        guard let path = ProcessInfo.processInfo.environment["STREAMLENS_RELIABILITY_TABLE"], !path.isEmpty else { return }
        let row = String(format: "| %@ | %@ | %d | %.2f |\n", testCase, outcome, status, seconds)
        if let handle = FileHandle(forWritingAtPath: path) ?? {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }() {
            handle.seekToEndOfFile()
            try? handle.write(contentsOf: Data(row.utf8))
            try? handle.close()
        }
    }
}

/// `streamlens` started in the background, for tests that signal it or change its surroundings while it runs.
/// Its output goes to files (a pipe nobody reads could fill up and stall it).
final class BackgroundRun: @unchecked Sendable {
    let process = Process()
    let started = Date()
    private let outputFile: URL
    private let errorFile: URL

    /// `closedPipes`: stdout and stderr are pipes whose reading ends are closed at once (a `| tee log` that Ctrl-C
    /// stopped, a `| head -1` that has its line): every write to them fails; the result's outputs are empty.
    init(_ arguments: [String], folder: URL, prefix: [String] = [], closedPipes: Bool = false) throws {
        outputFile = folder.appendingPathComponent("stdout.txt")
        errorFile = folder.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        if prefix.isEmpty {
            process.executableURL = streamlensExecutable
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: prefix[0])
            process.arguments = Array(prefix.dropFirst()) + [streamlensExecutable.path] + arguments
        }
        process.currentDirectoryURL = folder
        if closedPipes {
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            try output.fileHandleForReading.close()
            try errors.fileHandleForReading.close()
            return
        }
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit at most `limit` (then kills it and records an issue); returns the result and how long it
    /// took from `from` (default: the start).
    func finish(within limit: Duration, from: Date? = nil) async throws -> (result: ToolResult, seconds: Double) {
        let (result, seconds, killed) = try await end(within: limit, from: from)
        if killed { Issue.record("streamlens \(process.arguments ?? []) still running after \(limit); killed") }
        return (result, seconds)
    }

    /// ``finish(within:from:)`` without recording the kill as an issue (for runs made outside a test, whose test
    /// checks `killed`).
    func end(within limit: Duration, from: Date? = nil) async throws -> (result: ToolResult, seconds: Double, killed: Bool) {
        let deadline = Date().addingTimeInterval(limit.seconds)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let killed = process.isRunning
        if killed { kill(process.processIdentifier, SIGKILL) }
        try await offThePool { self.process.waitUntilExit() }
        let seconds = Date().timeIntervalSince(from ?? started)
        let result = ToolResult(
            status: process.terminationStatus,
            standardOutput: (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
        return (result, seconds, killed)
    }
}

/// Runs `streamlens` to the end and times it.
func timedRun(
    _ arguments: [String], in folder: URL, limit: Duration, prefix: [String] = []
) async throws -> (result: ToolResult, seconds: Double) {
    let run = try BackgroundRun(arguments, folder: folder, prefix: prefix)
    return try await run.finish(within: limit)
}

/// Runs a command as the unprivileged user `nobody` (root can read and write everything, so permission cases need
/// another user).
let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

/// Report keys the reliability tests read (plain JSON, so the tests check the file format itself).
extension Report {
    var framesSection: [String: Any] { json["frames"] as! [String: Any] }
    var decodeErrors: Int { framesSection["decode_errors"] as? Int ?? 0 }
    var gaps: Int { framesSection["gaps"] as? Int ?? 0 }
    var error: String? { run["error"] as? String }
    var hardStop: Bool { run["hard_stop"] as? Bool ?? false }
    var outputFileState: String? { (run["output_file"] as? [String: Any])?["state"] as? String }
    var outputFilePath: String? { (run["output_file"] as? [String: Any])?["path"] as? String }
    var outputFit: (width: Int, height: Int)? {
        guard let fit = run["output_fit"] as? [String: Any] else { return nil }
        return (fit["encoded_width"] as! Int, fit["encoded_height"] as! Int)
    }
    var reconnects: (count: Int, attempts: Int, totalMilliseconds: Double) {
        let section = json["reconnects"] as? [String: Any] ?? [:]
        return (section["count"] as? Int ?? 0, section["attempts"] as? Int ?? 0, section["total_ms"] as? Double ?? 0)
    }
    var conservesFrames: Bool { decoded == output + droppedTotal }
}

/// A free TCP port on loopback (bound once to learn it, then released).
func freeLoopbackPort() -> Int {
    let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socketDescriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A real RTSP server on loopback (gst-rtsp-server, scripts/datasets/rtsp-server.py) serving a live H.264 test pattern at
/// `url`; the test starts and stops it.
final class RTSPServer: @unchecked Sendable {
    let port: Int
    private var process: Process?
    var url: String { "rtsp://127.0.0.1:\(port)/test" }

    init(port: Int = freeLoopbackPort()) {
        self.port = port
    }

    /// Starts the server and waits until it listens.
    func start() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [repositoryRoot.appendingPathComponent("scripts/datasets/rtsp-server.py").path, String(port)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        self.process = process
        let line = try await offThePool { output.fileHandleForReading.availableData }
        guard String(decoding: line, as: UTF8.self).contains("ready") else {
            throw CorpusError("the RTSP server did not start on port \(port) (python3-gi, gir1.2-gst-rtsp-server-1.0)")
        }
    }

    /// Stops the server abruptly, like a crash or a power cut: the clients' connections drop. (SIGKILL: the GLib
    /// main loop of the Python server does not act on SIGTERM promptly.)
    func stop() async throws {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        try await offThePool { process.waitUntilExit() }
        self.process = nil
    }

    deinit { if let process { kill(process.processIdentifier, SIGKILL) } }
}

/// Polls `condition` every 50 ms until it holds or `limit` passes; returns whether it held. Tests that signal a run
/// wait for what the run has done (bytes written, a pipe filled), never for a fixed time: a loaded machine may not
/// have started the pipeline after seconds.
func waitUntil(within limit: Duration = .seconds(30), _ condition: () -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(limit.seconds)
    while !condition() {
        if Date() >= deadline { return false }
        try await Task.sleep(for: .milliseconds(50))
    }
    return true
}

/// A counter of a run started with `--metrics-port metricsPort`, from its Prometheus endpoint (nil while it does not
/// answer yet). The endpoint answers once the run has installed its signal handlers and is about to start its
/// pipeline, so tests that signal a run wait for it rather than for a time.
func metric(_ name: String, metricsPort: Int) -> Int? {
    guard let metrics = try? String(contentsOf: URL(string: "http://127.0.0.1:\(metricsPort)/metrics")!, encoding: .utf8)
    else { return nil }
    let line = metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }
    return line.flatMap { Double($0.split(separator: " ").last!) }.map { Int($0) } ?? 0
}

/// The frames a run started with `--metrics-port metricsPort` has decoded so far (nil while it does not answer yet).
func decodedFrames(metricsPort: Int) -> Int? { metric("streamlens_frames_decoded_total", metricsPort: metricsPort) }

/// The frames a run started with `--metrics-port metricsPort` has handed to its output so far.
func outputFrames(metricsPort: Int) -> Int? { metric("streamlens_frames_output_total", metricsPort: metricsPort) }

func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
}
