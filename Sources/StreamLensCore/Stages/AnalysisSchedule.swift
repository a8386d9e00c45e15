import Synchronization

/// Decides which frames an analysis stage looks at.
///
/// ## Thread Safety
/// ``isDue(pts:)`` and ``markStarted(pts:)`` are called from the processing thread, ``recordCompletion(latency:)``
/// from the stage's analysis thread; implementations synchronize their own state.
public protocol AnalysisSchedule: AnyObject, Sendable {
    /// Whether the frame at `pts` should be analysed (given the last started analysis).
    func isDue(pts: Duration) -> Bool
    /// The frame at `pts` was handed to the stage.
    func markStarted(pts: Duration)
    /// The stage finished one frame in `latency` (lets adaptive schedules lengthen or shorten the interval).
    func recordCompletion(latency: Duration)
    /// The interval in force now (reported).
    var currentInterval: Duration { get }
    /// Frame-accurate (synchronized) runs: keep the base cadence, never stretch it for a slow stage, so that the
    /// frames analysed depend only on the stream and the hold of frames waiting for results stays bounded.
    func keepBaseCadence()
    /// The most frames that can pass between two analysed frames, for frames `frameDuration` apart (sizes the hold
    /// of frames waiting for analysis results).
    func maximumFrameGap(frameDuration: Duration) -> Int
}

extension AnalysisSchedule {
    public func keepBaseCadence() {}

    public func maximumFrameGap(frameDuration: Duration) -> Int {
        guard frameDuration > .zero else { return 1 }
        return max(1, Int((currentInterval / frameDuration).rounded(.up)))
    }
}

/// Analyses one frame per `interval` of stream time; an interval of zero means every frame.
public final class FixedIntervalSchedule: AnalysisSchedule {
    public let interval: Duration
    private let lastStarted = Mutex<Duration?>(nil)

    public init(interval: Duration) {
        precondition(interval >= .zero, "analysis interval must not be negative")
        self.interval = interval
    }

    public func isDue(pts: Duration) -> Bool {
        lastStarted.withLock { last in
            guard let last else { return true }
            // A timestamp that jumps backwards (a new segment, a loop) restarts the cadence.
            return pts < last || pts - last >= interval
        }
    }

    public func markStarted(pts: Duration) { lastStarted.withLock { $0 = pts } }
    public func recordCompletion(latency: Duration) {}
    public var currentInterval: Duration { interval }
}
