import StreamLensCore
import StreamLensGStreamer

/// What streamlensannotate and streamlensoverlay share: each buffer's regions of interest (from any upstream element)
/// become the ``CompositeContext`` the command line's compositing stages draw from, and a frame is written only when
/// there is something to draw.
///
/// `prepare_output_buffer` decides, per buffer: nothing to draw → the buffer goes on untouched (never mapped, never
/// copied); something to draw → a buffer the element may write (``WritableFrames``: the buffer itself when no one
/// else holds it, otherwise a pooled copy). `transform_ip` then draws.
///
/// ## Thread Safety
/// See ``ElementLogic``: everything here runs on the streaming thread, between `begin` and `end`.
class DrawingElement: ElementLogic, @unchecked Sendable {
    private(set) var format: VideoFormat?
    private var regions = RegionCollector()
    private let frames = WritableFrames()
    private var frameIndex = 0
    /// The context of the buffer `prepareOutput` chose to draw on; nil when it draws nothing.
    private var pending: CompositeContext?

    /// Prepares drawing for frames of `format` (builds the stage with the matching colour matrix); false refuses it.
    func configure(for format: VideoFormat) -> Bool { true }
    /// Whether this buffer gets drawn on, given its context and how many regions it carries.
    func needsDrawing(_ context: CompositeContext, regionCount: Int, buffer: BufferHandle) -> Bool { false }
    /// Draws on a writable frame.
    func draw(on planes: YUVPlanes, context: CompositeContext) {}

    override func end() {
        format = nil
        pending = nil
        frameIndex = 0
    }

    override func negotiate(caps: UnsafeMutableRawPointer) -> Bool {
        guard let negotiated = VideoFormat(borrowingCaps: caps) else { return false }
        format = negotiated
        return configure(for: negotiated)
    }

    override func prepareOutput(_ input: BufferHandle) -> UnsafeMutableRawPointer? {
        guard let format else { return nil }
        let pts = input.pts ?? .zero
        let context = CompositeContext(pts: pts, frameIndex: frameIndex, latestDetections: regions.collect(from: input, pts: pts))
        frameIndex += 1
        guard needsDrawing(context, regionCount: regions.count, buffer: input) else {
            pending = nil
            return input.pointer
        }
        pending = context
        return frames.writable(input, format: format)
    }

    override func process(_ buffer: BufferHandle) -> FlowResult {
        guard let format else { return .notNegotiated }
        guard let context = pending else { return .ok }
        pending = nil
        _ = buffer.withPlanes(format: format, writable: true) { draw(on: $0, context: context) }
        return .ok
    }
}

/// Gathers the regions of interest on a buffer into what compositing stages read: the detections of each source,
/// as ``CompositeContext/latestDetections``. The per-source arrays keep their storage from frame to frame, so a
/// steady stream allocates nothing here.
struct RegionCollector {
    private var bySource: [String: Detections] = [:]
    /// Regions found on the last collected buffer.
    private(set) var count = 0

    /// The regions on `buffer`, grouped by source, all timed at the buffer's `pts`.
    mutating func collect(from buffer: BufferHandle, pts: Duration) -> [String: Detections] {
        var index = bySource.values.startIndex
        while index != bySource.values.endIndex {
            bySource.values[index].items.removeAll(keepingCapacity: true)
            bySource.values[index].pts = pts
            bySource.values.formIndex(after: &index)
        }
        var found = 0
        buffer.forEachRegionOfInterest { region in
            found += 1
            if bySource[region.source] == nil {
                bySource[region.source] = Detections(pts: pts, source: region.source, items: [])
            }
            bySource[region.source]!.items.append(region.detection)
        }
        count = found
        return bySource
    }
}
