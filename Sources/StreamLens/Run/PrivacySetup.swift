import StreamLensCompositing
import StreamLensCore
import StreamLensDetection
import StreamLensOptions

/// What `--blur` hides, and how (`stages.privacy` in a pipeline file).
public struct PrivacyOptions: Sendable, Equatable {
    /// What can be hidden: the kinds and their detectors are ``PrivacyKind``'s, shared with the `streamlensblur`
    /// element.
    public typealias Kind = PrivacyKind

    public var kinds: [Kind] = [.faces]
    public var style = PrivacyBlurStyle.gaussian
    public var margin = 0.2
    public var confidence = 0.2
    public var hold = Duration.seconds(1)

    public init() {}

    /// A value of `blur` that names nothing StreamLens can hide.
    public typealias UnknownKind = PrivacyKind.Unknown

    /// The kinds in `text` (`faces`, comma-separated); throws the problem in one line for an unknown one.
    public static func kinds(parsing text: String) throws(UnknownKind) -> [Kind] {
        try PrivacyKind.parse(text)
    }
}

/// Builds the privacy stages: the analysis stage that finds what to hide (every frame, on its own thread) and the
/// compositing stage that hides it.
enum PrivacySetup {
    struct Built {
        let analysis: PrivacyStage
        let schedule: any AnalysisSchedule
        let blur: PrivacyBlurStage
    }

    /// Checks that the models are installed (so that a run without them fails before it starts, in one line).
    static func make(_ options: PrivacyOptions, setIn: ConfigLocation?) throws(RunError) -> Built {
        var configuration = PrivacyStage.Configuration()
        configuration.confidenceThreshold = options.confidence
        configuration.holdTime = options.hold
        let stage: PrivacyStage
        do { stage = try PrivacyKind.makeStage(kinds: options.kinds, configuration: configuration) } catch {
            throw .invalidConfiguration(file: setIn?.file, key: setIn?.key ?? "--blur", problem: "\(error)")
        }
        var blurConfiguration = PrivacyBlurStage.Configuration()
        blurConfiguration.style = options.style
        blurConfiguration.margin = options.margin
        // Every frame is due: on files (frame-accurate) each frame is hidden from its own analysis.
        return Built(analysis: stage, schedule: FixedIntervalSchedule(interval: .zero),
                     blur: PrivacyBlurStage(configuration: blurConfiguration))
    }
}

/// The `privacy` entry of the run report's stage details: per kind, its detections, the frames on which it was
/// hidden and the longest time a track went without a fresh detection (hidden meanwhile by the hold).
struct PrivacyDetails: Encodable {
    struct Kind: Encodable {
        let detections: Int
        let tracks: Int
        let framesBlurred: Int
        let longestGapSeconds: Double

        enum CodingKeys: String, CodingKey {
            case detections, tracks, framesBlurred = "frames_blurred", longestGapSeconds = "longest_gap_s"
        }
    }

    let analysedFrames: Int
    let failures: Int
    let lastError: String?
    let kinds: [String: Kind]

    enum CodingKeys: String, CodingKey {
        case analysedFrames = "analysed_frames", failures, lastError = "last_error", kinds
    }

    init(_ report: PrivacyStage.Report, framesBlurred: [String: Int]) {
        analysedFrames = report.analysedFrames
        failures = report.failures
        lastError = report.lastError
        var kinds: [String: Kind] = [:]
        for name in Set(report.kinds.keys).union(framesBlurred.keys) {
            let figures = report.kinds[name]
            kinds[name] = Kind(
                detections: figures?.detections ?? 0, tracks: figures?.tracks ?? 0,
                framesBlurred: framesBlurred[name] ?? 0, longestGapSeconds: figures?.longestGapSeconds ?? 0)
        }
        self.kinds = kinds
    }
}
