import Foundation
import StreamLensCore
import Testing
@testable import StreamLensStats
#if canImport(Glibc)
import Glibc
#endif

@Suite("Prometheus metrics endpoint", .serialized)
struct MetricsServerTests {
    /// GET (or `method`) `path` from 127.0.0.1:`port` over a plain TCP socket; returns the status line and the body.
    static func get(_ path: String, port: Int, method: String = "GET") throws -> (status: String, body: String) {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socketFD >= 0)
        defer { close(socketFD) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0, "cannot connect to 127.0.0.1:\(port)")
        let request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        _ = request.withCString { send(socketFD, $0, strlen($0), 0) }
        var response = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socketFD, &chunk, chunk.count, 0)
            if count <= 0 { break }
            response += chunk[0..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let status = parts.first?.components(separatedBy: "\r\n").first ?? ""
        return (status, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// ``get(_:port:)`` on a thread of its own: the blocking socket calls must not occupy one of the few threads the
    /// server's tasks need.
    static func fetch(_ path: String, port: Int, method: String = "GET") async throws -> (status: String, body: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try get(path, port: port, method: method) }) }.start()
        }
    }

    /// Sample values by series (name plus labels as written), skipping comments.
    static func samples(_ exposition: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    static func feed(_ recorder: RunRecorder, frames: Range<Int>, dropEvery: Int) {
        for frame in frames {
            let time = ms(Double(frame) * 40)
            recorder.frameArrived(index: frame, pts: time, at: time, discontinuity: false)
            if frame % dropEvery == 0 {
                recorder.frameDropped(index: frame, pts: time, cause: .poolFull, at: time)
            } else {
                recorder.frameOutput(
                    index: frame, pts: time,
                    timing: FrameTiming(
                        arrival: time, poolWait: .zero, compositeTime: ms(2), pushTime: ms(1), outputAt: time + ms(8),
                        analysisLag: nil))
            }
        }
    }

    @Test func servesTheRecordersCountersOverHTTP() async throws {
        let recorder = RunRecorder()
        Self.feed(recorder, frames: 0..<100, dropEvery: 10)
        recorder.analysisSkipped(stage: "ocr", pts: ms(40))
        recorder.analysisFailed(stage: "ocr", pts: ms(80), error: StatsError.cannotRead(path: "x", reason: "y"))
        let server = try await MetricsServer.start(port: 0, exporter: MetricsExporter(recorder: recorder))
        #expect(server.port > 0)

        let first = try await Self.fetch("/metrics", port: server.port)
        #expect(first.status == "HTTP/1.1 200 OK")
        var samples = Self.samples(first.body)
        #expect(samples["streamlens_frames_decoded_total"] == 100)
        #expect(samples["streamlens_frames_output_total"] == 90)
        #expect(samples["streamlens_frames_dropped_total{cause=\"pool_full\"}"] == 10)
        #expect(samples["streamlens_frames_dropped_total{cause=\"interrupted\"}"] == 0)
        #expect(samples["streamlens_analysis_skipped_total{stage=\"ocr\"}"] == 1)
        #expect(samples["streamlens_analysis_failed_total{stage=\"ocr\"}"] == 1)
        #expect(samples["streamlens_latency_seconds{quantile=\"0.5\"}"] == 0.008)
        #expect(first.body.contains("# TYPE streamlens_frames_decoded_total counter"))

        // Counters follow the recorder between scrapes; sink drops show under late_at_sink.
        Self.feed(recorder, frames: 100..<150, dropEvery: 5)
        recorder.sinkReportedDrops(total: 4)
        samples = Self.samples(try await Self.fetch("/metrics", port: server.port).body)
        let snapshot = recorder.snapshot()
        #expect(samples["streamlens_frames_decoded_total"] == Double(snapshot.decoded))
        #expect(samples["streamlens_frames_decoded_total"] == 150)
        #expect(samples["streamlens_frames_dropped_total{cause=\"pool_full\"}"] == 20)
        #expect(samples["streamlens_frames_dropped_total{cause=\"late_at_sink\"}"] == 4)
        #expect(samples["streamlens_frames_output_total"] == Double(snapshot.output + 4))

        let other = try await Self.fetch("/", port: server.port)
        #expect(other.status == "HTTP/1.1 404 Not Found")
        // A health check that asks with HEAD finds the endpoint (it was 404), and gets no body.
        let head = try await Self.fetch("/metrics", port: server.port, method: "HEAD")
        #expect(head.status == "HTTP/1.1 200 OK")
        #expect(head.body.isEmpty)
        // Stopping does not wait out a grace period (it added a whole second to every run that served metrics).
        let stopping = ContinuousClock.now
        await server.stop()
        #expect(ContinuousClock.now - stopping < .milliseconds(500))
    }

    @Test func aBusyPortIsAClearError() async throws {
        let exporter = MetricsExporter(recorder: RunRecorder())
        let first = try await MetricsServer.start(port: 0, exporter: exporter)
        await #expect {
            _ = try await MetricsServer.start(port: first.port, exporter: exporter)
        } throws: { error in
            String(describing: error)
                == "cannot serve metrics on port \(first.port): the port is already in use; pick another port (--metrics-port; streamlensstats: metrics-port=)"
        }
        await first.stop()
    }
}
