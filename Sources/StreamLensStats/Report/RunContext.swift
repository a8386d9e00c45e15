import StreamLensCore

/// What ran, as the runner knows it: copied into ``RunReport/run``.
public struct RunContext: Codable, Sendable, Equatable {
    /// The input as the user gave it (path or URI).
    public var input: String
    /// The output as the user gave it; nil when frames were only analysed.
    public var output: String?
    /// True for live sources (cameras, network streams).
    public var live: Bool
    public var policy: BackpressurePolicy
    public var poolCapacity: Int
    /// True when the run was stopped early (Ctrl-C).
    public var interrupted: Bool
    /// The error that ended the run, if one did.
    public var error: String?
    /// The run was stopped hard (a second signal, or draining outlasted the shutdown grace): pipelines were set to
    /// NULL without draining. Absent otherwise.
    public var hardStop: Bool?
    /// What became of a file output: where it is and whether it is complete.
    public var outputFile: OutputFileReport?
    /// How frames were padded for the encoder, when their size had to change.
    public var outputFit: OutputFitReport?
    /// Frames were drawn with the analysis of their own frame (`--sync-analysis`); absent when nothing was analysed.
    public var syncAnalysis: Bool?
    /// A file input whose frames ended well before the duration its container declares (a copy or recording cut
    /// short): the stream time of its last frame and the declared duration, in seconds. Absent otherwise.
    public var inputCutShort: InputCutShort?
    public var streamlensVersion: String
    public var gstreamerVersion: String

    public init(
        input: String, output: String? = nil, live: Bool, policy: BackpressurePolicy,
        poolCapacity: Int = PoolConfiguration.defaultCapacity, interrupted: Bool = false, error: String? = nil,
        streamlensVersion: String, gstreamerVersion: String, hardStop: Bool? = nil, outputFile: OutputFileReport? = nil,
        outputFit: OutputFitReport? = nil, syncAnalysis: Bool? = nil
    ) {
        self.syncAnalysis = syncAnalysis
        self.input = input
        self.output = output
        self.live = live
        self.policy = policy
        self.poolCapacity = poolCapacity
        self.interrupted = interrupted
        self.error = error
        self.streamlensVersion = streamlensVersion
        self.gstreamerVersion = gstreamerVersion
        self.hardStop = hardStop
        self.outputFile = outputFile
        self.outputFit = outputFit
    }

    enum CodingKeys: String, CodingKey {
        case input, output, live, policy, interrupted, error
        case poolCapacity = "pool_capacity"
        case hardStop = "hard_stop"
        case outputFile = "output_file"
        case outputFit = "output_fit"
        case syncAnalysis = "sync_analysis"
        case inputCutShort = "input_cut_short"
        case streamlensVersion = "streamlens_version"
        case gstreamerVersion = "gstreamer_version"
    }
}

/// Where a file input's frames ended, against the duration its container declares.
public struct InputCutShort: Codable, Sendable, Equatable {
    public var lastFrameSeconds: Double
    public var declaredSeconds: Double

    public init(lastFrameSeconds: Double, declaredSeconds: Double) {
        self.lastFrameSeconds = lastFrameSeconds
        self.declaredSeconds = declaredSeconds
    }

    /// The cut when `lastFrame` (a frame's stream time) ends more than a second and a twentieth of `declared` before
    /// it; nil otherwise.
    public init?(lastFrame: Duration, declared: Duration) {
        let missing = declared - lastFrame
        guard missing > .seconds(1), missing > declared / 20 else { return nil }
        self.init(lastFrameSeconds: lastFrame.seconds, declaredSeconds: declared.seconds)
    }

    enum CodingKeys: String, CodingKey {
        case lastFrameSeconds = "last_frame_s"
        case declaredSeconds = "declared_s"
    }
}

/// Where a file output ended up (`run.output_file`).
public struct OutputFileReport: Codable, Sendable, Equatable {
    /// The outcome of writing a file to `NAME.partial` and renaming it on success.
    public enum State: String, Codable, Sendable {
        /// Finalized and renamed to its name.
        case complete
        /// Left as `NAME.partial`: the run failed or was stopped hard before the file could be finalized.
        case partial
        /// Stopped hard, but the container is readable as written (Matroska, WebM): under its name, without an index.
        case unfinalized
        /// Nothing worth keeping was written: the partial file was removed.
        case removed
    }

    /// The file as it is now (`NAME` or `NAME.partial`).
    public var path: String
    public var state: State

    public init(path: String, state: State) {
        self.path = path
        self.state = state
    }
}

/// How frames were fitted to the encoder's size constraints (`run.output_fit`).
public struct OutputFitReport: Codable, Sendable, Equatable {
    /// `pad`: odd sides got one black column/row, no pixel was lost.
    public var mode: String
    public var width: Int
    public var height: Int
    public var encodedWidth: Int
    public var encodedHeight: Int

    public init(mode: String, width: Int, height: Int, encodedWidth: Int, encodedHeight: Int) {
        self.mode = mode
        self.width = width
        self.height = height
        self.encodedWidth = encodedWidth
        self.encodedHeight = encodedHeight
    }

    enum CodingKeys: String, CodingKey {
        case mode, width, height
        case encodedWidth = "encoded_width"
        case encodedHeight = "encoded_height"
    }
}
