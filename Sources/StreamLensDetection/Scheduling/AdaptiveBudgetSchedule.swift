import StreamLensCore
import Synchronization

/// An ``AnalysisSchedule`` that keeps a detector within a latency budget by adapting how often it runs.
///
/// The cadence is either one frame per interval of stream time (default 0.3 s) or every Nth frame. After each
/// analysis the measured latency is smoothed (exponential moving average); when the smoothed latency exceeds
/// the budget the cadence is lengthened by `step`, when it is below `headroom` × budget it is shortened by
/// `step`, always within the configured bounds (by default: from the base cadence up to 8 times it).
///
/// ## Thread Safety
/// State sits behind a mutex: ``isDue(pts:)`` and ``markStarted(pts:)`` come from the processing thread,
/// ``recordCompletion(latency:)`` from the analysis thread, reports from anywhere.
public final class AdaptiveBudgetSchedule: AnalysisSchedule {
    /// How frames are picked.
    public enum Cadence: Sendable, Equatable {
        /// One frame per interval of stream time (zero: every frame).
        case interval(Duration)
        /// One frame out of every N decoded frames.
        case everyNthFrame(Int)
    }

    /// Tuning of the adaptation.
    public struct Configuration: Sendable, Equatable {
        /// The cadence aimed for while the detector keeps within budget.
        public var base: Cadence = .interval(.milliseconds(300))
        /// Latency one analysis may take.
        public var latencyBudget: Duration = .milliseconds(250)
        /// The cadence shortens only while the smoothed latency is below `headroom` × budget.
        public var headroom: Double = 0.5
        /// Factor by which the cadence lengthens or shortens per analysis.
        public var step: Double = 1.25
        /// Bounds of the cadence as multiples of the base.
        public var minimumScale: Double = 1
        public var maximumScale: Double = 8
        /// Weight of the newest latency in its moving average.
        public var latencySmoothing: Double = 0.5

        public init() {}

        /// Checks ranges; throws ``DetectionError/invalidOption(_:)``.
        public func validate() throws {
            switch base {
            case .interval(let interval) where interval < .zero:
                throw DetectionError.invalidOption("analysis interval must not be negative")
            case .everyNthFrame(let stride) where stride < 1:
                throw DetectionError.invalidOption("every-Nth-frame stride must be at least 1")
            default: break
            }
            guard latencyBudget > .zero else { throw DetectionError.invalidOption("latency budget must be positive") }
            guard headroom > 0, headroom <= 1 else { throw DetectionError.invalidOption("headroom outside (0, 1]") }
            guard step > 1 else { throw DetectionError.invalidOption("adaptation step must be greater than 1") }
            guard minimumScale > 0, maximumScale >= minimumScale else {
                throw DetectionError.invalidOption("cadence bounds must satisfy 0 < minimum <= maximum")
            }
            guard latencySmoothing > 0, latencySmoothing <= 1 else {
                throw DetectionError.invalidOption("latency smoothing outside (0, 1]")
            }
        }
    }

    /// What the schedule has done, for the run report.
    public struct Report: Sendable, Equatable {
        /// The interval in force (for every-Nth-frame: N × the measured frame duration).
        public var currentInterval: Duration
        /// N in force, for an every-Nth-frame cadence.
        public var currentFrameStride: Int?
        /// Smoothed analysis latency (nil before the first analysis).
        public var smoothedLatency: Duration?
        /// Times the cadence was lengthened or shortened.
        public var lengthened: Int
        public var shortened: Int
    }

    private struct State {
        /// Current cadence as a multiple of the base.
        var scale: Double
        var lastStarted: Duration?
        var lastSeenPTS: Duration?
        var framesSinceStart = 0
        var frameDuration: Duration?
        var smoothedLatency: Duration?
        var lengthened = 0
        var shortened = 0
        /// Set by ``keepBaseCadence()``: latencies are still smoothed and reported, the cadence no longer moves.
        var fixed = false
    }

