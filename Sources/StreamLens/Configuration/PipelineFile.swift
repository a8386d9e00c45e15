import Foundation
import StreamLensCore

/// A pipeline file (`pipelines/*.yaml`): source, pool, analysis, stages, sink and report of a run.
///
/// ```yaml
/// source:   { input: bikes.mp4 }            # file, URI, /dev/videoN or a GStreamer source description
/// pool:     { size: 3, backpressure: auto } # auto | block | drop
/// analysis: { interval: 0.3 }               # seconds of stream time between analysed frames; 0 = every frame
/// stages:   { frame_stamp: true }
/// sink:     { output: out.mp4, encoder_preset: ultrafast }
/// report:   { json: report.json, timeline: t.csv, html: r.html, events: e.jsonl, subtitles: s.vtt, progress: true,
///             metrics_port: 9464 }
/// ```
/// Relative paths in the file are relative to the current directory, like flags.
public enum PipelineFile {
    static let topLevelKeys = ["source", "pool", "analysis", "stages", "sink", "report"]

    /// Reads `path` into a configuration. The source may be left out when `--input` gives it.
    public static func load(_ path: String, inputOverride: String? = nil) throws(RunError) -> RunConfiguration {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .invalidConfiguration(file: path, key: "(file)", problem: "cannot read the pipeline file; check the path")
        }
        return try parse(text, file: path, inputOverride: inputOverride)
    }

    /// Parses pipeline-file text.
    public static func parse(_ text: String, file: String, inputOverride: String? = nil) throws(RunError) -> RunConfiguration {
        let root = try ConfigSection.parse(text, file: file)
        try root.rejectUnknownKeys(topLevelKeys)

        let source = try root.section("source")
        try source?.rejectUnknownKeys(["input"])
        let fileInput = try source?.string("input")
        guard let inputText = inputOverride ?? fileInput else {
            throw .invalidConfiguration(file: file, key: "source.input", problem: "no input; set it here or pass --input")
        }
        var configuration = RunConfiguration(input: InputSource(parsing: inputText))

        if let pool = try root.section("pool") {
            try pool.rejectUnknownKeys(["size", "backpressure"])
            configuration.poolCapacity = try pool.int("size", in: 1...64) ?? configuration.poolCapacity
            if let policy = try pool.choice("backpressure", ["auto", "block", "drop"]) {
                configuration.backpressure = BackpressurePolicy(rawValue: policy)
            }
        }
        if let analysis = try root.section("analysis") {
            try analysis.rejectUnknownKeys(["interval"])
            if let seconds = try analysis.double("interval", in: 0...3600) {
                configuration.analysisInterval = .milliseconds(Int64((seconds * 1000).rounded()))
            }
        }
        if let stages = try root.section("stages") {
            try StageOptions.read(stages, into: &configuration)
        }
        if let sink = try root.section("sink") {
            try sink.rejectUnknownKeys(["output", "encoder_preset"])
            if let output = try sink.string("output") {
                do { configuration.output = try OutputTarget(parsing: output) } catch {
                    throw sink.problem("output", error.description)
                }
            }
            configuration.encoderPreset = try sink.choice("encoder_preset", x264Presets) ?? configuration.encoderPreset
        }
        if let report = try root.section("report") {
            try report.rejectUnknownKeys(["json", "timeline", "html", "events", "subtitles", "progress", "metrics_port"])
            configuration.reportPath = try report.string("json")
            configuration.timelinePath = try report.string("timeline")
            configuration.htmlPath = try report.string("html")
            configuration.eventsPath = try report.string("events")
            configuration.subtitlesPath = try report.string("subtitles")
            configuration.showProgress = try report.bool("progress") ?? configuration.showProgress
            configuration.metricsPort = try report.int("metrics_port", in: 1...65535)
        }
        return configuration
    }

    /// x264's speed presets.
    public static let x264Presets = [
        "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo",
    ]
}

/// The `stages` section: which stages run and how.
enum StageOptions {
    static let keys = ["frame_stamp"]

    static func read(_ stages: ConfigSection, into configuration: inout RunConfiguration) throws(RunError) {
        try stages.rejectUnknownKeys(keys)
        configuration.frameStamp = try stages.bool("frame_stamp") ?? configuration.frameStamp
    }
}
