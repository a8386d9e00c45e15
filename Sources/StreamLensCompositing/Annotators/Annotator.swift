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
}
