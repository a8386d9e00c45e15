/// Which model the reader's text-line recogniser (its third recogniser, ``TextLineRecogniser``) runs.
public enum TextLineModel: Sendable, Equatable {
    /// The one scripts/models/install-text-line-model.sh installed (``TextLineRecogniser/defaultModelPaths()``); without
    /// it the reader reads with Tesseract and the disc classifier only.
    case installed
    /// This file; a run fails with one line when it is missing or not such a model.
    case file(String)
    /// No text-line recogniser.
    case off

    /// `off`, a path, or nil for ``installed``: the form the command line and pipeline files use.
    public init(option: String?) {
        switch option {
        case nil, "": self = .installed
        case "off": self = .off
        case let path?: self = .file(path)
        }
    }
}

/// How ``SpeedLimitStage`` reads, votes and remembers.
public struct SpeedLimitConfiguration: Sendable, Equatable {
    /// Values that exist on signs of the region (default: Europe, 5 and 10…130 km/h).
    public var profile: SpeedLimitProfile
    /// Reads below this OCR confidence (0…1) are ignored.
    public var minimumConfidence: Double
    /// Reads of a ring found by shape and only faint relative redness (``RingCandidate/isFaint``) need this much:
    /// such candidates are more often something else, and a wrong limit is worse than none.
    public var faintRingMinimumConfidence: Double
    /// Majority rule over a sign's reads.
    public var vote: SignVote
    /// Reads collected per sign; later sightings of the sign are tracked but not read again.
    public var maximumReadsPerSign: Int
    /// A sign not seen for this long has been passed: its event is written.
    public var trackTimeout: Duration
    /// The current limit is forgotten this long after its sign was last seen.
    public var limitExpiry: Duration
    /// Width of the analysis copy; nil: the full source width (signs are small, see ``SpeedLimitStage``), except that
    /// sources at least ``largeSourceWidth`` wide are analysed at ``largeSourceAnalysisWidth``.
    public var analysisWidth: Int?
    /// Folder holding `eng.traineddata`; nil searches `TESSDATA_PREFIX` and Debian's locations.
    public var tessdataPath: String?
    /// The text-line recogniser's model.
    public var textLineModel: TextLineModel

    /// Sources at least this wide (4K and up) are analysed scaled to ``largeSourceAnalysisWidth`` unless
    /// ``analysisWidth`` says otherwise. The locator searches every sample of an analysed frame, so a 4K frame costs
    /// it four times a 1080p one; scaled to 1920 it costs a quarter of that plus the scaling, and shows a sign as a
    /// 1080p camera would. Narrower sources stay at full size: at 2560 × 1440 the scaling cost what it saved
    /// (docs/figures/performance.md).
    public static let largeSourceWidth = 3840
    public static let largeSourceAnalysisWidth = 1920

    /// Analysis interval the defaults are tuned for: every second frame at 25 fps gives 6 reads in half a second.
    public static let recommendedInterval: Duration = .milliseconds(80)

    public init(
        profile: SpeedLimitProfile = .europe,
        minimumConfidence: Double = 0.7,
        faintRingMinimumConfidence: Double = 0.95,
        vote: SignVote = SignVote(),
        maximumReadsPerSign: Int = 10,
        trackTimeout: Duration = .milliseconds(400),
        limitExpiry: Duration = .seconds(180),
        analysisWidth: Int? = nil,
        tessdataPath: String? = nil,
        textLineModel: TextLineModel = .installed
    ) {
        precondition(minimumConfidence >= 0 && minimumConfidence <= 1, "confidence threshold must be within 0…1")
        precondition(maximumReadsPerSign >= vote.minimumAgreeingReads, "a sign must be able to collect enough reads")
        precondition(analysisWidth.map { $0 >= 64 } ?? true, "analysis width must be at least 64 pixels")
        self.profile = profile
        self.minimumConfidence = minimumConfidence
        self.faintRingMinimumConfidence = max(minimumConfidence, faintRingMinimumConfidence)
        self.vote = vote
        self.maximumReadsPerSign = maximumReadsPerSign
        self.trackTimeout = trackTimeout
        self.limitExpiry = limitExpiry
        self.analysisWidth = analysisWidth
        self.tessdataPath = tessdataPath
        self.textLineModel = textLineModel
    }
}
