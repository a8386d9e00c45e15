import StreamLensCore
import Synchronization

/// The analysis stage of `--blur`: finds what must be hidden (faces) on each frame it is given and reports it, with
/// the boxes held from earlier frames (``PrivacyHold``), as its ``Detections``; ``PrivacyBlurStage`` (compositing)
/// hides them. Frame-accurate runs give it every frame and draw each frame with its own result.
///
/// A detector that fails on a frame (or cannot load) leaves the frame declined, not bare: the boxes still held are
/// drawn (``AnalysisDeclined/held``), and the error is counted in ``report``.
///
/// ## Thread Safety
/// ``analyze(_:)`` and ``finish(at:)`` run on one analysis thread at a time; ``report`` may be read from any thread.
public final class PrivacyStage: AnalysisStage, @unchecked Sendable {
    public static let stageName = "privacy"

    public struct Configuration: Sendable, Equatable {
        /// Width of the analysis copy at most (nil: the source width). Small faces need pixels: CenterFace finds
        /// faces down to about 10 px in its input.
        public var maximumAnalysisWidth: Int? = 1280
        /// Detections below this are ignored.
        public var confidenceThreshold = 0.2
        /// How long a box stays hidden after its last detection.
        public var holdTime = Duration.seconds(1)
        /// How much a held box grows per second since its last detection, as a fraction of its size.
        public var growthPerSecond = 1.0

        public init() {}
    }

    /// Figures per kind (class name).
    public struct KindReport: Sendable, Equatable, Encodable {
        public var detections: Int
        public var tracks: Int
        /// The longest time, in seconds, a track went between two of its detections (hidden meanwhile).
        public var longestGapSeconds: Double
    }

    public struct Report: Sendable, Equatable {
        public var analysedFrames: Int
        public var failures: Int
        public var lastError: String?
        public var kinds: [String: KindReport]
    }

    public let name = PrivacyStage.stageName
    public let configuration: Configuration
    public let backendName: String
    private let loadDetectors: @Sendable () throws -> [any ObjectDetector]
    /// Confined to the analysis thread.
    private var detectors: [any ObjectDetector]?
    private var hold: PrivacyHold
    private var found: [Detection] = []
    private let state = Mutex(Report(analysedFrames: 0, failures: 0, lastError: nil, kinds: [:]))

    public init(
        backendName: String, configuration: Configuration = Configuration(),
        loadDetectors: @escaping @Sendable () throws -> [any ObjectDetector]
    ) throws {
        guard (0...1).contains(configuration.confidenceThreshold) else {
            throw DetectionError.invalidOption("blur confidence \(configuration.confidenceThreshold) outside 0…1")
        }
        guard configuration.holdTime >= .zero, configuration.growthPerSecond >= 0 else {
            throw DetectionError.invalidOption("blur hold time and growth must not be negative")
        }
        self.backendName = backendName
        self.configuration = configuration
        self.loadDetectors = loadDetectors
        hold = PrivacyHold(holdTime: configuration.holdTime, growthPerSecond: configuration.growthPerSecond)
        found.reserveCapacity(64)
    }

    public var preferredAnalysisWidth: Int? { configuration.maximumAnalysisWidth }

    public func analysisWidth(forSourceWidth sourceWidth: Int) -> Int? {
        configuration.maximumAnalysisWidth.map { min($0, sourceWidth) }
    }

    /// The detectors convert the copy to RGB with OpenCV's BT.601 matrix.
    public var analysisColours: AnalysisColours { .bt601 }

    public func analyze(_ frame: AnalysisFrame) throws -> Detections {
        found.removeAll(keepingCapacity: true)
        var failure: (any Error)?
        do {
            let detectors = try self.detectors ?? loadDetectors()
            self.detectors = detectors
            for detector in detectors {
                for detection in try detector.detect(frame)
                where detection.confidence >= configuration.confidenceThreshold {
                    found.append(detection)
                }
            }
        } catch {
            failure = error
        }
        var shown: [Detection] = []
        hold.update(found, at: frame.pts, into: &shown)
        let figures = hold.figures
        state.withLock { report in
            if let failure {
                report.failures += 1
                report.lastError = String(describing: failure)
            } else {
                report.analysedFrames += 1
            }
            for (kind, figure) in figures {
                report.kinds[kind] = KindReport(
                    detections: figure.detections, tracks: figure.tracks,
                    longestGapSeconds: Double(figure.longestGap.components.seconds)
                        + Double(figure.longestGap.components.attoseconds) * 1e-18)
            }
        }
        if let failure { throw AnalysisDeclined(reason: "privacy detector failed: \(failure)", held: Detections(
            pts: frame.pts, source: name, items: shown)) }
        return Detections(pts: frame.pts, source: name, items: shown)
    }

    /// Counters so far.
    public var report: Report { state.withLock { $0 } }
}
