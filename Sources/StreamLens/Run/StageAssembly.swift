import Foundation
import StreamLensCompositing
import StreamLensCore
import StreamLensDetection
import StreamLensFramePath
import StreamLensGStreamer
import StreamLensSigns
import StreamLensStats
import StreamLensText

/// Builds the stages a configuration asks for, in drawing order: the privacy blur, overlays, then annotations
/// (spotlight first, then boxes, labels, badge, HUD), then the frame stamp on top.
enum StageAssembly {
    /// - Parameters:
    ///   - format: the input's format when known (chooses the colour matrix of drawn colours).
    ///   - policy: the pool's policy (decides whether `--sync-analysis auto` is on).
    ///   - hud: the figures the HUD shows (read once per frame, so it must be cheap).
    ///   - early: what was built before the input opened (``EarlyStages``); the rest is built here.
    ///   - warn: one-line warnings (a disabled overlay rule).
    static func build(
        _ configuration: RunConfiguration, format: VideoFormat?, policy: BackpressurePolicy, hud: @escaping @Sendable () -> HUDSnapshot,
        outputs: AnalysisOutputs, early: EarlyStages? = nil,
        warn: @escaping @Sendable (String) -> Void
    ) throws(RunError) -> PipelineRunner.Stages {
        let matrix = format.map { ColorMatrix.assumed(forWidth: $0.width, height: $0.height) } ?? .bt709
        var analysis: [(stage: any AnalysisStage, schedule: any AnalysisSchedule)] = []
        var compositors: [any CompositingStage] = []
        var details: [String: () -> any Encodable] = [:]

        if var options = configuration.detection {
            if let interval = configuration.analysisInterval { options.interval = interval }
            options.frameWidth = format?.width
            options.frameHeight = format?.height
            OpenCVRuntime.configure(framesWaitForResults: configuration.syncAnalysis.isOn(policy: policy))
            let built: ObjectDetectionSetup.Built
            do {
                built = try ObjectDetectionSetup.make(
                    options, events: outputs.events, mot: outputs.mot, coco: outputs.coco, loading: .now)
            } catch {
                let setIn = configuration.detectionSetIn
                throw .invalidConfiguration(file: setIn?.file, key: setIn?.key ?? "detector", problem: "\(error)")
            }
            analysis.append((built.stage, built.schedule))
            details[built.stage.name] = { DetectionDetails(stage: built.stage.report, schedule: built.schedule.report) }
        }
        if let options = configuration.speedLimits {
            let reader: SpeedLimitReader
            if let started = early?.speedLimitReader {
                reader = started
            } else {
                reader = try speedLimitStage(options, configuration: configuration, outputs: outputs)
            }
            analysis.append((reader.stage, reader.schedule))
            details[reader.stage.name] = { SpeedLimitDetails(reader.stage) }
        }

        // What is hidden is hidden first, so that nothing drawn later is blurred and nothing of it shows through.
        if let options = configuration.privacy {
            OpenCVRuntime.configure(framesWaitForResults: configuration.syncAnalysis.isOn(policy: policy))
            let privacy = try PrivacySetup.make(options, setIn: configuration.privacySetIn)
            analysis.append((privacy.analysis, privacy.schedule))
            compositors.append(privacy.blur)
            details[privacy.analysis.name] = { PrivacyDetails(privacy.analysis.report, framesBlurred: privacy.blur.framesBlurred) }
        }
        if !configuration.overlays.isEmpty {
            let overlays = OverlayStage(
                rules: configuration.overlays, loader: OverlayClipDecoder(colorimetry: matrix.rawValue),
                cacheCapacity: configuration.overlayCacheCapacity, warn: warn)
            overlays.preroll()
            compositors.append(overlays)
            details[overlays.name] = { OverlayDetails(overlays.report) }
        }
        // By default, draw what analysis finds: boxes and labels, and the badge when signs are read. The privacy
        // stage's boxes are hidden, not drawn.
        let drawnStages = analysis.map(\.stage.name).filter { $0 != PrivacyStage.stageName }
        let annotations = configuration.annotations
            ?? (drawnStages.isEmpty
                ? nil
                : AnnotationConfiguration(
                    speedLimitBadge: configuration.speedLimits == nil ? "off" : FrameCorner.topRight.rawValue,
                    sources: configuration.privacy == nil ? nil : drawnStages))
        if let annotations {
            do {
                let badgeHold = configuration.speedLimits.map(\.expiry) ?? .seconds(30)
                let badgeStyle: SpeedLimitBadgeAnnotator.Style =
                    configuration.speedLimits?.region == "us" ? .unitedStatesPlate : .europeanRound
                if let stage = try annotations.makeStage(
                    matrix: matrix, hudSnapshot: hud, badgeHold: badgeHold, badgeStyle: badgeStyle,
                    speed: outputs.telemetry?.speedReadout(unit: badgeStyle == .unitedStatesPlate ? "mph" : "km/h"))
                {
                    compositors.append(stage)
                }
            } catch {
                throw .invalidConfiguration(file: nil, key: "annotations", problem: error.description)
            }
        }
        if configuration.frameStamp { compositors.append(FrameStampStage()) }
        return PipelineRunner.Stages(compositors: compositors, analysis: analysis, details: details)
    }
}

