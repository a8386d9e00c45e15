import Foundation
import StreamLensCompositing
import StreamLensCore
import StreamLensDetection

/// A pipeline file (`pipelines/*.yaml`): source, pool, analysis, stages, sink and report of a run.
///
/// ```yaml
/// source:   { input: bikes.mp4 }            # file, URI, /dev/videoN or a GStreamer source description;
///                                           # live inputs: reconnect, reconnect_max, stall_timeout
/// pool:     { size: 3, backpressure: auto } # auto | block | drop
/// analysis: { interval: 0.3, sync: auto }   # seconds of stream time between analysed frames; 0 = every frame;
///                                           # sync: draw frames with their own analysis (auto: files on, live off)
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
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidConfiguration(file: path, key: "(file)", problem: "cannot read the pipeline file; check the path")
        }
        // `run` is the default subcommand, so `streamlens drive.mp4` lands here: a video is not a pipeline file.
        guard !data.contains(0), let text = String(data: data, encoding: .utf8) else {
            throw .invalidConfiguration(
                file: path, key: "(file)",
                problem: "not a pipeline file (not YAML text); to process a video give it with --input, e.g. "
                    + "streamlens run --input \(path) --output annotated.mp4")
        }
        return try parse(text, file: path, inputOverride: inputOverride)
    }

    /// Parses pipeline-file text.
    public static func parse(_ text: String, file: String, inputOverride: String? = nil) throws(RunError) -> RunConfiguration {
        let root = try ConfigSection.parse(text, file: file)
        try root.rejectUnknownKeys(topLevelKeys)

        let source = try root.section("source", keys: ["input", "reconnect", "reconnect_max", "stall_timeout"])
        let fileInput = try source?.path("input")
        guard let inputText = inputOverride ?? fileInput else {
            throw .invalidConfiguration(file: file, key: "source.input", problem: "no input; set it here or pass --input")
        }
        var configuration = RunConfiguration(input: InputSource(parsing: inputText))
        configuration.pipelineFile = file
        if inputOverride == nil, let source {
            configuration.inputSetIn = ConfigLocation(file: source.file, key: source.fullKey("input"))
        }
        if let source {
            configuration.reconnect = try source.bool("reconnect")
            if configuration.reconnect == true {
                configuration.reconnectSetIn = ConfigLocation(file: source.file, key: source.fullKey("reconnect"))
            }
            configuration.reconnectMaxAttempts = try source.int("reconnect_max", in: 0...1_000_000)
            configuration.stallTimeout = try source.duration("stall_timeout", in: 0.001...86_400)
        }

        if let pool = try root.section("pool", keys: ["size", "backpressure"]) {
            configuration.poolCapacity = try pool.int("size", in: 1...64) ?? configuration.poolCapacity
            if let policy = try pool.choice("backpressure", ["auto", "block", "drop"]) {
                configuration.backpressure = BackpressurePolicy(rawValue: policy)
            }
        }
        if let analysis = try root.section("analysis", keys: ["interval", "sync"]) {
            configuration.analysisInterval = try analysis.duration("interval", in: 0...3600)
            if let sync = try analysis.choice("sync", SyncAnalysisMode.allCases.map(\.rawValue)) {
                configuration.syncAnalysis = SyncAnalysisMode(rawValue: sync) ?? .auto
            }
        }
        if let stages = try root.section("stages", keys: StageOptions.keys) {
            try StageOptions.read(stages, into: &configuration)
        }
        if let sink = try root.section("sink", keys: ["output", "encoder_preset"]) {
            if let output = try sink.path("output") {
                do { configuration.output = try OutputTarget(parsing: output) } catch {
                    throw sink.problem("output", error.description)
                }
                configuration.outputSetIn = ConfigLocation(file: sink.file, key: sink.fullKey("output"))
            }
            configuration.encoderPreset = try sink.choice("encoder_preset", x264Presets) ?? configuration.encoderPreset
        }
        if let report = try root.section(
            "report", keys: ["json", "timeline", "html", "events", "subtitles", "progress", "metrics_port"])
        {
            configuration.reportPath = try report.path("json")
            configuration.timelinePath = try report.path("timeline")
            configuration.htmlPath = try report.path("html")
            configuration.eventsPath = try report.path("events")
            configuration.subtitlesPath = try report.path("subtitles")
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
///
/// ```yaml
/// stages:
///   frame_stamp: true
///   annotations: { boxes: true, labels: true, speed_limit_badge: top-right, hud: top-left, spotlight: 0.3 }
///   overlays:
///     - { clip: logo.webm, when: always, at: top-right, size: 128,128 }
///     - { clip: fx.webm, when: class:person, at: box:top, scale: 0.6 }
///   overlay_cache: 5
/// ```
enum StageOptions {
    static let keys = ["frame_stamp", "detector", "speed_limits", "annotations", "overlays", "overlay_cache"]
    static let detectorKeys = [
        "backend", "confidence", "iou", "input_size", "class_names", "classes", "exclude", "interval",
        "every_nth_frame", "budget", "max_concurrent", "max_age", "max_missed", "smoothing", "primary_subject",
        "analysis_width",
    ]
    static let speedLimitKeys = ["region", "confidence", "expiry", "interval", "text_line_model"]
    static let annotationKeys = ["boxes", "labels", "speed_limit_badge", "hud", "spotlight", "sources"]
    static let overlayKeys = [
        "clip", "when", "at", "size", "margin", "scale", "min_width", "max_width", "min_confidence", "fade_in",
        "fade_out", "max_instances", "max_age", "opacity",
    ]

    static func read(_ stages: ConfigSection, into configuration: inout RunConfiguration) throws(RunError) {
        configuration.frameStamp = try stages.bool("frame_stamp") ?? configuration.frameStamp
        configuration.overlayCacheCapacity = try stages.int("overlay_cache", in: 1...64) ?? configuration.overlayCacheCapacity
        // `detector: false` and `annotations: false|true` read like `speed_limits: false|true`; a bare
        // `detector: true` says nothing about which detector.
        if let enabled = try? stages.bool("detector") {
            guard !enabled else {
                throw stages.problem(
                    "detector",
                    "say which detector: { backend: hog | cascade:NAME|PATH | onnx:PATH }, or false for none")
            }
            configuration.detection = nil
        } else if let detector = try stages.section("detector", keys: detectorKeys) {
            configuration.detection = try detectionOptions(detector)
            configuration.detectionSetIn = ConfigLocation(file: detector.file, key: detector.path)
        }
        if stages.contains("speed_limits") {
            if let enabled = try? stages.bool("speed_limits") {
                configuration.speedLimits = enabled ? SpeedLimitOptions() : nil
            } else if let section = try stages.section("speed_limits", keys: speedLimitKeys) {
                var options = SpeedLimitOptions()
                options.region = try section.choice("region", SpeedLimitOptions.regions) ?? options.region
                options.minimumConfidence = try section.double("confidence", in: 0...1) ?? options.minimumConfidence
                options.expiry = try section.duration("expiry", in: 0.001...86_400) ?? options.expiry
                options.interval = try section.duration("interval", in: 0...3600)
                options.textLineModel = try section.path("text_line_model")
                configuration.speedLimits = options
                configuration.speedLimitsSetIn = ConfigLocation(file: section.file, key: section.path)
            }
        }
        if let enabled = try? stages.bool("annotations") {
            configuration.annotations = enabled
                ? AnnotationConfiguration()
                : AnnotationConfiguration(boxes: false, labels: false, speedLimitBadge: "off", hud: "off")
        } else if let annotations = try stages.section("annotations", keys: annotationKeys) {
            configuration.annotations = AnnotationConfiguration(
                boxes: try annotations.bool("boxes"), labels: try annotations.bool("labels"),
                speedLimitBadge: try annotations.choice("speed_limit_badge", corners),
                hud: try annotations.choice("hud", corners), spotlight: try annotations.double("spotlight", in: 0...1),
                sources: try annotations.strings("sources"))
        }
        for overlay in try stages.sections("overlays", keys: overlayKeys) ?? [] {
            guard let clip = try overlay.path("clip") else { throw overlay.problem("clip", "every overlay needs a clip file") }
            var rule = OverlayRuleConfiguration(
                // `at` and `size` may be written "x,y" or as a list [x, y].
                clip: clip, when: try overlay.string("when"), at: try overlay.strings("at")?.joined(separator: ","),
                size: try overlay.strings("size")?.joined(separator: ","))
            rule.margin = try overlay.int("margin", in: 0...10_000)
            rule.scale = try overlay.double("scale", in: 0.01...100)
            rule.minWidth = try overlay.int("min_width", in: 2...8192)
            rule.maxWidth = try overlay.int("max_width", in: 2...8192)
            rule.minConfidence = try overlay.double("min_confidence", in: 0...1)
            rule.fadeIn = try overlay.double("fade_in", in: 0...60)
            rule.fadeOut = try overlay.double("fade_out", in: 0...60)
            rule.maxInstances = try overlay.int("max_instances", in: 1...256)
            rule.maxAge = try overlay.double("max_age", in: 0...86_400)
            rule.opacity = try overlay.double("opacity", in: 0...1)
            do { configuration.overlays.append(try rule.makeRule()) } catch {
                throw .invalidConfiguration(file: overlay.file, key: overlay.path, problem: error.description)
            }
        }
    }

    static let corners = FrameCorner.allCases.map(\.rawValue) + ["off"]

    /// `stages.detector`: backend and options of object detection.
    static func detectionOptions(_ section: ConfigSection) throws(RunError) -> ObjectDetectionOptions {
        guard let backend = try section.string("backend") else {
            throw section.problem("backend", "say which detector: hog, cascade:NAME|PATH or onnx:PATH")
        }
        var options: ObjectDetectionOptions
        do { options = ObjectDetectionOptions(detector: try DetectorSpec(parsing: backend)) } catch {
            throw section.problem("backend", "\(error)")
        }
        options.confidenceThreshold = try section.double("confidence", in: 0...1) ?? options.confidenceThreshold
        options.nmsThreshold = try section.double("iou", in: 0...1) ?? options.nmsThreshold
        options.inputSize = try section.int("input_size", in: 32...4096) ?? options.inputSize
        options.classNamesPath = try section.path("class_names")
        options.allowedClasses = try section.strings("classes") ?? []
        options.deniedClasses = try section.strings("exclude") ?? []
        do { try ObjectDetectionSetup.checkClassFilter(options) } catch let error as DetectionError {
            if case .unknownClass(let name, _) = error {
                throw section.problem(options.allowedClasses.contains(name) ? "classes" : "exclude", "\(error)")
            }
        } catch {}
        options.interval = try section.duration("interval", in: 0...3600) ?? options.interval
        options.everyNthFrame = try section.int("every_nth_frame", in: 1...10_000)
        options.latencyBudget = try section.duration("budget", in: 0.001...60) ?? options.latencyBudget
        options.maxConcurrent = try section.int("max_concurrent", in: 1...1000) ?? options.maxConcurrent
        options.maxAge = try section.duration("max_age", in: 0.001...86_400) ?? options.maxAge
        options.maxMissedAnalyses = try section.int("max_missed", in: 0...1000) ?? options.maxMissedAnalyses
        options.smoothing = try section.double("smoothing", in: 0.001...1) ?? options.smoothing
        options.primarySubject = try section.bool("primary_subject") ?? options.primarySubject
        options.analysisWidth = try section.int("analysis_width", in: 64...8192)
        return options
    }
}
