/// A frame as handed to an analysis stage: a downscaled I420 copy made off the streaming thread, or (frame-accurate
/// runs, a stage that wants the source size) the decoded I420 frame itself.
///
/// The planes are valid only during ``AnalysisStage/analyze(_:)``; copy what must outlive the call. They are
/// read-only: they may be the frame that is drawn on and encoded next.
public struct AnalysisFrame: @unchecked Sendable {
    /// Presentation time of the source frame.
    public var pts: Duration
    /// Index of the source frame among decoded frames (0-based).
    public var frameIndex: Int
    /// The pixels to analyse (I420).
    public var planes: YUVPlanes
    /// Size of the source frame the copy was made from.
    public var sourceWidth: Int
    public var sourceHeight: Int

    public init(pts: Duration, frameIndex: Int, planes: YUVPlanes, sourceWidth: Int, sourceHeight: Int) {
        self.pts = pts
        self.frameIndex = frameIndex
        self.planes = planes
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
    }

    /// Multiply analysis-frame coordinates by these to get source-frame coordinates.
    public var scaleToSource: (x: Double, y: Double) {
        (Double(sourceWidth) / Double(planes.width), Double(sourceHeight) / Double(planes.height))
    }
}

/// Thrown by ``AnalysisStage/analyze(_:)`` for a frame the stage chose not to look at (a detector's open circuit
/// breaker): counted as skipped, not as a failure, and never as a completed analysis. `held` is what the stage
/// still shows meanwhile (tracks held until they age out), drawn as a result would be.
public struct AnalysisDeclined: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public let held: Detections
    public init(reason: String, held: Detections) {
        self.reason = reason
        self.held = held
    }
    public var description: String { reason }
}

/// A stage that looks at frames and reports ``Detections``. Runs on the analysis thread, never on a GStreamer
/// streaming thread, on its own cadence; a slow stage makes frames skip analysis, never makes video wait on a live
/// source.
///
/// ## Thread Safety
/// ``analyze(_:)`` is called from one analysis thread at a time; the stage may keep per-thread state (an OCR
/// engine, a network) without locks. It may be created on another thread.
public protocol AnalysisStage: AnyObject, Sendable {
    /// Short name used in reports and as ``Detections/source``.
    var name: String { get }
    /// Width of the downscaled copy this stage wants (height keeps the aspect ratio). Nil: the source width.
    var preferredAnalysisWidth: Int? { get }
    /// The width it wants for sources `sourceWidth` wide (by default ``preferredAnalysisWidth``, whatever the source).
    func analysisWidth(forSourceWidth sourceWidth: Int) -> Int?
    /// The colours of its downscaled copy (by default the source's own).
    var analysisColours: AnalysisColours { get }
    /// Looks at one frame. Throwing counts as an analysis failure (``AnalysisDeclined``: a skip); the video goes on.
    func analyze(_ frame: AnalysisFrame) throws -> Detections
    /// Called once after the last frame, on the analysis thread: flush events, close tracks.
    func finish(at pts: Duration)
    /// Called before the first frame of a frame-accurate run, which waits for every result: the stage should not
    /// trade results for time (skip frames because its calls are slow), so that what it finds depends on the
    /// stream, not on the machine's load.
    func resultsWillBeAwaited()
}

extension AnalysisStage {
    public var preferredAnalysisWidth: Int? { nil }
    public func analysisWidth(forSourceWidth sourceWidth: Int) -> Int? { preferredAnalysisWidth }
    public var analysisColours: AnalysisColours { .source }
    public func finish(at pts: Duration) {}
    public func resultsWillBeAwaited() {}
}

/// The YUV matrix of a stage's downscaled copy.
public enum AnalysisColours: Sendable {
    /// The source's own (its frames scaled, nothing else): what a stage that reads frames in place sees too.
    case source
    /// BT.601, the matrix OpenCV's YUV-to-BGR conversions assume: for stages that turn the copy into RGB (an ONNX
    /// network); a BT.709 source (HD video) is converted to it as it is scaled.
    case bt601
}

/// What a compositing stage knows about the frame it draws on.
public struct CompositeContext: Sendable {
    /// Presentation time of the frame.
    public var pts: Duration
    /// Index of the frame among decoded frames (0-based).
    public var frameIndex: Int
    /// The newest detections of every analysis stage, keyed by stage name (may be older than this frame).
    public var latestDetections: [String: Detections]

    public init(pts: Duration, frameIndex: Int, latestDetections: [String: Detections] = [:]) {
        self.pts = pts
        self.frameIndex = frameIndex
        self.latestDetections = latestDetections
    }

    /// All detections of all stages, flattened.
    public var allDetections: [Detection] { latestDetections.values.flatMap(\.items) }
}

/// A stage that draws on the pooled frame in frame order, in place, before output.
///
/// ## Thread Safety
/// Called from the single processing thread, in presentation order; never concurrently.
public protocol CompositingStage: AnyObject, Sendable {
    var name: String { get }
    /// Draws onto `frame` (the decoder's native I420/NV12 planes, writable).
    func composite(onto frame: YUVPlanes, context: CompositeContext)
    /// Whether `composite` would change a frame with this context. When no stage would, the frame passes untouched:
    /// it is neither made writable (a copy of every frame a decoder still holds, as MPEG-2's does) nor mapped.
    /// Default: true.
    func willDraw(_ context: CompositeContext) -> Bool
}

extension CompositingStage {
    public func willDraw(_ context: CompositeContext) -> Bool { true }
}