    /// The tuning in force.
    public let configuration: Configuration
    private let state: Mutex<State>

    /// Starts at the base cadence; throws ``DetectionError/invalidOption(_:)`` for a configuration out of range.
    public init(configuration: Configuration = Configuration()) throws {
        try configuration.validate()
        self.configuration = configuration
        // Start at the base cadence, or at the nearer bound when the base lies outside them.
        let startScale = min(max(1, configuration.minimumScale), configuration.maximumScale)
        self.state = Mutex(State(scale: startScale))
    }

    public func isDue(pts: Duration) -> Bool {
        state.withLock { state in
            // Every distinct timestamp is one decoded frame; its spacing gives the frame duration.
            if let previous = state.lastSeenPTS, pts != previous {
                state.framesSinceStart += 1
                if pts > previous { state.frameDuration = pts - previous }
            }
            state.lastSeenPTS = pts
            guard let last = state.lastStarted else { return true }
            // A timestamp that jumps backwards (a new segment, a loop) restarts the cadence.
            if pts < last { return true }
            switch configuration.base {
            case .interval:
                return pts - last >= Self.interval(configuration.base, scale: state.scale)
            case .everyNthFrame:
                return state.framesSinceStart >= Self.stride(configuration.base, scale: state.scale)
            }
        }
    }

    public func markStarted(pts: Duration) {
        state.withLock { state in
            state.lastStarted = pts
            state.lastSeenPTS = pts
            state.framesSinceStart = 0
        }
    }

    public func recordCompletion(latency: Duration) {
        state.withLock { state in
            let alpha = configuration.latencySmoothing
            let smoothed = state.smoothedLatency.map { latency * alpha + $0 * (1 - alpha) } ?? latency
            state.smoothedLatency = smoothed
            if state.fixed { return }
            if smoothed > configuration.latencyBudget {
                let lengthened = min(configuration.maximumScale, state.scale * configuration.step)
                if lengthened > state.scale { state.lengthened += 1 }
                state.scale = lengthened
            } else if smoothed < configuration.latencyBudget * configuration.headroom {
                let shortened = max(configuration.minimumScale, state.scale / configuration.step)
                if shortened < state.scale { state.shortened += 1 }
                state.scale = shortened
            }
        }
    }

    public var currentInterval: Duration { report.currentInterval }

    public func keepBaseCadence() {
        state.withLock { state in
            state.fixed = true
            state.scale = min(max(1, configuration.minimumScale), configuration.maximumScale)
        }
    }

    public func maximumFrameGap(frameDuration: Duration) -> Int {
        let scale = state.withLock { $0.fixed ? $0.scale : configuration.maximumScale }
        switch configuration.base {
        case .everyNthFrame:
            return Self.stride(configuration.base, scale: scale)
        case .interval:
            guard frameDuration > .zero else { return 1 }
            return max(1, Int((Self.interval(configuration.base, scale: scale) / frameDuration).rounded(.up)))
        }
    }

    /// The cadence in force now.
    public var report: Report {
        state.withLock { state in
            switch configuration.base {
            case .interval:
                return Report(
                    currentInterval: Self.interval(configuration.base, scale: state.scale), currentFrameStride: nil,
                    smoothedLatency: state.smoothedLatency, lengthened: state.lengthened, shortened: state.shortened)
            case .everyNthFrame:
                let stride = Self.stride(configuration.base, scale: state.scale)
                return Report(
                    currentInterval: (state.frameDuration ?? .zero) * stride, currentFrameStride: stride,
                    smoothedLatency: state.smoothedLatency, lengthened: state.lengthened, shortened: state.shortened)
            }
        }
    }

    private static func interval(_ base: Cadence, scale: Double) -> Duration {
        guard case .interval(let interval) = base else { return .zero }
        return interval * scale
    }

    private static func stride(_ base: Cadence, scale: Double) -> Int {
        guard case .everyNthFrame(let stride) = base else { return 1 }
        return max(1, Int((Double(stride) * scale).rounded()))
    }
}
