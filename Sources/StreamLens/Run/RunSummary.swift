import Foundation
import StreamLensStats

/// The short summary every run prints on standard output.
enum RunSummary {
    static func render(_ report: RunReport, copies: Int) -> String {
        let frames = report.frames
        let dropped = frames.dropped.filter { $0.value > 0 }.sorted { $0.key < $1.key }
            .map { "\($0.key) \($0.value)" }
        let droppedTotal = frames.dropped.values.reduce(0, +)
        var lines = [
            "frames: decoded \(frames.decoded), output \(frames.output), dropped \(droppedTotal)"
                + (dropped.isEmpty ? "" : " (\(dropped.joined(separator: ", ")))")
                + (frames.gaps > 0 ? ", source gaps \(frames.gaps)" : ""),
            String(
                format: "speed: %.1f fps over %.2f s; latency in StreamLens p50 %.1f ms, p99 %.1f ms",
                report.throughputFPS, report.durationSeconds, report.latencyMilliseconds.p50,
                report.latencyMilliseconds.p99)
                // Arrival jitter only means something when frames arrive in real time.
                + (report.run.live ? String(format: "; arrival jitter p95 %.2f ms", report.jitterMilliseconds.p95) : ""),
        ]
        let skipped = frames.analysisSkipped.filter { $0.value > 0 }
        if !skipped.isEmpty {
            lines.append("analysis skipped: " + skipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if copies > 0 { lines.append("frames copied for compositing: \(copies)") }
        return lines.joined(separator: "\n")
    }
}
