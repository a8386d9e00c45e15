import StreamLensCompositing
import StreamLensCore
import StreamLensGStreamer
import StreamLensStats
import StreamLensText

/// Builds the stages a configuration asks for, in drawing order: overlays, then annotations (spotlight first, then
/// boxes, labels, badge, HUD), then the frame stamp on top.
enum StageAssembly {
    /// - Parameters:
    ///   - format: the input's format when known (chooses the colour matrix of drawn colours).
    ///   - recorder: feeds the HUD.
    ///   - warn: one-line warnings (a disabled overlay rule).
    static func build(
        _ configuration: RunConfiguration, format: VideoFormat?, recorder: RunRecorder,
        warn: @escaping @Sendable (String) -> Void
    ) throws(RunError) -> PipelineRunner.Stages {
        let matrix = format.map { ColorMatrix.assumed(forWidth: $0.width, height: $0.height) } ?? .bt709
        let analysis: [(stage: any AnalysisStage, schedule: any AnalysisSchedule)] = []
        var compositors: [any CompositingStage] = []

        if !configuration.overlays.isEmpty {
            let overlays = OverlayStage(
                rules: configuration.overlays, loader: OverlayClipDecoder(colorimetry: matrix.rawValue),
                cacheCapacity: configuration.overlayCacheCapacity, warn: warn)
            overlays.preroll()
            compositors.append(overlays)
        }
        let annotations = configuration.annotations ?? (analysis.isEmpty ? nil : AnnotationConfiguration())
        if let annotations {
            let hud: @Sendable () -> HUDSnapshot = {
                let snapshot = recorder.snapshot()
                return HUDSnapshot(framesPerSecond: snapshot.framesPerSecond, droppedFrames: snapshot.droppedTotal)
            }
            do {
                if let stage = try annotations.makeStage(matrix: matrix, hudSnapshot: hud) { compositors.append(stage) }
            } catch {
                throw .invalidConfiguration(file: nil, key: "annotations", problem: error.description)
            }
        }
        if configuration.frameStamp { compositors.append(FrameStampStage()) }
        return PipelineRunner.Stages(compositors: compositors, analysis: analysis)
    }
}
