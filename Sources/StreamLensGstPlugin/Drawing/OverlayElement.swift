import StreamLensCompositing
import StreamLensCore
import StreamLensFramePath
import StreamLensGStreamer

/// `streamlensoverlay`: one looping alpha clip, as one overlay rule of the command line (`--overlay`,
/// `stages.overlays`): the properties fill an ``OverlayRuleConfiguration`` (trigger, anchor, size, opacity,
/// duration) that builds the rule, and the command line's ``OverlayStage`` draws it, with the clip decoded by
/// ``OverlayClipDecoder``. Triggers read the regions of interest on each buffer (a class from streamlensdetect or any
/// detector element, a speed limit from streamlenssigns).
///
/// A clip that cannot be loaded is one WARNING, and the element passes video through untouched, as the command line
/// disables that rule and goes on. Frames with nothing to draw go on untouched.
final class OverlayElement: DrawingElement, @unchecked Sendable {
    static let triggers = "always, class:NAME, speed_limit or speed_limit=VALUE"
    static let anchors = "frame, top-left, top-right, bottom-left, bottom-right or box:centre|top|bottom|top-left|top-right|bottom-left|bottom-right"

    private var rule: OverlayRule?
    private var stage: OverlayStage?
    private var stageMatrix: ColorMatrix?
    private var clipLoaded = false

    init(element: ElementHandle) {
        super.init(element: element, rules: [
            PropertyRule("trigger", allowed: Self.triggers) { value in
                do { _ = try OverlayRuleConfiguration(clip: "clip", when: value.stringValue).makeRule() } catch {
                    return "not a trigger"
                }
                return nil
            },
            PropertyRule("anchor", allowed: Self.anchors) { value in
                let text = value.stringValue ?? ""
                if text == "frame" || FrameCorner(rawValue: text) != nil { return nil }
                if text.hasPrefix("box:"), OverlayRule.BoxAnchor(rawValue: String(text.dropFirst(4))) != nil { return nil }
                return "not an anchor"
            },
        ])
    }

    override func begin() -> Start {
        guard let location = string("location"), !location.isEmpty else {
            element.postError(.settings, "\(element.name): property 'location' is not set: give the clip to loop, location=PATH")
            return .failed
        }
        do { rule = try makeRule(clip: location) } catch {
            element.postError(.settings, "\(element.name): \(error)")
            return .failed
        }
        return .process
    }

    override func end() {
        super.end()
        stage = nil
        stageMatrix = nil
    }

    override func configure(for format: VideoFormat) -> Bool {
        guard let rule else { return false }
        // Clip colours are converted with the video's matrix: a new matrix needs the clip decoded again.
        let matrix = ColorMatrix.assumed(forWidth: format.width, height: format.height)
        guard stage == nil || stageMatrix != matrix else { return true }
        let element = element
        let overlays = OverlayStage(
            rules: [rule], loader: OverlayClipDecoder(colorimetry: matrix.rawValue),
            warn: { element.postWarning(.notFound, "\(element.name): \($0)") })
        // Decodes the clip now (as the command line does before the video starts); a failure warns once.
        overlays.preroll()
        clipLoaded = overlays.report.disabledClips.isEmpty
        stage = overlays
        stageMatrix = matrix
        return true
    }

    override func needsDrawing(_ context: CompositeContext, regionCount: Int, buffer: BufferHandle) -> Bool {
        guard let stage, let rule, clipLoaded else { return false }
        return rule.trigger == .always || regionCount > 0 || stage.hasActiveOverlays
    }

    override func draw(on planes: YUVPlanes, context: CompositeContext) {
        stage?.composite(onto: planes, context: context)
    }

    /// The rule the properties describe, validated by ``OverlayRuleConfiguration`` as a pipeline file's rule is.
    private func makeRule(clip: String) throws(OverlayError) -> OverlayRule {
        let width = int("width"), height = int("height")
        let anchor = string("anchor") ?? "frame"
        var configuration = OverlayRuleConfiguration(
            clip: clip, when: string("trigger"), at: anchor == "frame" ? "\(int("x")),\(int("y"))" : anchor,
            size: width > 0 && height > 0 ? "\(width),\(height)" : nil)
        configuration.opacity = double("opacity")
        configuration.maxAge = double("duration")
        if anchor.hasPrefix("box:"), width > 0 {
            // A fixed width on a box: the clip is decoded once at that size, before the video starts.
            configuration.minWidth = width
            configuration.maxWidth = width
        }
        var rule = try configuration.makeRule()
        // The configuration takes both sizes or neither; one alone keeps the clip's aspect ratio.
        if (width > 0) != (height > 0) {
            let fixedWidth = width > 0 ? width : nil, fixedHeight = height > 0 ? height : nil
            switch rule.placement {
            case .fixed(let x, let y, _, _): rule.placement = .fixed(x: x, y: y, width: fixedWidth, height: fixedHeight)
            case .corner(let corner, let margin, _, _):
                rule.placement = .corner(corner, margin: margin, width: fixedWidth, height: fixedHeight)
            case .box: break
            }
        }
        return rule
    }
}
