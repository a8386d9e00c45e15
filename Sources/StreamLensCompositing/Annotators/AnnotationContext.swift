import StreamLensCore

/// What annotators see of a frame: its time and the detections to draw, optionally limited to some stages.
public struct AnnotationContext: Sendable {
    public var pts: Duration
    public var frameIndex: Int
    /// Newest detections per analysis stage (Core's ``CompositeContext/latestDetections``).
    public var latestDetections: [String: Detections]
    /// Stage names whose detections are drawn; nil means all.
    public var sources: Set<String>?

    public init(pts: Duration, frameIndex: Int, latestDetections: [String: Detections], sources: Set<String>? = nil) {
        self.pts = pts
        self.frameIndex = frameIndex
        self.latestDetections = latestDetections
        self.sources = sources
    }

    public init(_ context: CompositeContext, sources: Set<String>? = nil) {
        self.init(pts: context.pts, frameIndex: context.frameIndex, latestDetections: context.latestDetections, sources: sources)
    }

    /// Calls `body` for every detection of the selected stages, without building an array.
    @inline(__always)
    public func forEachDetection(_ body: (Detection) -> Void) {
        for (source, detections) in latestDetections where sources?.contains(source) ?? true {
            for detection in detections.items { body(detection) }
        }
    }

    /// Calls `body` for every result set of the selected stages (detections with their analysis time).
    @inline(__always)
    public func forEachResult(_ body: (Detections) -> Void) {
        for (source, detections) in latestDetections where sources?.contains(source) ?? true { body(detections) }
    }
}
