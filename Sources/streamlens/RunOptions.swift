import ArgumentParser
import Foundation
import StreamLens
import StreamLensCompositing
import StreamLensDetection
import StreamLensOptions

/// The options of `run`, shared with `batch` (which applies them to every file): flags override the pipeline file.
/// Names, help and ranges are the option schema's (`OptionSchema`); `OptionSchemaTests` check that every option with
/// a flag is here and in ``given``. Numbers are parsed `.unconditional`ly: `--pool-size -1` is a value out of range,
/// not a missing one.
struct RunOptions: ParsableArguments {
    typealias O = OptionSchema

    @Option(name: [.customShort("i"), .customLong(O.input.flag!)], help: O.input.argumentHelp())
    var input: String?

    @Option(name: [.customShort("o"), .customLong(O.output.flag!)], help: O.output.argumentHelp())
    var output: String?

    @Option(name: .customLong(O.poolSize.flag!), parsing: .unconditional, help: O.poolSize.argumentHelp())
    var poolSize: Int?

    @Option(name: .customLong(O.backpressure.flag!), help: O.backpressure.argumentHelp())
    var backpressure: String?

    @Option(name: .customLong(O.analysisInterval.flag!), parsing: .unconditional, help: O.analysisInterval.argumentHelp())
    var analysisInterval: Double?

    @Option(name: .customLong(O.syncAnalysis.flag!), help: O.syncAnalysis.argumentHelp())
    var syncAnalysis: String?

    @Option(name: .customLong(O.detector.flag!), help: O.detector.argumentHelp())
    var detector: String?

    @Option(name: .customLong(O.confidence.flag!), parsing: .unconditional, help: O.confidence.argumentHelp())
    var confidence: Double?

    @Option(name: .customLong(O.classes.flag!), help: O.classes.argumentHelp())
    var classes: String?

    @Option(name: .customLong(O.classNames.flag!), help: O.classNames.argumentHelp())
    var classNames: String?

    @Option(name: .customLong(O.inputSize.flag!), parsing: .unconditional, help: O.inputSize.argumentHelp())
    var inputSize: Int?

    @Option(name: .customLong(O.speedLimits.flag!), help: O.speedLimits.argumentHelp())
    var speedLimits: String?

    @Option(name: .customLong(O.textLineModel.flag!), help: O.textLineModel.argumentHelp())
    var textLineModel: String?

    @Option(name: .customLong(O.blur.flag!), help: O.blur.argumentHelp())
    var blur: String?

    @Option(name: .customLong(O.blurStyle.flag!), help: O.blurStyle.argumentHelp())
    var blurStyle: String?

    @Option(name: .customLong(O.blurMargin.flag!), parsing: .unconditional, help: O.blurMargin.argumentHelp())
    var blurMargin: Double?

    @Option(name: .customLong(O.blurConfidence.flag!), parsing: .unconditional, help: O.blurConfidence.argumentHelp())
    var blurConfidence: Double?

    @Option(name: .customLong(O.blurHold.flag!), parsing: .unconditional, help: O.blurHold.argumentHelp())
    var blurHold: Double?

    @Option(name: .customLong(O.encoderPreset.flag!), help: O.encoderPreset.argumentHelp())
    var encoderPreset: String?

    @Flag(name: .customLong(O.frameStamp.flag!), help: O.frameStamp.argumentHelp())
    var stamp = false

    @Option(name: .customLong(O.annotate.flag!), help: O.annotate.argumentHelp())
    var annotate: String?

    @Option(name: .customLong(O.overlay.flag!), help: O.overlay.argumentHelp())
    var overlay: [String] = []

    @Option(name: .customLong(O.report.flag!), help: O.report.argumentHelp())
    var report: String?

    @Option(name: .customLong(O.timeline.flag!), help: O.timeline.argumentHelp())
    var timeline: String?

    @Option(name: .customLong(O.html.flag!), help: O.html.argumentHelp())
    var html: String?

