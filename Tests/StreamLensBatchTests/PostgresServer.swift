import Foundation
import Testing

/// A real PostgreSQL server for one test: a new cluster (`initdb`) in a temporary folder, its `postgres` process
/// started as a child of the tests on a free loopback port, stopped (SIGINT: fast shutdown) and removed by `stop()`.
///
/// PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user (Debian's package creates
/// it) and the server programs run through util-linux `setpriv`, which switches user and then execs: the server is
/// our own child, not a daemon (`pg_ctl start` daemonizes, and Foundation's Process never saw its end).
final class PostgresServer: Sendable {
    let folder: URL
    let port: Int
    let binaries: String
    let runAs: String?
    let server: Process
    static let user = "streamlens"
    static let database = "batch"

    var url: String { "postgresql://\(Self.user)@127.0.0.1:\(port)/\(Self.database)" }

    /// The folder of the newest installed PostgreSQL's server programs, or nil when none is installed.
    static let binaryFolder: String? = {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }()

    /// Why PostgreSQL tests cannot run here, or nil when they can.
    static let unavailableReason: String? = binaryFolder == nil
        ? "PostgreSQL server programs not found under /usr/lib/postgresql (scripts/test.sh installs Debian's postgresql)"
        : nil

    private init(folder: URL, port: Int, binaries: String, runAs: String?, server: Process) {
        self.folder = folder
        self.port = port
        self.binaries = binaries
        self.runAs = runAs
        self.server = server
    }

    /// The command line that runs `program` as the cluster's owner.
    private static func command(_ binaries: String, _ program: String, _ arguments: [String], runAs: String?) -> (String, [String]) {
        let path = binaries + "/" + program
        guard let runAs else { return (path, arguments) }
        return ("/usr/bin/setpriv", ["--reuid=\(runAs)", "--regid=\(runAs)", "--init-groups", "--", path] + arguments)
    }

    static func start() async throws -> PostgresServer {
        let binaries = try #require(binaryFolder)
        let folder = URL(fileURLWithPath: "/tmp/streamlens-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let runAs: String? = getuid() == 0 ? "postgres" : nil
        if let runAs {
            let chown = try await runCommand("/bin/chown", ["-R", runAs, folder.path])
            #expect(chown.status == 0, "\(chown.standardError)")
        }
        let data = folder.appendingPathComponent("data").path
        let (initdb, initdbArguments) = command(
            binaries, "initdb", ["-D", data, "-U", user, "--auth=trust", "-E", "UTF8", "--no-sync"], runAs: runAs)
        let initialized = try await runCommand(initdb, initdbArguments)
        guard initialized.status == 0 else { throw failure("initdb failed: \(initialized.standardError)") }

        let instance = try await launch(folder: folder, port: try freeLoopbackPort(), binaries: binaries, runAs: runAs)
        let created = try await runCommand(
            binaries + "/createdb", ["-h", "127.0.0.1", "-p", "\(instance.port)", "-U", user, database])
        guard created.status == 0 else {
            await instance.stop()
            throw failure("createdb failed: \(created.standardError)")
        }
        return instance
    }

    /// Starts `postgres` on the cluster in `folder` and waits until it accepts connections.
    private static func launch(folder: URL, port: Int, binaries: String, runAs: String?) async throws -> PostgresServer {
        let data = folder.appendingPathComponent("data").path
        let (postgres, postgresArguments) = command(binaries, "postgres", [
            "-D", data, "-p", "\(port)", "-k", folder.path, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
            "-c", "max_connections=40",
        ], runAs: runAs)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: postgres)
        server.arguments = postgresArguments
        let logPath = folder.appendingPathComponent("server.log")
        if !FileManager.default.fileExists(atPath: logPath.path) {
            _ = FileManager.default.createFile(atPath: logPath.path, contents: nil)
        }
        let log = try FileHandle(forWritingTo: logPath)
        try log.seekToEnd()
        server.standardOutput = log
        server.standardError = log
        server.standardInput = FileHandle.nullDevice
        try server.run()
        let instance = PostgresServer(folder: folder, port: port, binaries: binaries, runAs: runAs, server: server)
        let ready = try await waitUntil(timeout: 60) {
            try await runCommand(binaries + "/pg_isready", ["-h", "127.0.0.1", "-p", "\(port)", "-q"]).status == 0
        }
        guard ready, server.isRunning else {
            await instance.stop()
            throw failure("postgres did not start: \((try? String(contentsOf: logPath, encoding: .utf8)) ?? "")")
        }
        return instance
    }

    /// A fast shutdown (which ends every session, as a restart does), then the same cluster started again on the same
    /// port: the returned server replaces this one.
    func restarted() async throws -> PostgresServer {
        kill(server.processIdentifier, SIGINT)
        _ = try await waitUntil(timeout: 30) { !self.server.isRunning }
        return try await Self.launch(folder: folder, port: port, binaries: binaries, runAs: runAs)
    }

    private static func failure(_ message: String) -> any Error {
        CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// Runs SQL with psql and returns its unaligned output; nil when it fails (no tables yet, say).
    func query(_ sql: String) async throws -> String? {
        let result = try await runCommand(binaries + "/psql", [
            "-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d", Self.database, "-At", "-c", sql,
        ])
        guard result.status == 0 else { return nil }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Fast shutdown (SIGINT), then the folder goes.
    func stop() async {
        if server.isRunning {
            kill(server.processIdentifier, SIGINT)
            _ = try? await waitUntil(timeout: 30) { !self.server.isRunning }
            if server.isRunning { kill(server.processIdentifier, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A loopback port nothing listens on (the kernel picks it; closed again at once).
func freeLoopbackPort() throws -> Int {
    let socketHandle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socketHandle) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketHandle, $0, length) == 0 && getsockname(socketHandle, $0, &length) == 0 }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}
