import StreamLensCompositing
import StreamLensCore
import StreamLensDetection

/// Everything a run needs, from a pipeline file and flags (flags win).
public struct RunConfiguration: Sendable, Equatable {
    public var input: InputSource
    /// How reports name the input; nil: the input as given.
    public var inputName: String?
    public var output: OutputTarget = .null
    /// Where a pipeline file set the output (`sink.output`); nil when it did not (a batch takes its container).
    public var outputSetIn: ConfigLocation?
    /// The pipeline file the run was loaded from, if any: no output may write over it.
    public var pipelineFile: String?
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
    /// Detect objects (`--detector hog|cascade:NAME|onnx:PATH`); nil: off.
    public var detection: ObjectDetectionOptions?
    /// Read speed-limit signs; nil: off.
    public var speedLimits: SpeedLimitOptions?
    /// Hide faces (`--blur`); nil: off.
    public var privacy: PrivacyOptions?
    /// Where a pipeline file set `stages.privacy`; nil when flags did.
    public var privacySetIn: ConfigLocation?
    /// Where a pipeline file set the detector's and the sign reader's options: a model, cascade or class-names file
    /// they name that cannot be loaded is reported at that file and key. Nil when flags set them.
    public var detectionSetIn: ConfigLocation?
    public var speedLimitsSetIn: ConfigLocation?
    /// Where a pipeline file asked to reconnect (`source.reconnect`), for the warning that it cannot apply; nil when a
    /// flag did.
    public var reconnectSetIn: ConfigLocation?
    /// Where a pipeline file named the input (`source.input`), so that a missing input is said at that file and
    /// key; nil when `--input` did.
    public var inputSetIn: ConfigLocation?
    /// Stream time between analysed frames for every analysis stage; zero analyses every frame. Nil: each stage's
    /// own default (0.3 s for object detection, 80 ms for sign reading, which needs several reads per sign).
    public var analysisInterval: Duration?
    /// Frame-accurate annotations (`--sync-analysis`, `analysis.sync`).
    public var syncAnalysis = SyncAnalysisMode.auto
    /// Give up when no frame arrived within this time of starting.
    public var startupTimeout: Duration = .seconds(20)
    /// After the first interrupt, how long draining may take before the run stops hard (`--shutdown-grace`).
    public var shutdownGrace: Duration = .seconds(5)
    /// Reopen a lost live input (`--reconnect`); nil: on for network sources and cameras, off otherwise.
    public var reconnect: Bool?
    /// Give up after this many reconnection attempts in a row (`--reconnect-max`); nil: keep trying.
    public var reconnectMaxAttempts: Int?
    /// End a live run whose input sent nothing for this long (`--stall-timeout`); nil: wait.
    public var stallTimeout: Duration?
    /// End a file run in which no frame moved for this long (`--watchdog`): a stuck element, not a slow one.
    /// Nil: no watchdog.
    public var watchdog: Duration? = .seconds(30)
    /// Report files.
    public var reportPath: String?
    public var timelinePath: String?
    public var htmlPath: String?
    /// Events (JSON lines) and subtitles (WebVTT).
    public var eventsPath: String?
    public var subtitlesPath: String?
    /// Tracks in MOTChallenge text (`--export mot FILE`).
    public var motPath: String?
    /// Tracked boxes as COCO detection results (`--export coco FILE`).
    public var cocoPath: String?
    /// GPS telemetry: its source, its offset, the map exports (docs/guides/gps.md).
    public var telemetry = TelemetrySettings()
    /// Serve Prometheus metrics on this port while running (loopback only).
    public var metricsPort: Int?
    /// Record statistics (the report, progress, metrics); off only to measure what recording costs.
    public var statistics = true
    /// Print a progress line on a terminal.
    public var showProgress = true
    /// An interrupted run keeps its files as `NAME.partial` instead of naming them (`--keep-partial-on-interrupt`):
    /// what a batch's children do, since a batch runs an interrupted file again from the start; also set when a file
    /// of the run already exists under its name (``RunSession``).
    public var interruptedRunKeepsPartial = false

    /// The names of every file the run writes.
    var finalPaths: [String] {
        [output.partialFile?.destination, reportPath, htmlPath, timelinePath, eventsPath, subtitlesPath, motPath, cocoPath]
            .compactMap { $0 } + telemetry.exports.map(\.path)
    }

    /// Whether a run that ended without an error gives its files their names: always, except an interrupted one that
    /// keeps them partial.
    func namesFiles(afterInterrupt interrupted: Bool) -> Bool { !(interrupted && interruptedRunKeepsPartial) }

    public init(input: InputSource) {
        self.input = input
    }

    /// Whether a lost input is reopened: the user's choice, else on for sources that can come back.
    var reconnects: Bool { reconnect ?? input.mayReconnect }
}

extension RunConfiguration {
    /// A run on a local file whose analysis is frame-accurate: known before the input opens, since a file is never
    /// live (its pool blocks unless told otherwise, and `--sync-analysis auto` is then on).
    var isFrameAccurateFileRun: Bool {
        guard case .file = input, detection != nil || speedLimits != nil || privacy != nil else { return false }
        return syncAnalysis.isOn(policy: backpressure ?? .block)
    }
}

/// Whether frames wait for the analysis of their own frame (`--sync-analysis`).
public enum SyncAnalysisMode: String, Sendable, Equatable, CaseIterable {
    /// On when frames are never dropped (files, ``BackpressurePolicy/block``), off for live sources.
    case auto
    /// Each frame is drawn with its own results, or boxes interpolated between the analysed frames around it;
    /// frames wait for them (a live source then drops frames at the pool while they wait).
    case on
    /// Each frame is drawn at once with every stage's newest result.
    case off

    /// Whether a run with this backpressure policy synchronizes.
    public func isOn(policy: BackpressurePolicy) -> Bool {
        switch self {
        case .auto: policy == .block
        case .on: true
        case .off: false
        }
    }
}

/// How speed-limit signs are read (`stages.speed_limits`, `--speed-limits`).
public struct SpeedLimitOptions: Sendable, Equatable {
    /// `eu` (5, 10…130 km/h) or `us` (5…85 mph).
    public var region = "eu"
    /// OCR confidence (0…1) below which a read is ignored.
    public var minimumConfidence = 0.7
    /// How long the current limit stays shown after its sign was last seen.
    public var expiry: Duration = .seconds(180)
    /// Interval between analysed frames for this stage; nil: the run's, else 80 ms.
    public var interval: Duration?
    /// The text-line recogniser's model: a file, `off`, or nil for the installed one
    /// (scripts/models/install-text-line-model.sh; without it the reader runs on Tesseract and the disc classifier).
    public var textLineModel: String?

    public static let regions = ["eu", "us"]

    public init() {}
}

/// A key of a pipeline file (`stages.detector` of `dashcam.yaml`).
public struct ConfigLocation: Sendable, Equatable {
    public var file: String
    public var key: String

    public init(file: String, key: String) {
        self.file = file
        self.key = key
    }
}
