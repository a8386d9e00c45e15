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
                + (frames.gaps > 0 ? ", source gaps \(frames.gaps)" : "")
                + ((frames.decodeErrors ?? 0) > 0 ? ", decode errors \(frames.decodeErrors ?? 0)" : ""),
            String(
                format: "speed: %.1f fps over %.2f s; latency in StreamLens p50 %.1f ms, p99 %.1f ms",
                report.throughputFPS, report.durationSeconds, report.latencyMilliseconds.p50,
                report.latencyMilliseconds.p99)
                // Arrival jitter and lag only mean something when frames arrive in real time.
                + (report.run.live ? String(format: "; arrival jitter p95 %.2f ms", report.jitterMilliseconds.p95) : "")
                + (report.behindRealTimeMilliseconds.map { String(format: ", behind real time max %.2f s", $0.max / 1000) } ?? ""),
        ]
        let skipped = frames.analysisSkipped.filter { $0.value > 0 }
        if !skipped.isEmpty {
            lines.append("analysis skipped: " + skipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        let failures = report.analysis.filter { $0.value.failed > 0 }.sorted { $0.key < $1.key }
        for (name, stage) in failures {
            lines.append("analysis failed: \(name) on \(stage.failed) frames (\(stage.completed) analysed); last error: "
                + (stage.lastError ?? "none given"))
        }
        let lags = report.analysis.compactMap { name, stage in
            stage.drawnLagMilliseconds.map { String(format: "%@ p50 %.0f ms, p95 %.0f ms", name, $0.p50, $0.p95) }
        }.sorted()
        if let sync = report.run.syncAnalysis, !lags.isEmpty {
            lines.append("results drawn \(sync ? "with their own frames (sync)" : "newest first (no sync)"), lag "
                + lags.joined(separator: "; "))
        }
        if copies > 0 { lines.append("frames copied for compositing: \(copies)") }
        if let reconnects = report.reconnects, reconnects.attempts > 0 {
            lines.append(String(
                format: "input reconnected %d times (%d attempts), %.1f s without input", reconnects.count,
                reconnects.attempts, reconnects.totalMilliseconds / 1000))
        }
        if let repairs = frames.timestampRepairs, repairs > 0 {
            lines.append("timestamps went backwards \(repairs) times; later frames were shifted to keep the output in order")
        }
        return lines.joined(separator: "\n")
    }

    /// What became of the output: its padding for the encoder and where the file is.
    static func outputLines(_ outcome: PipelineRunner.Outcome) -> [String] {
        var lines: [String] = []
        if let fit = outcome.outputFit { lines.append("output: \(fit)") }
        if let change = outcome.inputSizeChange { lines.append("output: \(change)") }
        if let file = outcome.outputFile {
            switch file.state {
            case .complete where outcome.interrupted:
                // Playable, but a file input was cut short: say so where the user looks.
                lines.append("output written up to the interruption: \(file.path)")
            case .complete:
                lines.append("output written: \(file.path)")
            case .unfinalized:
                lines.append("output written without its index (stopped hard; Matroska plays as written): \(file.path)")
            case .partial:
                lines.append("output kept as \(file.path): the run did not finish, so it keeps its .partial name")
            case .removed where outcome.outputFrames > 0:
                if case .outputRemoved = outcome.error {
                    lines.append("output lost: its file was removed while the run wrote it")
                } else {
                    // Stopped hard before a slow encoder wrote anything: StreamLens removed its own empty .partial.
                    lines.append("output not written: the run stopped before the encoder wrote any of the "
                        + "\(outcome.outputFrames) frames handed to it")
                }
            case .removed:
                lines.append("output not written: no frame reached it")
            }
        }
        return lines
    }
}
