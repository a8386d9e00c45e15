import Dispatch

/// Starts and stops the Prometheus endpoint from a synchronous thread (the command line's run loop, a GStreamer
/// element's state change). The server itself runs on Swift concurrency's threads; the calling thread only waits
/// for it to listen.
public enum MetricsEndpoint {
    /// Serves `recorder`'s metrics on loopback `port`; returns once the server listens.
    public static func start(port: Int, recorder: RunRecorder) throws(StatsError) -> MetricsServer {
        let result = ResultBox()
        let started = DispatchSemaphore(value: 0)
        Task {
            do {
                result.value = .success(try await MetricsServer.start(port: port, exporter: MetricsExporter(recorder: recorder)))
            } catch let error as StatsError {
                result.value = .failure(error)
            } catch {
                result.value = .failure(.metricsUnavailable(port: port, reason: "\(error)"))
            }
            started.signal()
        }
        started.wait()
        switch result.value {
        case .success(let server): return server
        case .failure(let error): throw error
        case nil: throw .metricsUnavailable(port: port, reason: "the server did not start")
        }
    }

    /// Stops `server` and waits until it has.
    public static func stop(_ server: MetricsServer) {
        let stopped = DispatchSemaphore(value: 0)
        Task {
            await server.stop()
            stopped.signal()
        }
        stopped.wait()
    }

    /// Carries the outcome from the task to the waiting thread; the semaphore orders the write before the read.
    private final class ResultBox: @unchecked Sendable {
        var value: Result<MetricsServer, StatsError>?
    }
}