    @Option(name: .customLong(O.events.flag!), help: O.events.argumentHelp())
    var events: String?

    @Option(name: .customLong(O.subtitles.flag!), help: O.subtitles.argumentHelp())
    var subtitles: String?

    @Option(name: .customLong(O.export.flag!), parsing: .upToNextOption, help: O.export.argumentHelp())
    var export: [String] = []

    @Option(name: .customLong(O.metricsPort.flag!), parsing: .unconditional, help: O.metricsPort.argumentHelp())
    var metricsPort: Int?

    @Option(name: .customLong(O.shutdownGrace.flag!), parsing: .unconditional, help: O.shutdownGrace.argumentHelp())
    var shutdownGrace: Double?

    @Flag(name: .customLong(O.reconnect.flag!), inversion: .prefixedNo, help: O.reconnect.argumentHelp())
    var reconnect: Bool?

    @Option(name: .customLong(O.reconnectMax.flag!), parsing: .unconditional, help: O.reconnectMax.argumentHelp())
    var reconnectMax: Int?

    @Option(name: .customLong(O.stallTimeout.flag!), parsing: .unconditional, help: O.stallTimeout.argumentHelp())
    var stallTimeout: Double?

    @Option(name: .customLong(O.watchdog.flag!), parsing: .unconditional, help: O.watchdog.argumentHelp())
    var watchdog: Double?

    @Flag(name: .customLong(O.quiet.flag!), help: O.quiet.argumentHelp())
    var quiet = false

    @Flag(name: .customLong(O.noStatistics.flag!), help: O.noStatistics.argumentHelp(visibility: .hidden))
    var noStatistics = false

    @Flag(name: .customLong(O.keepPartialOnInterrupt.flag!), help: O.keepPartialOnInterrupt.argumentHelp(visibility: .hidden))
    var keepPartialOnInterrupt = false

    @OptionGroup var telemetry: TelemetryRunOptions

    /// Every option given, as `run` arguments (`--pool-size 3`, `--stamp`, `--no-reconnect`), in the schema's terms:
    /// what batch passes on to every file and what it refuses comes from each option's ``OptionSpec/batch``.
    var given: [(option: OptionSpec, arguments: [String])] {
        func value(_ option: OptionSpec, _ value: (some CustomStringConvertible)?) -> (OptionSpec, [String])? {
            value.map { (option, [option.cliName!, $0.description]) }
        }
        func flag(_ option: OptionSpec, _ isSet: Bool) -> (OptionSpec, [String])? {
            isSet ? (option, [option.cliName!]) : nil
        }
        let all: [(OptionSpec, [String])?] = [
            value(O.input, input), value(O.output, output), value(O.poolSize, poolSize),
            value(O.backpressure, backpressure), value(O.analysisInterval, analysisInterval),
            value(O.syncAnalysis, syncAnalysis), value(O.detector, detector), value(O.confidence, confidence),
            value(O.classes, classes), value(O.classNames, classNames), value(O.inputSize, inputSize),
            value(O.speedLimits, speedLimits), value(O.textLineModel, textLineModel),
            value(O.blur, blur), value(O.blurStyle, blurStyle), value(O.blurMargin, blurMargin),
            value(O.blurConfidence, blurConfidence), value(O.blurHold, blurHold),
            value(O.encoderPreset, encoderPreset), flag(O.frameStamp, stamp), value(O.annotate, annotate),
            overlay.isEmpty ? nil : (O.overlay, overlay.flatMap { [O.overlay.cliName!, $0] }),
            value(O.report, report), value(O.timeline, timeline), value(O.html, html), value(O.events, events),
            value(O.subtitles, subtitles), export.isEmpty ? nil : (O.export, [O.export.cliName!] + export),
            value(O.metricsPort, metricsPort), value(O.shutdownGrace, shutdownGrace),
            reconnect.map { (O.reconnect, [$0 ? "--reconnect" : "--no-reconnect"]) },
            value(O.reconnectMax, reconnectMax), value(O.stallTimeout, stallTimeout), value(O.watchdog, watchdog),
            flag(O.quiet, quiet), flag(O.noStatistics, noStatistics),
            flag(O.keepPartialOnInterrupt, keepPartialOnInterrupt),
        ]
        return all.compactMap { $0 } + telemetry.given
    }

