import Foundation
import StreamLensCore

/// The measurements of one run: what `--report PATH.json` writes and `streamlens stats` reads.
///
/// Encoded as JSON with snake_case keys; ``schemaVersion`` is 1. The schema is documented key by key in
/// `REPORT_SCHEMA.md` beside this file. Times are milliseconds unless a key says `_s` (seconds).
///
/// The frame counts always satisfy `decoded == output + sum(dropped)`.
public struct RunReport: Codable, Sendable, Equatable {
    /// The schema version this code writes and reads.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// What ran: filled by the runner.
    public var run: RunContext
    /// Wall-clock time from the start of the run to its end, in seconds.
    public var durationSeconds: Double
    public var frames: FrameCounts
    /// Frames output per second of wall-clock time.
    public var throughputFPS: Double
    /// Source inter-arrival jitter (|Δarrival − ΔPTS|).
    public var jitterMilliseconds: JitterSummary
    /// End-to-end time inside StreamLens (arrival from the decoder → handed to the output).
    public var latencyMilliseconds: PercentileSummary
    /// Live runs: how far each frame arrived behind real time (its arrival − PTS, less the smallest of the run): a
    /// source that could not keep up. Nil for files and in reports written before it was recorded.
    public var behindRealTimeMilliseconds: PercentileSummary?
    /// Output pacing jitter (|Δoutput − ΔPTS| of consecutive output frames).
    public var outputPacingJitterMilliseconds: PercentileSummary
    /// Time per step of the frame path, by name: `pool_wait`, `composite`, `push`, `analysis_lag` and
    /// `analysis:<stage>` (each analysis stage's latency).
    public var stages: [String: PercentileSummary]
    /// Per analysis stage: results, skips and failures.
    public var analysis: [String: AnalysisStageReport]
    /// Silent-source episodes.
    public var stalls: EpisodeSummary
    /// Periods the producer waited for a pool slot (downstream backpressure).
    public var blocked: EpisodeSummary
    /// Reopenings of a lost live input (network source, camera); nil in reports written before it was recorded.
    public var reconnects: ReconnectSummary?
    /// Peak resident memory of the process (VmHWM), in MiB; nil where unavailable.
    public var peakRSSMegabytes: Double?
    /// Resident pages of the program's and its libraries' code that the run handed back once started (pages only its
    /// start used, unmapped and left to the page cache), in MiB summed over its hand-backs (a page touched again
    /// between two counts in both); nil when none were or in reports written before.
    public var startupPagesReleasedMegabytes: Double? = nil
    /// User + system CPU time of the process, in seconds.
    public var cpuSeconds: Double?
    /// End-to-end latency distribution for plotting (1-2-5 bins in milliseconds).
    public var latencyHistogramMilliseconds: [HistogramBin]
    /// Downsampled timeline of arrivals, drops, stalls and blocked time.
    public var timeline: TimelineReport
    /// What each stage reports about itself, by stage name (detector breaker and schedule, overlay cache, OCR
    /// timings…); filled by the runner, absent when no stage reports.
    public var stageDetails: [String: ReportValue]?

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case run
        case durationSeconds = "duration_s"
        case frames
        case throughputFPS = "throughput_fps"
        case jitterMilliseconds = "jitter_ms"
        case latencyMilliseconds = "latency_ms"
        case behindRealTimeMilliseconds = "behind_real_time_ms"
        case outputPacingJitterMilliseconds = "output_pacing_jitter_ms"
        case stages
        case analysis
        case stalls
        case blocked
        case reconnects
        case peakRSSMegabytes = "peak_rss_mb"
        case startupPagesReleasedMegabytes = "startup_pages_released_mb"
        case cpuSeconds = "cpu_seconds"
        case latencyHistogramMilliseconds = "latency_histogram_ms"
        case timeline
        case stageDetails = "stage_details"
    }
}

extension RunReport {
    /// How far behind real time a live source may fall before the run warns about it.
    public static let behindRealTimeWarningMilliseconds = 1000.0

    /// ``behindRealTimeMilliseconds`` when the source fell far enough behind to be warned about
    /// (``behindRealTimeWarningMilliseconds``); nil otherwise.
    public var fellBehindRealTime: PercentileSummary? {
        behindRealTimeMilliseconds.flatMap { $0.max >= Self.behindRealTimeWarningMilliseconds ? $0 : nil }
    }
}