extension StageAssembly {
    /// The sign reader and the schedule that picks its frames.
    typealias SpeedLimitReader = (stage: SpeedLimitStage, schedule: any AnalysisSchedule)

    static func speedLimitStage(
        _ options: SpeedLimitOptions, configuration: RunConfiguration, outputs: AnalysisOutputs
    ) throws(RunError) -> SpeedLimitReader {
        let stage: SpeedLimitStage
        do {
            stage = try SpeedLimitSetup.make(
                region: options.region, minimumConfidence: options.minimumConfidence, expiry: options.expiry,
                events: outputs.events, subtitles: outputs.subtitles,
                textLineModel: TextLineModel(option: options.textLineModel),
                locate: outputs.telemetry?.locator)
        } catch .unknownRegion {
            throw .invalidConfiguration(file: nil, key: "speed_limits.region", problem: "use eu or us")
        } catch {
            let setIn = configuration.speedLimitsSetIn
            throw .invalidConfiguration(file: setIn?.file, key: setIn?.key ?? "speed_limits", problem: "\(error)")
        }
        let interval = options.interval ?? configuration.analysisInterval ?? SpeedLimitConfiguration.recommendedInterval
        return (stage, FixedIntervalSchedule(interval: interval))
    }
}

/// The stages of a frame-accurate file run that start before its input opens: the sign reader, whose engines
/// (Tesseract and the text-line model, about 0.25 s of CPU) then load on their own thread while GStreamer starts, the
/// input prerolls and the output is set up — work that keeps one core busy and leaves the other idle. Started with
/// the frames instead, they load while decoding, encoding and the first analyses already want both cores (the
/// start-up times are in docs/figures/performance.md). Other runs start nothing early: a live run's reader starts its
/// engines at the first candidate, and whether a URI or a pipeline description is live is known only once it
/// prerolls.
///
/// ## Thread Safety
/// Used by the run's control thread only: ``start()`` before the input opens, then ``StageAssembly/build``.
final class EarlyStages: @unchecked Sendable {
    private let configuration: RunConfiguration
    private let outputs: AnalysisOutputs
    /// The reader built by ``start()``, its engines loading; nil before, or when the run starts nothing early.
    private(set) var speedLimitReader: StageAssembly.SpeedLimitReader?

    init(configuration: RunConfiguration, outputs: AnalysisOutputs) {
        self.configuration = configuration
        self.outputs = outputs
    }

    /// Builds the sign reader of a frame-accurate file run and starts its engines loading.
    func start() throws(RunError) {
        guard speedLimitReader == nil, configuration.isFrameAccurateFileRun, let options = configuration.speedLimits
        else { return }
        let reader = try StageAssembly.speedLimitStage(options, configuration: configuration, outputs: outputs)
        reader.stage.startReadersBeforeInput()
        speedLimitReader = reader
    }
}
