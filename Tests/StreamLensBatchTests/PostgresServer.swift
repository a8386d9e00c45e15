import Foundation
import Testing

/// A real PostgreSQL server for one test: a new cluster (`initdb`) in a temporary folder, listening on a free
/// loopback port, stopped and removed by `stop()`. PostgreSQL refuses to run as root, so as root the cluster belongs
/// to the `postgres` user (Debian's package creates it) and every server command runs through `runuser`.
struct PostgresServer: Sendable {
    let folder: URL
    let port: Int
    let binaries: String
    let runAs: String?
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

    static func start() async throws -> PostgresServer {
        let binaries = try #require(binaryFolder)
        let folder = URL(fileURLWithPath: "/tmp/streamlens-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let runAs: String? = getuid() == 0 ? "postgres" : nil
        if let runAs {
            let chown = try await runCommand("/bin/chown", ["-R", runAs, folder.path])
            #expect(chown.status == 0, "\(chown.standardError)")
        }
        let server = PostgresServer(folder: folder, port: try freeLoopbackPort(), binaries: binaries, runAs: runAs)
        try await server.run("initdb", ["-D", server.dataFolder, "-U", user, "--auth=trust", "-E", "UTF8", "--no-sync"])
        try await server.run("pg_ctl", [
            "-D", server.dataFolder, "-l", folder.appendingPathComponent("server.log").path, "-w", "-t", "60", "-o",
            "-p \(server.port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40",
            "start",
        ])
        try await server.run("createdb", ["-h", "127.0.0.1", "-p", "\(server.port)", "-U", user, database])
        return server
    }

    var dataFolder: String { folder.appendingPathComponent("data").path }

    /// Runs a PostgreSQL program (as `postgres` when we are root).
    func run(_ program: String, _ arguments: [String]) async throws {
        let path = binaries + "/" + program
        let result = if let runAs {
            try await runCommand("/usr/sbin/runuser", ["-u", runAs, "--", path] + arguments)
        } else {
            try await runCommand(path, arguments)
        }
        guard result.status == 0 else {
            let log = (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            throw CocoaError(.executableLoad, userInfo: [
                NSLocalizedDescriptionKey: "\(program) failed: \(result.standardError) \(log.suffix(2000))",
            ])
        }
    }

    /// Runs SQL with psql and returns its unaligned output.
    func query(_ sql: String) async throws -> String {
        let result = try await runCommand(binaries + "/psql", [
            "-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d", Self.database, "-At", "-c", sql,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() async {
        try? await run("pg_ctl", ["-D", dataFolder, "-m", "immediate", "-w", "stop"])
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
