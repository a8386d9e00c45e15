import Foundation
import StreamLensCore

/// `streamlens stats A.json`: one report as a readable text summary.
public enum StatsSummary {
    /// The summary of `report`. With `colour`, headings are bold and losses (drops, stalls, failures) red.
    public static func render(_ report: RunReport, colour: Bool = false) -> String {
        func tint(_ text: String, _ tint: TextTable.Colour?) -> String {
            guard colour, let tint else { return text }
            return tint.rawValue + text + TextTable.Colour.reset
        }
        let run = report.run
        var lines: [String] = []
        lines.append(tint("StreamLens run: \(run.input)" + (run.output.map { " → \($0)" } ?? ""), .bold))
        var about = [
            run.live ? "live" : "file", "policy \(run.policy.rawValue)", "pool \(run.poolCapacity)",
            "streamlens \(run.streamlensVersion)", "GStreamer \(run.gstreamerVersion)",
        ]
        if run.interrupted { about.append(tint("interrupted", .red)) }
        lines.append(about.joined(separator: " · "))
        if let error = run.error { lines.append(tint("error: \(error)", .red)) }
        lines.append("")

        var totals = [
            "duration \(String(format: "%.2f", report.durationSeconds)) s",
            "throughput \(String(format: "%.2f", report.throughputFPS)) fps",
        ]
        if let cpu = report.cpuSeconds { totals.append("cpu \(String(format: "%.2f", cpu)) s") }
        if let rss = report.peakRSSMegabytes { totals.append("peak rss \(String(format: "%.1f", rss)) MB") }
        lines.append(totals.joined(separator: "   "))

        let frames = report.frames
        let causes = DropCause.allCases.compactMap { cause -> String? in
            let count = frames.dropped[cause.rawValue] ?? 0
            return count > 0 ? "\(cause.rawValue) \(count)" : nil
        }
        var dropped = "dropped \(frames.droppedTotal)"
        if !causes.isEmpty { dropped += " (\(causes.joined(separator: ", ")))" }
        var frameLine = "frames    decoded \(frames.decoded)   output \(frames.output)   "
            + tint(dropped, frames.droppedTotal > 0 ? .red : nil)
        if frames.gaps > 0 { frameLine += "   gaps \(frames.gaps) (\(frames.missingFrames) frames missing)" }
        if let repairs = frames.timestampRepairs, repairs > 0 { frameLine += "   timestamp repairs \(repairs)" }
        lines.append(frameLine)
        for (name, stage) in report.analysis.sorted(by: { $0.key < $1.key }) {
            var line = "analysis  \(name): \(stage.completed) done, \(stage.skipped) skipped, "
                + tint("\(stage.failed) failed", stage.failed > 0 ? .red : nil) + ", \(stage.detections) detections"
            if let lag = stage.drawnLagMilliseconds {
                line += ", drawn lag p50 \(format(lag.p50)) ms p95 \(format(lag.p95)) ms"
            }
            if let error = stage.lastError { line += " (last error: \(error))" }
            lines.append(line)
        }
        lines.append("")

        var table = TextTable(alignments: [.left, .right, .right, .right, .right, .right])
        table.add(["ms", "p50", "p95", "p99", "max", "count"].map { TextTable.Cell($0, colour: .bold) })
        func add(_ name: String, _ summary: PercentileSummary) {
            table.add(
                name, format(summary.p50), format(summary.p95), format(summary.p99), format(summary.max),
                String(summary.count))
        }
        add("latency", report.latencyMilliseconds)
        add("jitter", JitterSummaryAsPercentiles.percentiles(report.jitterMilliseconds))
        add("output pacing", report.outputPacingJitterMilliseconds)
        if let behind = report.behindRealTimeMilliseconds { add("behind real time", behind) }
        for name in report.stages.keys.sorted(by: ReportMetric.stageOrder) {
            add(name, report.stages[name]!)
        }
        lines.append(table.render(colour: colour))
        lines.append("jitter rfc3550 estimate \(format(report.jitterMilliseconds.rfc3550)) ms")
        lines.append("")
        var waits = tint(
            "stalls \(report.stalls.count) (\(format(report.stalls.totalMilliseconds)) ms)", report.stalls.count > 0 ? .red : nil)
            + "   blocked \(report.blocked.count) (\(format(report.blocked.totalMilliseconds)) ms)"
        if let reconnects = report.reconnects, reconnects.inputWasLost {
            waits += "   " + tint(
                "reconnects \(reconnects.count) (\(reconnects.attempts) attempts, "
                    + "\(format(reconnects.totalMilliseconds)) ms without input)", reconnects.count > 0 ? .red : nil)
        }
        lines.append(waits)
        return lines.joined(separator: "\n")
    }

    static func format(_ milliseconds: Double) -> String { String(format: "%.2f", milliseconds) }
}
