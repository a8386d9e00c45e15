import StreamLensCompositing
import StreamLensCore

/// Everything a run needs, from a pipeline file and flags (flags win).
public struct RunConfiguration: Sendable, Equatable {
    public var input: InputSource
    public var output: OutputTarget = .null
    /// Pool slots between decoder and output.
    public var poolCapacity = PoolConfiguration.defaultCapacity
    /// Nil: automatic (files block, live sources drop).
    public var backpressure: BackpressurePolicy?
    /// x264 speed preset for file outputs.
    public var encoderPreset = "ultrafast"
    /// Burn the frame index and time into every frame.
    public var frameStamp = false
    /// Boxes, labels, badge, HUD, spotlight; nil: boxes and labels (plus the badge when signs are read) whenever an
    /// analysis stage runs, nothing otherwise.
    public var annotations: AnnotationConfiguration?
    /// Overlay clips: always-on ones from `--overlay`, and rules from the pipeline file.
    public var overlays: [OverlayRule] = []
    /// Clips kept decoded at once.
    public var overlayCacheCapacity = 5
    /// Stream time between analysed frames; zero analyses every frame.
    public var analysisInterval: Duration = .milliseconds(300)
    /// Give up when no frame arrived within this time of starting.
    public var startupTimeout: Duration = .seconds(20)
    /// Report files.
    public var reportPath: String?
    public var timelinePath: String?
    public var htmlPath: String?
    /// Events (JSON lines) and subtitles (WebVTT).
    public var eventsPath: String?
    public var subtitlesPath: String?
    /// Serve Prometheus metrics on this port while running (loopback only).
    public var metricsPort: Int?
    /// Print a progress line on a terminal.
    public var showProgress = true

    public init(input: InputSource) {
        self.input = input
    }
}
