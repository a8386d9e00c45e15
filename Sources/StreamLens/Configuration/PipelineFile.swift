import Foundation
import StreamLensCompositing
import StreamLensCore
import StreamLensDetection
import StreamLensOptions

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

    /// Parses pipeline-file text. Keys, ranges and defaults are the option schema's (`OptionSchema`).
    public static func parse(_ text: String, file: String, inputOverride: String? = nil) throws(RunError) -> RunConfiguration {
        typealias O = OptionSchema
        let root = try ConfigSection.parse(text, file: file)
        try root.rejectUnknownKeys(root.schemaKeys)

        let source = try root.section("source")
        let fileInput = try source?.string(O.input)
        guard let inputText = inputOverride ?? fileInput else {
            throw .invalidConfiguration(file: file, key: "source.input", problem: "no input; set it here or pass --input")
        }
        var configuration = RunConfiguration(input: InputSource(parsing: inputText))
        configuration.pipelineFile = file
        if inputOverride == nil, let source {
            configuration.inputSetIn = ConfigLocation(file: source.file, key: source.fullKey("input"))
        }
        if let source {
            configuration.reconnect = try source.bool(O.reconnect)
            if configuration.reconnect == true {
                configuration.reconnectSetIn = ConfigLocation(file: source.file, key: source.fullKey("reconnect"))
            }
            configuration.reconnectMaxAttempts = try source.int(O.reconnectMax)
            configuration.stallTimeout = try source.duration(O.stallTimeout)
            try TelemetrySettings.read(source, into: &configuration)
        }

        if let pool = try root.section("pool") {
            configuration.poolCapacity = try pool.int(O.poolSize) ?? configuration.poolCapacity
            if let policy = try pool.string(O.backpressure) {
                configuration.backpressure = BackpressurePolicy(rawValue: policy)
            }
        }
        if let analysis = try root.section("analysis") {
            configuration.analysisInterval = try analysis.duration(O.analysisInterval)
            if let sync = try analysis.string(O.syncAnalysis) {
                configuration.syncAnalysis = SyncAnalysisMode(rawValue: sync) ?? .auto
            }
        }
        if let stages = try root.section("stages") {
            try StageOptions.read(stages, into: &configuration)
        }
        if let sink = try root.section("sink") {
            if let output = try sink.string(O.output) {
                do { configuration.output = try OutputTarget(parsing: output) } catch {
                    throw sink.problem("output", error.description)
                }
                configuration.outputSetIn = ConfigLocation(file: sink.file, key: sink.fullKey("output"))
            }
            configuration.encoderPreset = try sink.string(O.encoderPreset) ?? configuration.encoderPreset
        }
        if let report = try root.section("report") {
            configuration.reportPath = try report.string(O.report)
            configuration.timelinePath = try report.string(O.timeline)
            configuration.htmlPath = try report.string(O.html)
            configuration.eventsPath = try report.string(O.events)
            configuration.subtitlesPath = try report.string(O.subtitles)
            configuration.motPath = try report.string(O.motExport)
            configuration.cocoPath = try report.string(O.cocoExport)
            configuration.showProgress = try report.bool(O.progress) ?? configuration.showProgress
            configuration.metricsPort = try report.int(O.metricsPort)
        }
        return configuration
    }
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
    typealias O = OptionSchema

    static func read(_ stages: ConfigSection, into configuration: inout RunConfiguration) throws(RunError) {
        configuration.frameStamp = try stages.bool(O.frameStamp) ?? configuration.frameStamp
        configuration.overlayCacheCapacity = try stages.int(O.overlayCache) ?? configuration.overlayCacheCapacity
        // `detector: false` and `annotations: false|true` read like `speed_limits: false|true`; a bare
        // `detector: true` says nothing about which detector.
        if let enabled = try? stages.bool("detector") {
            guard !enabled else {
                throw stages.problem(
                    "detector",
                    "say which detector: { backend: hog | yolov8n | cascade:NAME|PATH | onnx:PATH }, or false for none")
            }
            configuration.detection = nil
        } else if let detector = try stages.section("detector") {
            configuration.detection = try detectionOptions(detector)
            configuration.detectionSetIn = ConfigLocation(file: detector.file, key: detector.path)
        }
        if stages.contains("speed_limits") {
            if let enabled = try? stages.bool("speed_limits") {
                configuration.speedLimits = enabled ? SpeedLimitOptions() : nil
            } else if let section = try stages.section("speed_limits") {
                var options = SpeedLimitOptions()
                options.region = try section.string(O.speedLimits) ?? options.region
                options.minimumConfidence = try section.double(O.signConfidence) ?? options.minimumConfidence
                options.expiry = try section.duration(O.signExpiry) ?? options.expiry
                options.interval = try section.duration(O.signInterval)
                options.textLineModel = try section.string(O.textLineModel)
                configuration.speedLimits = options
                configuration.speedLimitsSetIn = ConfigLocation(file: section.file, key: section.path)
            }
        }
        if let section = try stages.section("privacy") {
            configuration.privacy = try privacyOptions(section)
            configuration.privacySetIn = ConfigLocation(file: section.file, key: section.path)
        }
        if let enabled = try? stages.bool("annotations") {
            configuration.annotations = enabled
                ? AnnotationConfiguration()
                : AnnotationConfiguration(boxes: false, labels: false, speedLimitBadge: "off", hud: "off")
        } else if let annotations = try stages.section("annotations") {
            configuration.annotations = AnnotationConfiguration(
                boxes: try annotations.bool(O.boxes), labels: try annotations.bool(O.labels),
                speedLimitBadge: try annotations.string(O.badge), hud: try annotations.string(O.hud),
                spotlight: try annotations.double(O.spotlight), sources: try annotations.strings(O.annotationSources))
        }
        for overlay in try stages.sections("overlays") ?? [] {
            guard let clip = try overlay.string(O.overlayClip) else {
                throw overlay.problem("clip", "every overlay needs a clip file")
            }
            var rule = OverlayRuleConfiguration(
                // `at` and `size` may be written "x,y" or as a list [x, y].
                clip: clip, when: try overlay.string(O.overlayWhen),
                at: try overlay.strings(O.overlayAt)?.joined(separator: ","),
                size: try overlay.strings(O.overlaySize)?.joined(separator: ","))
            rule.margin = try overlay.int(O.overlayMargin)
            rule.scale = try overlay.double(O.overlayScale)
            rule.minWidth = try overlay.int(O.overlayMinWidth)
            rule.maxWidth = try overlay.int(O.overlayMaxWidth)
            rule.minConfidence = try overlay.double(O.overlayMinConfidence)
            rule.fadeIn = try overlay.double(O.overlayFadeIn)
            rule.fadeOut = try overlay.double(O.overlayFadeOut)
            rule.maxInstances = try overlay.int(O.overlayMaxInstances)
            rule.maxAge = try overlay.double(O.overlayMaxAge)
            rule.opacity = try overlay.double(O.overlayOpacity)
            do { configuration.overlays.append(try rule.makeRule()) } catch {
                throw .invalidConfiguration(file: overlay.file, key: overlay.path, problem: error.description)
            }
        }
    }

    /// `stages.privacy`: what to hide and how (`blur: off` turns it off; without `blur`, faces).
    static func privacyOptions(_ section: ConfigSection) throws(RunError) -> PrivacyOptions? {
        var options = PrivacyOptions()
        if let text = try section.string(O.blur) {
            if text == "off" { return nil }
            do { options.kinds = try PrivacyOptions.kinds(parsing: text) } catch {
                throw section.problem(O.blur.keyName!, error.description)
            }
        }
        if let style = try section.string(O.blurStyle) { options.style = PrivacyBlurStyle(rawValue: style) ?? .gaussian }
        options.margin = try section.double(O.blurMargin) ?? options.margin
        options.confidence = try section.double(O.blurConfidence) ?? options.confidence
        options.hold = try section.duration(O.blurHold) ?? options.hold
        return options
    }

    /// `stages.detector`: backend and options of object detection.
    static func detectionOptions(_ section: ConfigSection) throws(RunError) -> ObjectDetectionOptions {
        guard let backend = try section.string(O.detector) else {
            throw section.problem("backend", "say which detector: hog, yolov8n, cascade:NAME|PATH or onnx:PATH")
        }
        var options: ObjectDetectionOptions
        do {
            let spec = try DetectorSpec(parsing: backend)
            try spec.checkInstalled()
            options = ObjectDetectionOptions(detector: spec)
        } catch {
            throw section.problem("backend", "\(error)")
        }
        options.confidenceThreshold = try section.double(O.confidence) ?? options.confidenceThreshold
        options.nmsThreshold = try section.double(O.iou) ?? options.nmsThreshold
        options.inputSize = try section.int(O.inputSize) ?? options.inputSize
        do { try ObjectDetectionSetup.checkInputSize(options) } catch { throw section.problem("input_size", "\(error)") }
        options.classNamesPath = try section.string(O.classNames)
        options.allowedClasses = try section.strings(O.classes) ?? []
        options.deniedClasses = try section.strings(O.exclude) ?? []
        do { try ObjectDetectionSetup.checkClassFilter(options) } catch let error as DetectionError {
            if case .unknownClass(let name, _) = error {
                throw section.problem(options.allowedClasses.contains(name) ? "classes" : "exclude", "\(error)")
            }
        } catch {}
        options.interval = try section.duration(O.detectorInterval) ?? options.interval
        options.everyNthFrame = try section.int(O.everyNthFrame)
        options.latencyBudget = try section.duration(O.budget) ?? options.latencyBudget
        options.maxConcurrent = try section.int(O.maxConcurrent) ?? options.maxConcurrent
        options.maxAge = try section.duration(O.maxAge) ?? options.maxAge
        options.maxMissedAnalyses = try section.int(O.maxMissed) ?? options.maxMissedAnalyses
        options.trackingFloor = try section.double(O.trackingFloor) ?? options.trackingFloor
        options.reidentificationWindow = try section.duration(O.reidWindow) ?? options.reidentificationWindow
        options.confirmationHits = try section.int(O.confirmHits) ?? options.confirmationHits
        options.smoothing = try section.double(O.smoothing) ?? options.smoothing
        options.primarySubject = try section.bool(O.primarySubject) ?? options.primarySubject
        options.analysisWidth = try section.int(O.analysisWidth)
        return options
    }
}
