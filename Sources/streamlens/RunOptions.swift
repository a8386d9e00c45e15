import ArgumentParser
import Foundation
import StreamLens
import StreamLensCompositing
import StreamLensDetection

/// The options of `run`, shared with `batch` (which applies them to every file): flags override the pipeline file.
/// Numbers are parsed `.unconditional`ly: `--pool-size -1` is a value out of range, not a missing one.
struct RunOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "File, URI, /dev/videoN or GStreamer source description.")
    var input: String?

    @Option(name: .shortAndLong, help: "File (.mp4 .mov .mkv .webm), 'null', or GStreamer sink description.")
    var output: String?

    @Option(parsing: .unconditional, help: "Frame pool slots between decoder and output.")
    var poolSize: Int?

    @Option(help: "block (lossless), drop (live), or auto (files block, live sources drop).")
    var backpressure: String?

    @Option(parsing: .unconditional, help: "Seconds of stream time between analysed frames for every analysis stage (0 = every frame; default: 0.3 for detection, 0.08 for signs).")
    var analysisInterval: Double?

    @Option(help: "Draw each frame with its own analysis (boxes interpolated between analysed frames; frames wait for results): on, off (newest result, never wait), or auto (on for files and other blocking runs, off for live sources).")
    var syncAnalysis: String?

    @Option(help: "Detect objects: hog (people), cascade:NAME|PATH (fullbody, upperbody, frontalface, licence_plate…), onnx:PATH (YOLO v5/v8/v11).")
    var detector: String?

    @Option(parsing: .unconditional, help: "Detection confidence threshold (0…1, default 0.5; HOG and cascades score a bare detection 0.5, so lower values find no more).")
    var confidence: Double?

    @Option(help: "Keep only these detection classes (comma list of names or ids).")
    var classes: String?

    @Option(help: "ONNX: class-names file, one name per line (default: the 80 COCO names).")
    var classNames: String?

    @Option(parsing: .unconditional, help: "ONNX: the model's square input size in pixels (default 640; a model exported at another size needs its own).")
    var inputSize: Int?

    @Option(help: "Read speed-limit signs: eu (5, 10…130 km/h), us (5…85 mph), or off.")
    var speedLimits: String?

    @Option(help: ArgumentHelp(
        "The speed-limit reader's text-line model (with --speed-limits): a file, or off.",
        discussion: "Default: the one scripts/install-text-line-model.sh installed, if any."))
    var textLineModel: String?

    @Option(help: "x264 speed preset for file outputs.")
    var encoderPreset: String?

    @Flag(help: "Burn frame index and time into every frame.")
    var stamp = false

    @Option(help: ArgumentHelp(
        "What to draw: a comma list of boxes, labels, badge, hud, spotlight; or none.",
        discussion: "Default: boxes and labels (and the speed-limit badge) whenever an analysis stage runs."))
    var annotate: String?

    @Option(help: ArgumentHelp("Always-on overlay clip PATH@x,y[,w,h] (repeatable): WebM/MOV with alpha, PNG, SVG, GIF…"))
    var overlay: [String] = []

    @Option(help: "Write the run report as JSON.")
    var report: String?

    @Option(help: "Write the per-frame timeline as CSV.")
    var timeline: String?

    @Option(help: "Write an HTML report with plots.")
    var html: String?

    @Option(help: "Write detection and speed-limit events as JSON lines.")
    var events: String?

    @Option(help: "Write speed-limit events as WebVTT subtitles.")
    var subtitles: String?

    @Option(parsing: .unconditional, help: "Serve Prometheus metrics at http://127.0.0.1:PORT/metrics while running.")
    var metricsPort: Int?

    @Option(parsing: .unconditional, help: "Seconds the first Ctrl-C/SIGTERM may spend draining and finalizing before the run stops hard (a second signal stops at once).")
    var shutdownGrace: Double?

    @Flag(inversion: .prefixedNo, help: "Reopen a lost live input with backoff (0.5 s doubling to 10 s). Default: on for network sources and cameras.")
    var reconnect: Bool?

    @Option(parsing: .unconditional, help: "Give up on a lost live input after this many reconnection attempts in a row (default: keep trying).")
    var reconnectMax: Int?

    @Option(parsing: .unconditional, help: "End a live run whose input sends nothing for this many seconds (default: wait).")
    var stallTimeout: Double?

    @Option(parsing: .unconditional, help: "End a file run in which no frame moves for this many seconds: a stuck pipeline (0 = off, default 30).")
    var watchdog: Double?

    @Flag(help: "No progress line.")
    var quiet = false

    @Flag(help: ArgumentHelp("Record no statistics (no report): only to measure what recording costs.", visibility: .hidden))
    var noStatistics = false

    @Flag(help: ArgumentHelp(
        "An interrupted run keeps its video, events, subtitles, timeline and report as NAME.partial (batch children).",
        visibility: .hidden))
    var keepPartialOnInterrupt = false

    /// The pipeline file (or the built-in demo), then flags on top.
    func makeConfiguration(pipelineFile: String?) throws(RunError) -> RunConfiguration {
        // An empty name would be a file called "" (its partial file a hidden ".partial" in the current folder).
        let named: [(String, String?)] = [
            ("--input", input), ("--output", output), ("--report", report), ("--timeline", timeline), ("--html", html),
            ("--events", events), ("--subtitles", subtitles), ("--class-names", classNames),
            ("--text-line-model", textLineModel),
        ]
        for case (let flag, let value?) in named where value.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalidConfiguration(file: nil, key: flag, problem: "is empty; give a file name")
        }
        var configuration: RunConfiguration
        if let pipelineFile {
            configuration = try PipelineFile.load(pipelineFile, inputOverride: input)
        } else if let input {
            configuration = RunConfiguration(input: InputSource(parsing: input))
        } else {
            configuration = try DemoPipeline.configuration()
        }
        if let output { configuration.output = try OutputTarget(parsing: output) }
        if let poolSize {
            guard (1...64).contains(poolSize) else {
                throw .invalidConfiguration(file: nil, key: "--pool-size", problem: "\(poolSize) is out of range; allowed 1…64")
            }
            configuration.poolCapacity = poolSize
        }
        if let backpressure {
            guard ["auto", "block", "drop"].contains(backpressure) else {
                throw .invalidConfiguration(file: nil, key: "--backpressure", problem: "'\(backpressure)' is not allowed; use auto, block or drop")
            }
            configuration.backpressure = BackpressurePolicy(rawValue: backpressure)
        }
        if let analysisInterval {
            configuration.analysisInterval = try RunCommand.seconds(
                analysisInterval, key: "--analysis-interval", in: 0...3600)
        }
        if let syncAnalysis {
            guard let mode = SyncAnalysisMode(rawValue: syncAnalysis) else {
                throw .invalidConfiguration(file: nil, key: "--sync-analysis", problem: "'\(syncAnalysis)' is not allowed; use auto, on or off")
            }
            configuration.syncAnalysis = mode
        }
        if let encoderPreset {
            guard PipelineFile.x264Presets.contains(encoderPreset) else {
                throw .invalidConfiguration(file: nil, key: "--encoder-preset", problem: "use one of \(PipelineFile.x264Presets.joined(separator: ", "))")
            }
            configuration.encoderPreset = encoderPreset
        }
        if let detector {
            if detector == "off" {
                configuration.detection = nil
            } else {
                do {
                    let spec = try DetectorSpec(parsing: detector)
                    var options = configuration.detection ?? ObjectDetectionOptions(detector: spec)
                    options.detector = spec
                    configuration.detection = options
                    configuration.detectionSetIn = nil
                } catch {
                    throw .invalidConfiguration(file: nil, key: "--detector", problem: "\(error)")
                }
            }
        }
        if confidence != nil || classes != nil || classNames != nil || inputSize != nil {
            guard var options = configuration.detection else {
                throw .invalidConfiguration(
                    file: nil, key: "--confidence/--classes/--class-names/--input-size", problem: "needs --detector")
            }
            let isModel = if case .onnx = options.detector { true } else { false }
            if !isModel, let flag = classNames != nil ? "--class-names" : inputSize != nil ? "--input-size" : nil {
                throw .invalidConfiguration(
                    file: nil, key: flag,
                    problem: "applies to an ONNX model only (--detector onnx:PATH); \(options.detector) has its own classes and input")
            }
            if let inputSize {
                guard (32...4096).contains(inputSize) else {
                    throw .invalidConfiguration(file: nil, key: "--input-size", problem: "\(inputSize) is not within 32…4096")
                }
                options.inputSize = inputSize
            }
            if let confidence {
                guard (0...1).contains(confidence) else {
                    throw .invalidConfiguration(file: nil, key: "--confidence", problem: "\(confidence) is not within 0…1")
                }
                options.confidenceThreshold = confidence
            }
            if let classes {
                options.allowedClasses = classes.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                // Another problem of the detector's (its cascade, its class-names file) is reported where it is set.
                do { try ObjectDetectionSetup.checkClassFilter(options) } catch let error as DetectionError {
                    if case .unknownClass = error { throw .invalidConfiguration(file: nil, key: "--classes", problem: "\(error)") }
                } catch {}
            }
            if let classNames {
                options.classNamesPath = classNames
                configuration.detectionSetIn = nil
            }
            configuration.detection = options
        }
        if let speedLimits {
            guard speedLimits == "off" || SpeedLimitOptions.regions.contains(speedLimits) else {
                throw .invalidConfiguration(file: nil, key: "--speed-limits", problem: "'\(speedLimits)' is not allowed; use eu, us or off")
            }
            if speedLimits == "off" {
                configuration.speedLimits = nil
            } else {
                var options = configuration.speedLimits ?? SpeedLimitOptions()
                options.region = speedLimits
                configuration.speedLimits = options
            }
        }
        if let textLineModel {
            // Said, not ignored: a model named for a run that reads no signs is a mistake in the command.
            guard configuration.speedLimits != nil else {
                throw .invalidConfiguration(file: nil, key: "--text-line-model", problem: "needs --speed-limits eu or us")
            }
            configuration.speedLimits?.textLineModel = textLineModel
            configuration.speedLimitsSetIn = nil
        }
        if stamp { configuration.frameStamp = true }
        if let annotate { configuration.annotations = try RunCommand.annotations(from: annotate) }
        for specification in overlay {
            do { configuration.overlays.append(try OverlayRule.parseAlwaysOn(specification)) } catch {
                throw .invalidConfiguration(file: nil, key: "--overlay", problem: error.description)
            }
        }
        configuration.reportPath = report ?? configuration.reportPath
        configuration.timelinePath = timeline ?? configuration.timelinePath
        configuration.htmlPath = html ?? configuration.htmlPath
        configuration.eventsPath = events ?? configuration.eventsPath
        configuration.subtitlesPath = subtitles ?? configuration.subtitlesPath
        if let metricsPort {
            guard (1...65535).contains(metricsPort) else {
                throw .invalidConfiguration(file: nil, key: "--metrics-port", problem: "\(metricsPort) is not a port (1…65535)")
            }
            configuration.metricsPort = metricsPort
        }
        if quiet { configuration.showProgress = false }
        if keepPartialOnInterrupt { configuration.interruptedRunKeepsPartial = true }
        if let shutdownGrace {
            configuration.shutdownGrace = try RunCommand.seconds(shutdownGrace, key: "--shutdown-grace", in: 0...3600)
        }
        if let reconnect {
            configuration.reconnect = reconnect
            configuration.reconnectSetIn = nil
        }
        if let reconnectMax {
            guard reconnectMax >= 0 else {
                throw .invalidConfiguration(file: nil, key: "--reconnect-max", problem: "must be 0 or more attempts")
            }
            configuration.reconnectMaxAttempts = reconnectMax
        }
        if let stallTimeout {
            configuration.stallTimeout = try RunCommand.seconds(stallTimeout, key: "--stall-timeout", in: 0.001...86_400)
        }
        if let watchdog {
            configuration.watchdog =
                watchdog == 0 ? nil : try RunCommand.seconds(watchdog, key: "--watchdog", in: 0.001...86_400)
        }
        if noStatistics {
            guard configuration.reportPath == nil, configuration.htmlPath == nil, configuration.timelinePath == nil,
                configuration.metricsPort == nil
            else {
                throw .invalidConfiguration(file: nil, key: "--no-statistics", problem: "reports and metrics need statistics")
            }
            configuration.statistics = false
        }
        return configuration
    }
}

