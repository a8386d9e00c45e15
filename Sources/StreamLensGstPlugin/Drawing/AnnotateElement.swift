import StreamLensCompositing
import StreamLensCore
import StreamLensGStreamer
import StreamLensSigns

/// `streamlensannotate`: the command line's annotations (`--annotate boxes,labels,badge,hud,spotlight`) as an
/// element. It draws the regions of interest on each buffer — whoever attached them — with the same
/// ``AnnotationStage`` the command line builds from an ``AnnotationConfiguration``. `badge-region` picks the sign the
/// badge copies, as `--speed-limits` does on the command line.
///
/// A buffer with nothing to draw (no regions, no badge on show, no HUD or spotlight) goes on untouched; with every
/// annotation off the element runs in passthrough.
final class AnnotateElement: DrawingElement, @unchecked Sendable {
    static let corners = "top-left, top-right, bottom-left, bottom-right or off"

    private var configuration = AnnotationConfiguration()
    private var badgeStyle = SpeedLimitBadgeAnnotator.Style.europeanRound
    private var stage: AnnotationStage?
    private var badge: SpeedLimitBadgeAnnotator?
    private var drawsEveryFrame = false
    private let figures = HUDFigures()
    private let clock = SystemClock()

    init(element: ElementHandle) {
        let corner: @Sendable (PropertyValue) -> String? = { value in
            let text = value.stringValue ?? ""
            return text == "off" || FrameCorner(rawValue: text) != nil ? nil : "not a frame corner"
        }
        super.init(element: element, rules: [
            PropertyRule("badge", allowed: Self.corners, check: corner),
            PropertyRule("hud", allowed: Self.corners, check: corner),
            PropertyRule("badge-region", allowed: SpeedLimitSetup.regions.joined(separator: " or ")) { value in
                SpeedLimitProfile.named(value.stringValue ?? "") == nil ? "no such region" : nil
            },
        ])
    }

    override func begin() -> Start {
        let spotlight = double("spotlight")
        configuration = AnnotationConfiguration(
            boxes: bool("boxes"), labels: bool("labels"), speedLimitBadge: string("badge"), hud: string("hud"),
            spotlight: spotlight < 1 ? spotlight : nil)
        badgeStyle = SpeedLimitProfile.named(string("badge-region") ?? "") == .unitedStates
            ? .unitedStatesPlate : .europeanRound
        drawsEveryFrame = configuration.spotlight != nil || configuration.hud.map { $0 != "off" } ?? false
        do {
            // Built once here to check the configuration; the stage that draws is built for the negotiated format.
            return try makeStage(matrix: .bt709) == nil ? .passthrough : .process
        } catch {
            element.postError(.settings, "\(element.name): \(error)")
            return .failed
        }
    }

    override func end() {
        super.end()
        stage = nil
        badge = nil
    }

    override func configure(for format: VideoFormat) -> Bool {
        stage = try? makeStage(matrix: ColorMatrix.assumed(forWidth: format.width, height: format.height))
        badge = stage?.annotators.lazy.compactMap { $0 as? SpeedLimitBadgeAnnotator }.first
        return true
    }

    override func needsDrawing(_ context: CompositeContext, regionCount: Int, buffer: BufferHandle) -> Bool {
        guard stage != nil else { return false }
        figures.frame(pts: buffer.pts, frameDuration: format?.frameDuration, at: clock.now())
        // Asking the badge also updates what it remembers (it shows the last limit for a while).
        let badgeOnShow = badge.map { $0.currentLimit(AnnotationContext(context)) != nil } ?? false
        return regionCount > 0 || badgeOnShow || drawsEveryFrame
    }

    override func draw(on planes: YUVPlanes, context: CompositeContext) {
        stage?.composite(onto: planes, context: context)
    }

    override func handle(_ event: SinkPadEvent) {
        if event == .flushStop || event == .streamStart { figures.restart() }
    }

    private func makeStage(matrix: ColorMatrix) throws(OverlayError) -> AnnotationStage? {
        let figures = figures
        return try configuration.makeStage(matrix: matrix, hudSnapshot: { figures.snapshot }, badgeStyle: badgeStyle)
    }
}
