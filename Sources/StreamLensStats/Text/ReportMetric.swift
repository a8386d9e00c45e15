import Foundation
import StreamLensCore

/// One number of a report, with how to print it and which way is better: the rows of summaries and comparisons.
struct ReportMetric {
    enum Unit {
        case count, milliseconds, seconds, framesPerSecond, megabytes

        func format(_ value: Double) -> String {
            switch self {
            case .count: String(Int(value.rounded()))
            case .milliseconds, .seconds, .framesPerSecond: String(format: "%.2f", value)
            case .megabytes: String(format: "%.1f", value)
            }
        }
    }

    enum Better { case lower, higher, neither }

    let label: String
    let unit: Unit
    let better: Better
    let value: (RunReport) -> Double?

    /// The metrics compared between runs, in display order; per-stage and per-cause rows cover both reports.
    static func comparable(_ a: RunReport, _ b: RunReport) -> [ReportMetric] {
        var metrics: [ReportMetric] = [
            ReportMetric(label: "duration (s)", unit: .seconds, better: .neither) { $0.durationSeconds },
            ReportMetric(label: "throughput (fps)", unit: .framesPerSecond, better: .higher) { $0.throughputFPS },
            ReportMetric(label: "frames decoded", unit: .count, better: .neither) { Double($0.frames.decoded) },
            ReportMetric(label: "frames output", unit: .count, better: .higher) { Double($0.frames.output) },
            ReportMetric(label: "frames dropped", unit: .count, better: .lower) { Double($0.frames.droppedTotal) },
        ]
        for cause in DropCause.allCases {
            metrics.append(
                ReportMetric(label: "  \(cause.rawValue)", unit: .count, better: .lower) {
                    Double($0.frames.dropped[cause.rawValue] ?? 0)
                })
        }
        metrics.append(ReportMetric(label: "gaps", unit: .count, better: .lower) { Double($0.frames.gaps) })
        metrics.append(
            ReportMetric(label: "timestamp repairs", unit: .count, better: .lower) {
                Double($0.frames.timestampRepairs ?? 0)
            })
        for stage in Set(a.frames.analysisSkipped.keys).union(b.frames.analysisSkipped.keys).sorted() {
            metrics.append(
                ReportMetric(label: "analysis skipped \(stage)", unit: .count, better: .lower) {
                    $0.frames.analysisSkipped[stage].map(Double.init)
                })
        }
        metrics += percentiles("latency", \.latencyMilliseconds)
        metrics += percentiles("jitter", { JitterSummaryAsPercentiles.percentiles($0.jitterMilliseconds) })
        metrics.append(
            ReportMetric(label: "jitter rfc3550 (ms)", unit: .milliseconds, better: .lower) {
                $0.jitterMilliseconds.rfc3550
            })
        metrics += percentiles("output pacing", \.outputPacingJitterMilliseconds)
        if a.behindRealTimeMilliseconds != nil || b.behindRealTimeMilliseconds != nil {
            metrics += percentiles("behind real time", \.behindRealTimeMilliseconds)
        }
        for stage in Set(a.stages.keys).union(b.stages.keys).sorted(by: stageOrder) {
            metrics += percentiles("stage \(stage)", { $0.stages[stage] })
        }
        metrics += [
            ReportMetric(label: "stalls", unit: .count, better: .lower) { Double($0.stalls.count) },
            ReportMetric(label: "stalled (ms)", unit: .milliseconds, better: .lower) { $0.stalls.totalMilliseconds },
            ReportMetric(label: "blocked episodes", unit: .count, better: .lower) { Double($0.blocked.count) },
            ReportMetric(label: "blocked (ms)", unit: .milliseconds, better: .lower) { $0.blocked.totalMilliseconds },
            ReportMetric(label: "cpu (s)", unit: .seconds, better: .lower) { $0.cpuSeconds },
            ReportMetric(label: "peak rss (MB)", unit: .megabytes, better: .lower) { $0.peakRSSMegabytes },
        ]
        // Rows for an input lost during either run (a live network source or camera).
        if a.reconnects?.inputWasLost == true || b.reconnects?.inputWasLost == true {
            metrics += [
                ReportMetric(label: "reconnects", unit: .count, better: .lower) { $0.reconnects.map { Double($0.count) } },
                ReportMetric(label: "without input (ms)", unit: .milliseconds, better: .lower) {
                    $0.reconnects?.totalMilliseconds
                },
            ]
        }
        return metrics
    }

    /// p50, p95, p99 and max rows of one percentile summary.
    private static func percentiles(_ name: String, _ summary: @escaping (RunReport) -> PercentileSummary?) -> [ReportMetric] {
        let picks: [(String, (PercentileSummary) -> Double)] = [("p50", \.p50), ("p95", \.p95), ("p99", \.p99), ("max", \.max)]
        return picks.map { label, pick in
            ReportMetric(label: "\(name) \(label) (ms)", unit: .milliseconds, better: .lower) { report in
                summary(report).map(pick)
            }
        }
    }

    /// The frame path's steps in path order, analysis stages after them by name.
    static func stageOrder(_ a: String, _ b: String) -> Bool {
        let pathOrder = ["pool_wait", "composite", "push", "analysis_lag"]
        switch (pathOrder.firstIndex(of: a), pathOrder.firstIndex(of: b)) {
        case (let x?, let y?): return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return a < b
        }
    }
}

/// Jitter carries the same four percentiles as other summaries plus its RFC 3550 estimate.
enum JitterSummaryAsPercentiles {
    static func percentiles(_ jitter: JitterSummary) -> PercentileSummary {
        PercentileSummary(p50: jitter.p50, p95: jitter.p95, p99: jitter.p99, max: jitter.max, count: jitter.count)
    }
}