    /// The pipeline file (or the built-in demo), then flags on top.
    func makeConfiguration(pipelineFile: String?) throws(RunError) -> RunConfiguration {
        // Every value given is checked against the schema first: its range, its choices, and that a file name is not
        // empty (an empty name would be a file called "", its partial file a hidden ".partial").
        try check(given)
        var configuration: RunConfiguration
        if let pipelineFile {
            configuration = try PipelineFile.load(pipelineFile, inputOverride: input)
        } else if let input {
            configuration = RunConfiguration(input: InputSource(parsing: input))
        } else {
            configuration = try DemoPipeline.configuration()
        }
        if let output { configuration.output = try OutputTarget(parsing: output) }
        if let poolSize { configuration.poolCapacity = poolSize }
        if let backpressure { configuration.backpressure = BackpressurePolicy(rawValue: backpressure) }
        if let analysisInterval { configuration.analysisInterval = Self.duration(analysisInterval) }
        if let syncAnalysis { configuration.syncAnalysis = SyncAnalysisMode(rawValue: syncAnalysis) ?? .auto }
        if let encoderPreset { configuration.encoderPreset = encoderPreset }
        if let detector {
            if detector == "off" {
                configuration.detection = nil
            } else {
                do {
                    let spec = try DetectorSpec(parsing: detector)
                    try spec.checkInstalled()
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
            let isNetwork = if case .yolov8n = options.detector { true } else { isModel }
            if let flag = !isModel && classNames != nil ? "--class-names" : !isNetwork && inputSize != nil ? "--input-size" : nil {
                throw .invalidConfiguration(
                    file: nil, key: flag,
                    problem: "applies to an ONNX model only (--detector onnx:PATH or yolov8n); \(options.detector) has its own "
                        + "classes and input")
            }
            if let inputSize {
                options.inputSize = inputSize
                do { try ObjectDetectionSetup.checkInputSize(options) } catch {
                    throw .invalidConfiguration(file: nil, key: "--input-size", problem: "\(error)")
                }
            }
            if let confidence { options.confidenceThreshold = confidence }
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
        try applyPrivacy(to: &configuration)
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
        if !export.isEmpty {
            // `--export KIND FILE` or `KIND=FILE`, repeatable: the tracks go with the detector, the maps with GPS.
            var maps: [TelemetrySettings.Export] = []
            for request in try TelemetrySettings.exports(parsing: export) {
                let tracks: OptionSpec
                switch request.kind {
                case "mot": tracks = O.motExport
                case "coco": tracks = O.cocoExport
                default:
                    maps.append(request)
                    continue
                }
                if let problem = tracks.problem(with: request.path) {
                    throw .invalidConfiguration(file: nil, key: "--export \(request.kind)", problem: problem)
                }
                if request.kind == "mot" { configuration.motPath = request.path } else { configuration.cocoPath = request.path }
            }
            if !maps.isEmpty { configuration.telemetry.exports = maps }
        }
        if let kind = configuration.motPath != nil ? "mot" : configuration.cocoPath != nil ? "coco" : nil,
            configuration.detection == nil
        {
            throw .invalidConfiguration(file: nil, key: "--export \(kind)", problem: "needs --detector (tracks come from the object detector)")
        }
        if let metricsPort { configuration.metricsPort = metricsPort }
        if quiet { configuration.showProgress = false }
        if keepPartialOnInterrupt { configuration.interruptedRunKeepsPartial = true }
        if let shutdownGrace { configuration.shutdownGrace = Self.duration(shutdownGrace) }
        if let reconnect {
            configuration.reconnect = reconnect
            configuration.reconnectSetIn = nil
        }
        if let reconnectMax { configuration.reconnectMaxAttempts = reconnectMax }
        if let stallTimeout { configuration.stallTimeout = Self.duration(stallTimeout) }
        if let watchdog { configuration.watchdog = watchdog == 0 ? nil : Self.duration(watchdog) }
        try telemetry.apply(to: &configuration)
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

    /// Each value given against its option's kind and range, in the schema's words; `off` is a value of
    /// `--detector` and `--speed-limits` beyond their kinds (the command line's way to turn a stage off).
    private func check(_ given: [(option: OptionSpec, arguments: [String])]) throws(RunError) {
        for (option, arguments) in given where arguments.count == 2 || option == O.overlay {
            for value in stride(from: 1, to: arguments.count, by: 2).map({ arguments[$0] }) {
                if value == "off", option == O.detector || option == O.speedLimits { continue }
                let problem: String? = switch option.kind {
                case .int: Int(value).flatMap { option.problem(with: $0) }
                case .number: Double(value).flatMap { option.problem(with: $0) }
                default: option.problem(with: value)
                }
                if let problem { throw .invalidConfiguration(file: nil, key: option.cliName!, problem: problem) }
            }
        }
    }

    /// Seconds, checked by the schema, as a duration (millisecond precision, as the pipeline file reads them).
    static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }
}

extension RunOptions {
    /// The options given that batch passes on to every file's run (`OptionSpec.BatchUse.shared`).
    var sharedArguments: [String] { given.filter { $0.option.batch == .shared }.flatMap(\.arguments) }

    /// The first per-file option given (`--input`, `--report`, `--events`, `--subtitles`), if any: a batch names
    /// those files itself.
    var firstPerFileOption: String? { given.first { $0.option.batch == .perFile }?.option.cliName }

    /// The first option given that only one run can use (`--timeline`, `--html`, `--metrics-port`): every file of a
    /// batch would write the same file or serve on the same port.
    var firstSingleRunOption: String? { given.first { $0.option.batch == .singleRun }?.option.cliName }
}

extension OptionSpec {
    /// The command line's help: the schema's text, the default (or what happens without the option) and the values.
    func argumentHelp(visibility: ArgumentVisibility = .default) -> ArgumentHelp {
        var text = help
        if let defaultValue, kind != .flag {
            text += " (default: \(defaultValue))"
        } else if let unset {
            text += " (default: \(unset))"
        }
        let valueName: String? = switch kind {
        case .choice(let words): words.joined(separator: "|")
        case .int: "N"
        case .number: unit == "s" ? "SECONDS" : "X"
        case .path: "FILE"
        case .text, .flag, .bool, .section: nil
        }
        return ArgumentHelp(text, valueName: valueName, visibility: visibility)
    }
}

extension RunOptions {
    /// `--blur` and its settings on top of the pipeline file's `stages.privacy`.
    func applyPrivacy(to configuration: inout RunConfiguration) throws(RunError) {
        if let blur {
            if blur == "off" {
                configuration.privacy = nil
            } else {
                var options = configuration.privacy ?? PrivacyOptions()
                do { options.kinds = try PrivacyOptions.kinds(parsing: blur) } catch {
                    throw .invalidConfiguration(file: nil, key: O.blur.cliName!, problem: error.description)
                }
                configuration.privacy = options
                configuration.privacySetIn = nil
            }
        }
        guard blurStyle != nil || blurMargin != nil || blurConfidence != nil || blurHold != nil else { return }
        guard var options = configuration.privacy else {
            throw .invalidConfiguration(
                file: nil, key: "--blur-style/--blur-margin/--blur-confidence/--blur-hold", problem: "needs --blur faces, plates or faces,plates")
        }
        if let blurStyle { options.style = PrivacyBlurStyle(rawValue: blurStyle) ?? options.style }
        if let blurMargin { options.margin = blurMargin }
        if let blurConfidence { options.confidence = blurConfidence }
        if let blurHold { options.hold = Self.duration(blurHold) }
        configuration.privacy = options
    }
}
