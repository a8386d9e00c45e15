import Prometheus
import StreamLensCore
import Synchronization

/// The recorder's figures in the Prometheus text exposition format (`--metrics-port`), built with a
/// swift-prometheus registry.
///
/// Totals that only grow are counters (`_total`): frames decoded, handed to the output, dropped by cause, source
/// gaps, analysis results, skips and failures by stage. `streamlens_frames_output_total` counts every frame handed
/// to the output; those the sink later dropped are also in `streamlens_frames_dropped_total{cause="late_at_sink"}`
/// (a counter cannot go down). Everything else is a gauge, in base units (seconds): recent output rate, real-time
/// factor, whether the source is stalled, stall and blocked episodes and time (a stall can be withdrawn when it
/// turns out to be backpressure), latency and jitter quantiles.
///
/// ## Thread Safety
/// ``exposition()`` may be called from any thread; a mutex orders the counter updates.
public final class MetricsExporter: Sendable {
    public let recorder: RunRecorder
    private let registry = PrometheusCollectorRegistry()
    /// The value each counter had at the last exposition: counters move by the difference.
    private let exported = Mutex<[String: Int]>([:])

    public init(recorder: RunRecorder) {
        self.recorder = recorder
    }

    /// Updates the registry from the recorder and returns the exposition text.
    public func exposition() -> String {
        let snapshot = recorder.snapshot()
        let figures = recorder.liveFigures()
        exported.withLock { exported in
            func count(_ name: String, labels: [(String, String)] = [], _ value: Int, help: String) {
                let key = name + labels.map { "|\($0.0)=\($0.1)" }.joined()
                let delta = value - (exported[key] ?? 0)
                let counter = registry.makeCounter(descriptor: Self.descriptor(name, help: help), labels: labels)
                if delta > 0 {
                    counter.increment(by: Int64(delta))
                    exported[key] = value
                }
            }
            count("streamlens_frames_decoded_total", snapshot.decoded, help: "Frames that came out of the decoder")
            let lateAtSink = snapshot.dropped[.lateAtSink] ?? 0
            count(
                "streamlens_frames_output_total", snapshot.output + lateAtSink,
                help: "Frames handed to the output (including those the sink later dropped)")
            for cause in DropCause.allCases {
                count(
                    "streamlens_frames_dropped_total", labels: [("cause", cause.rawValue)], snapshot.dropped[cause] ?? 0,
                    help: "Frames that never reached the output, or the sink dropped, by cause")
            }
            count("streamlens_source_gaps_total", snapshot.gaps, help: "Gaps in the source timestamps")
            count(
                "streamlens_decode_errors_total", figures.decodeErrors,
                help: "Damaged data the input's decoders and demuxers skipped")
            count(
                "streamlens_reconnects_total", figures.reconnects.count,
                help: "Outages of a live input that ended with frames again")
            count(
                "streamlens_reconnect_attempts_total", figures.reconnects.attempts,
                help: "Attempts to reopen a lost live input")
            for (stage, report) in figures.analysis {
                count(
                    "streamlens_analysis_completed_total", labels: [("stage", stage)], report.completed,
                    help: "Frames an analysis stage analysed")
                count(
                    "streamlens_analysis_skipped_total", labels: [("stage", stage)], report.skipped,
                    help: "Frames due for analysis that the busy stage skipped")
                count(
                    "streamlens_analysis_failed_total", labels: [("stage", stage)], report.failed,
                    help: "Analyses that threw")
            }
        }
        func gauge(_ name: String, labels: [(String, String)] = [], _ value: Double, help: String) {
            registry.makeGauge(descriptor: Self.descriptor(name, help: help), labels: labels).set(to: value)
        }
        gauge("streamlens_output_fps", snapshot.framesPerSecond, help: "Output frames per second, recent")
        gauge("streamlens_realtime_factor", snapshot.realTimeFactor ?? 0, help: "Media time per wall-clock time")
        gauge(
            "streamlens_behind_real_time_seconds", snapshot.behindRealTime?.reportSeconds ?? 0,
            help: "How far the latest frame arrived behind real time")
        gauge("streamlens_source_stalled", snapshot.isStalled ? 1 : 0, help: "1 while the source is silent")
        gauge("streamlens_stalls", Double(snapshot.stalls), help: "Source stall episodes")
        gauge("streamlens_stalled_seconds", figures.stalledMilliseconds / 1000, help: "Time the source was stalled")
        gauge("streamlens_blocked_episodes", Double(snapshot.blockedEpisodes), help: "Episodes of a blocked producer")
        gauge("streamlens_blocked_seconds", figures.blockedMilliseconds / 1000, help: "Time the producer waited for the pool")
        gauge(
            "streamlens_reconnect_seconds", figures.reconnects.totalMilliseconds / 1000,
            help: "Time live inputs were lost before they came back")
        let jitter = JitterSummaryAsPercentiles.percentiles(figures.jitterMilliseconds)
        for (quantile, pick) in [("0.5", \PercentileSummary.p50), ("0.95", \.p95), ("0.99", \.p99)] {
            gauge(
                "streamlens_latency_seconds", labels: [("quantile", quantile)], figures.latencyMilliseconds[keyPath: pick] / 1000,
                help: "End-to-end latency quantiles")
            gauge(
                "streamlens_jitter_seconds", labels: [("quantile", quantile)], jitter[keyPath: pick] / 1000,
                help: "Source inter-arrival jitter quantiles")
        }
        gauge(
            "streamlens_jitter_rfc3550_seconds", figures.jitterMilliseconds.rfc3550 / 1000,
            help: "RFC 3550 running jitter estimate")
        return registry.emitToString()
    }

    /// A metric named exactly `name` (the registry joins the parts; only the name part is used).
    private static func descriptor(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
