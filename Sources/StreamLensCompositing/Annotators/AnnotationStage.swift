import StreamLensCore

/// Runs a list of annotators over the newest detections of every (or some) analysis stages, in order.
///
/// Order matters: put ``SpotlightAnnotator`` first (it dims the frame), then boxes, labels, badge, HUD.
///
/// ## Thread Safety
/// Called from the single processing thread; the annotators are `Sendable` values.
public final class AnnotationStage: CompositingStage {
    public let name: String
    public let annotators: [any Annotator]
    /// Analysis stages whose detections are drawn; nil means all.
    public let sources: Set<String>?

    public init(name: String = "annotations", annotators: [any Annotator], sources: Set<String>? = nil) {
        self.name = name
        self.annotators = annotators
        self.sources = sources
    }

    public func composite(onto frame: YUVPlanes, context: CompositeContext) {
        let annotationContext = AnnotationContext(context, sources: sources)
        for annotator in annotators { annotator.draw(on: frame, context: annotationContext) }
    }

    public func willDraw(_ context: CompositeContext) -> Bool {
        let annotationContext = AnnotationContext(context, sources: sources)
        return annotators.contains { $0.willDraw(annotationContext) }
    }
}