extension RunOptions {

    /// The options given, back as `streamlens run` arguments (without the per-file ones and `--output`), so that a
    /// batch can hand every file the same options it was given.
    var sharedArguments: [String] {
        var arguments: [String] = []
        func add(_ name: String, _ value: (some CustomStringConvertible)?) {
            if let value { arguments += [name, value.description] }
        }
        add("--pool-size", poolSize)
        add("--backpressure", backpressure)
        add("--analysis-interval", analysisInterval)
        add("--sync-analysis", syncAnalysis)
        add("--detector", detector)
        add("--confidence", confidence)
        add("--classes", classes)
        add("--class-names", classNames)
        add("--input-size", inputSize)
        add("--speed-limits", speedLimits)
        add("--text-line-model", textLineModel)
        add("--encoder-preset", encoderPreset)
        if stamp { arguments.append("--stamp") }
        add("--annotate", annotate)
        for specification in overlay { arguments += ["--overlay", specification] }
        add("--shutdown-grace", shutdownGrace)
        if let reconnect { arguments.append(reconnect ? "--reconnect" : "--no-reconnect") }
        add("--reconnect-max", reconnectMax)
        add("--stall-timeout", stallTimeout)
        add("--watchdog", watchdog)
        return arguments
    }

    /// The first per-file option given (`--input`, `--report`, `--events`, `--subtitles`), if any: a batch names
    /// those files itself.
    var firstPerFileOption: String? {
        let given: [(String, Bool)] = [
            ("--input", input != nil), ("--report", report != nil), ("--events", events != nil),
            ("--subtitles", subtitles != nil),
        ]
        return given.first { $0.1 }?.0
    }

    /// The first option given that only one run can use (`--timeline`, `--html`, `--metrics-port`): every file of a
    /// batch would write the same file or serve on the same port.
    var firstSingleRunOption: String? {
        let given: [(String, Bool)] = [
            ("--timeline", timeline != nil), ("--html", html != nil), ("--metrics-port", metricsPort != nil),
        ]
        return given.first { $0.1 }?.0
    }
}