/// Where each decoded frame went.
public struct FrameCounts: Codable, Sendable, Equatable {
    /// Frames that came out of the decoder.
    public var decoded: Int
    /// Frames that left StreamLens and were not dropped by the sink afterwards.
    public var output: Int
    /// Frames that never reached the output (or the sink threw away), by ``DropCause`` raw value; every cause is
    /// present, with 0 when it did not happen.
    public var dropped: [String: Int]
    /// Frames due for analysis that a busy stage skipped, by stage (not drops: the video went on).
    public var analysisSkipped: [String: Int]
    /// Gap events in the source timestamps (frames the source never delivered; not drops).
    public var gaps: Int
    /// Estimated number of frames missing in those gaps (PTS jumps only).
    public var missingFrames: Int
    /// Buffers the source flagged as a discontinuity (after the first).
    public var discontinuities: Int
    /// Damaged data the input's decoders and demuxers skipped (their warnings, and an error that cut a file
    /// short); nil in reports written before it was counted.
    public var decodeErrors: Int?
    /// Times the output timestamps had to be shifted forward because the input's went backwards; nil when none.
    public var timestampRepairs: Int?

    /// The sum of ``dropped``.
    public var droppedTotal: Int { dropped.values.reduce(0, +) }

    enum CodingKeys: String, CodingKey {
        case decoded, output, dropped, gaps, discontinuities
        case analysisSkipped = "analysis_skipped"
        case decodeErrors = "decode_errors"
        case timestampRepairs = "timestamp_repairs"
        case missingFrames = "missing_frames"
    }
}

/// Percentiles of a duration, in milliseconds, and how many values they summarize.
public struct PercentileSummary: Codable, Sendable, Equatable {
    public var p50: Double
    public var p95: Double
    public var p99: Double
    public var max: Double
    public var count: Int

    public init(p50: Double, p95: Double, p99: Double, max: Double, count: Int) {
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.max = max
        self.count = count
    }
}

/// Source jitter: percentiles of |D| plus the RFC 3550 running estimate at the end of the run.
public struct JitterSummary: Codable, Sendable, Equatable {
    public var p50: Double
    public var p95: Double
    public var p99: Double
    public var max: Double
    public var rfc3550: Double
    public var count: Int
}

/// Episodes of one kind: how many, and their total length.
public struct EpisodeSummary: Codable, Sendable, Equatable {
    public var count: Int
    public var totalMilliseconds: Double

    enum CodingKeys: String, CodingKey {
        case count
        case totalMilliseconds = "total_ms"
    }
}

/// Reopenings of a lost live input: each outage that ended with frames again counts once.
public struct ReconnectSummary: Codable, Sendable, Equatable {
    /// Outages the input recovered from.
    public var count: Int
    /// Total time from losing the input to its first frame after, over those outages.
    public var totalMilliseconds: Double
    /// Attempts to reopen it (successful or not).
    public var attempts: Int

    /// Whether the input was lost at all during the run (every live report has the section, mostly all zeros).
    public var inputWasLost: Bool { count > 0 || attempts > 0 }

    public init(count: Int, totalMilliseconds: Double, attempts: Int) {
        self.count = count
        self.totalMilliseconds = totalMilliseconds
        self.attempts = attempts
    }

    enum CodingKeys: String, CodingKey {
        case count, attempts
        case totalMilliseconds = "total_ms"
    }
}

/// What one analysis stage did.
public struct AnalysisStageReport: Codable, Sendable, Equatable {
    public var completed: Int
    public var skipped: Int
    public var failed: Int
    /// Detections found in all completed analyses.
    public var detections: Int
    /// The description of the last error the stage threw.
    public var lastError: String?
    /// Stream time between each output frame and the stage's results drawn on it (zero for a frame drawn with its
    /// own analysis); nil when nothing of the stage was drawn.
    public var drawnLagMilliseconds: PercentileSummary?

    enum CodingKeys: String, CodingKey {
        case completed, skipped, failed, detections
        case lastError = "last_error"
        case drawnLagMilliseconds = "drawn_lag_ms"
    }
}

/// One bar of a histogram: values in [from, to) milliseconds.
public struct HistogramBin: Codable, Sendable, Equatable {
    public var from: Double
    public var to: Double
    public var count: Int
}

/// The downsampled timeline, as columns of equal length: bucket `i` covers
/// [i × bucket_ms, (i + 1) × bucket_ms) milliseconds after the start of the run.
public struct TimelineReport: Codable, Sendable, Equatable {
    public var bucketMilliseconds: Double
    /// Frames that arrived in each bucket.
    public var arrivals: [Int]
    /// Smallest and largest inter-arrival interval ending in each bucket; null where no interval ended.
    public var minIntervalMilliseconds: [Double?]
    public var maxIntervalMilliseconds: [Double?]
    /// Frames dropped in each bucket (all causes except the sink's, which carry no time).
    public var drops: [Int]
    /// Time of each bucket spent in a stall / blocked on the pool.
    public var stalledMilliseconds: [Double]
    public var blockedMilliseconds: [Double]

    enum CodingKeys: String, CodingKey {
        case arrivals, drops
        case bucketMilliseconds = "bucket_ms"
        case minIntervalMilliseconds = "min_interval_ms"
        case maxIntervalMilliseconds = "max_interval_ms"
        case stalledMilliseconds = "stalled_ms"
        case blockedMilliseconds = "blocked_ms"
    }
}
