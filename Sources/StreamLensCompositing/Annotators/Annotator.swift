import StreamLensCore

/// One kind of drawing made from detections: boxes, labels, a badge, a HUD, a spotlight.
///
/// An annotator is a small value configured in `init` with one draw method. It reads only Core's ``Detection``
/// values (through ``AnnotationContext``) and draws in place on the frame's native planes. Steady-state drawing
/// allocates nothing: anything rendered (text, badges) is cached as ready-to-blend tiles.
///
/// ## Thread Safety
/// `draw` is called from the single processing thread, in frame order. Annotators that remember things between
/// frames keep them behind a lock, so they are `Sendable`.
public protocol Annotator: Sendable {
    func draw(on frame: YUVPlanes, context: AnnotationContext)
    /// Whether `draw` would change a frame with this context (see ``CompositingStage/willDraw(_:)``). Default: true.
    func willDraw(_ context: AnnotationContext) -> Bool
}

extension Annotator {
    public func willDraw(_ context: AnnotationContext) -> Bool { true }
}

extension AnnotationContext {
    /// Whether the selected stages have any detection to draw.
    public var hasDetections: Bool {
        latestDetections.contains { source, detections in
            (sources?.contains(source) ?? true) && !detections.items.isEmpty
        }
    }
}
