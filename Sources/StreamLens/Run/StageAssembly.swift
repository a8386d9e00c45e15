import Foundation
import StreamLensCompositing
import StreamLensCore
import StreamLensDetection
import StreamLensGStreamer
import StreamLensSigns
import StreamLensStats
import StreamLensText

/// Builds the stages a configuration asks for, in drawing order: overlays, then annotations (spotlight first, then
/// boxes, labels, badge, HUD), then the frame stamp on top.
enum StageAssembly {
    /// - Parameters:
    ///   - format: the input's format when known (chooses the colour matrix of drawn colours).
    ///   - policy: the pool's policy (decides whether `--sync-analysis auto` is on).
    ///   - hud: the figures the HUD shows (read once per frame, so it must be cheap).
    ///   - warn: one-line warnings (a disabled overlay rule).
    static func build(
        _ configuration: RunConfiguration, format: VideoFormat?, policy: BackpressurePolicy, hud: @escaping @Sendable () -> HUDSnapshot,
        outputs: AnalysisOutputs,
        warn: @escaping @Sendable (String) -> Void
    ) throws(RunError) -> PipelineRunner.Stages {
        let matrix = format.map { ColorMatrix.assumed(forWidth: $0.width, height: $0.height) } ?? .bt709
        var analysis: [(stage: any AnalysisStage, schedule: any AnalysisSchedule)] = []
        var compositors: [any CompositingStage] = []
        var details: [String: () -> any Encodable] = [:]

        if var options = configuration.detection {
            if let interval = configuration.analysisInterval { options.interval = interval }
            // Without sync, one OpenCV thread: the detector gets one core, decoding and encoding keep the other, and
            // a slow detector cannot crowd out the video. With sync, frames wait for each analysed frame's result:
            // the detector is on the video's critical path and may use every core (measured faster on two cores:
            // BENCHMARKS.md, issue 13).
            if configuration.syncAnalysis.isOn(policy: policy) {
                OpenCVRuntime.threadCount = ProcessInfo.processInfo.activeProcessorCount
            } else {
                OpenCVRuntime.threadCount = 1
            }
            let built: ObjectDetectionSetup.Built
            do { built = try ObjectDetectionSetup.make(options, events: outputs.events, loading: .now) } catch {
                let setIn = configuration.detectionSetIn
                throw .invalidConfiguration(file: setIn?.file, key: setIn?.key ?? "detector", problem: "\(error)")
            }
            analysis.append((built.stage, built.schedule))
            details[built.stage.name] = { DetectionDetails(stage: built.stage.report, schedule: built.schedule.report) }
        }
        if let options = configuration.speedLimits {
            let reader = try speedLimitStage(options, configuration: configuration, outputs: outputs)
            analysis.append((reader.stage, reader.schedule))
            details[reader.stage.name] = { SpeedLimitDetails(reader.stage) }
        }

        if !configuration.overlays.isEmpty {
            let overlays = OverlayStage(
                rules: configuration.overlays, loader: OverlayClipDecoder(colorimetry: matrix.rawValue),
                cacheCapacity: configuration.overlayCacheCapacity, warn: warn)
            overlays.preroll()
            compositors.append(overlays)
            details[overlays.name] = { OverlayDetails(overlays.report) }
        }
        // By default, draw what analysis finds: boxes and labels, and the badge when signs are read.
        let annotations = configuration.annotations
            ?? (analysis.isEmpty
                ? nil
                : AnnotationConfiguration(
                    speedLimitBadge: configuration.speedLimits == nil ? "off" : FrameCorner.topRight.rawValue))
        if let annotations {
            do {
                let badgeHold = configuration.speedLimits.map(\.expiry) ?? .seconds(30)
                let badgeStyle: SpeedLimitBadgeAnnotator.Style =
                    configuration.speedLimits?.region == "us" ? .unitedStatesPlate : .europeanRound
                if let stage = try annotations.makeStage(
                    matrix: matrix, hudSnapshot: hud, badgeHold: badgeHold, badgeStyle: badgeStyle)
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
    static func speedLimitStage(
        _ options: SpeedLimitOptions, configuration: RunConfiguration, outputs: AnalysisOutputs
    ) throws(RunError) -> (stage: SpeedLimitStage, schedule: any AnalysisSchedule) {
        let stage: SpeedLimitStage
        do {
            stage = try SpeedLimitSetup.make(
                region: options.region, minimumConfidence: options.minimumConfidence, expiry: options.expiry,
                events: outputs.events, subtitles: outputs.subtitles,
                textLineModel: TextLineModel(option: options.textLineModel))
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
