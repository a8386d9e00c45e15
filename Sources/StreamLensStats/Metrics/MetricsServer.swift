import FlyingFox
import Foundation
import Synchronization

/// Serves `GET /metrics` (Prometheus text format) over HTTP/1.1 for `--metrics-port N`, using FlyingFox.
///
/// ## Thread Safety
/// The server runs on Swift concurrency's threads, never on the frame path; each request asks the
/// ``MetricsExporter`` (itself thread-safe) for a fresh exposition. ``start(port:host:exporter:)`` and
/// ``stop()`` may be called from any task.
public final class MetricsServer: Sendable {
    /// The port the server listens on (the one the system chose when started with port 0).
    public let port: Int
    public let host: String
    private let server: HTTPServer
    private let task: Task<Void, any Error>

    private init(port: Int, host: String, server: HTTPServer, task: Task<Void, any Error>) {
        self.port = port
        self.host = host
        self.server = server
        self.task = task
    }

    /// Starts listening on `host`:`port` (port 0: any free port) and returns once connections are accepted.
    /// `host` defaults to loopback; pass "0.0.0.0" to let a Prometheus server on another machine scrape.
    public static func start(port: Int, host: String = "127.0.0.1", exporter: MetricsExporter) async throws(StatsError) -> MetricsServer {
        guard (0...65535).contains(port) else {
            throw .metricsUnavailable(port: port, reason: "a port is a number from 1 to 65535")
        }
        let address: sockaddr_in
        do {
            address = try .inet(ip4: host, port: UInt16(port))
        } catch {
            throw .metricsUnavailable(port: port, reason: "'\(host)' is not an IPv4 address")
        }
        let server = HTTPServer(address: address, timeout: 5, logger: .disabled)
        await server.appendRoute("GET /metrics") { _ in
            HTTPResponse(
                statusCode: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: Data(exporter.exposition().utf8))
        }
        // Health checks often ask with HEAD: the same answer without the figures.
        await server.appendRoute("HEAD /metrics") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"])
        }
        await server.appendRoute("*") { _ in
            HTTPResponse(statusCode: .notFound, body: Data("only GET /metrics is served here\n".utf8))
        }
        let outcome = RunOutcome()
        let task = Task {
            do {
                try await server.run()
                outcome.record("the server stopped")
            } catch {
                outcome.record(Self.describe(error))
                throw error
            }
        }
        // Wait until the socket listens, or the server fails (a port in use makes run() throw at once). The limit is
        // a way out, not an expectation: a loaded machine whose cooperative threads are all busy took over 5 s here
        // to run the accept loop's first step (MetricsServerTests, in the parallel suite).
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if case .ip4(_, let boundPort) = await server.listeningAddress {
                return MetricsServer(port: Int(boundPort), host: host, server: server, task: task)
            }
            if let failure = outcome.failure {
                throw .metricsUnavailable(port: port, reason: failure)
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        task.cancel()
        throw .metricsUnavailable(port: port, reason: "the server did not start listening within 30 s")
    }

    /// Stops listening and closes open connections.
    public func stop() async {
        // Open connections are completed first either way. The accept loop is not woken by its socket's close on
        // Linux: any grace period here was waited in full, a second added to every run's end.
        await server.stop(timeout: 0)
        task.cancel()
    }

    private static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.contains("addressInUse") || text.contains("Address already in use")
            ? "the port is already in use" : text
    }
}

/// How the server's run ended, written by its task and read while starting.
private final class RunOutcome: Sendable {
    private let description = Mutex<String?>(nil)

    func record(_ text: String) { description.withLock { $0 = $0 ?? text } }

    var failure: String? { description.withLock { $0 } }
}
