import StreamLensCore
import Synchronization

/// Keeps a failing detector from being called on every frame.
///
/// - **Closed** (normal): every call goes through. After a failure the next attempt waits an exponentially
///   growing backoff (`initialBackoff · multiplier^(n−1)` after the n-th failure in a row, at most `maxBackoff`);
///   frames in between are not analysed.
/// - **Open**: after `failureThreshold` failures in a row no call goes through for the cool-down.
/// - **Half-open**: when the cool-down has passed, exactly one probe call goes through. Success closes the
///   circuit (and forgets the failures); failure opens it again, with the cool-down multiplied by `multiplier`
///   (at most `maxCoolDown`) so a detector that stays broken costs less and less.
///
/// A call that succeeds but takes longer than `callTimeout` counts as a failure (a timeout): OpenCV cannot be
/// interrupted, but a detector that slow must not keep the analysis lane busy.
///
/// Time comes from an injected ``MonotonicClock`` so tests drive every transition exactly.
///
/// ## Thread Safety
/// All state sits behind a mutex; safe from any thread (the stage calls it from its analysis thread, reports
/// read the counters from others).
public final class CircuitBreaker: Sendable {
    /// Tuning of the breaker.
    public struct Configuration: Sendable, Equatable {
        /// Failures in a row that open the circuit.
        public var failureThreshold: Int = 3
        /// Wait after the first failure before the next attempt.
        public var initialBackoff: Duration = .milliseconds(500)
        /// Growth of the backoff and of repeated cool-downs.
        public var multiplier: Double = 2
        /// Longest backoff between attempts while closed.
        public var maxBackoff: Duration = .seconds(4)
        /// How long the circuit stays open before a probe.
        public var coolDown: Duration = .seconds(10)
        /// Longest cool-down after repeated failed probes.
        public var maxCoolDown: Duration = .seconds(120)
        /// A call slower than this counts as a failure; nil: no timeout.
        public var callTimeout: Duration? = .seconds(2)

        public init() {}

        /// Checks ranges; throws ``DetectionError/invalidOption(_:)``.
        public func validate() throws {
            guard failureThreshold >= 1 else { throw DetectionError.invalidOption("breaker failure threshold < 1") }
            guard multiplier >= 1 else { throw DetectionError.invalidOption("breaker backoff multiplier < 1") }
            guard initialBackoff >= .zero, maxBackoff >= initialBackoff, coolDown >= .zero, maxCoolDown >= coolDown
            else {
                throw DetectionError.invalidOption("breaker durations must be non-negative and maxima >= their bases")
            }
            if let callTimeout, callTimeout <= .zero {
                throw DetectionError.invalidOption("detector call timeout must be positive")
            }
        }
    }

    /// Where the breaker stands.
    public enum State: String, Sendable, Equatable {
        case closed
        case open
        case halfOpen = "half_open"
    }

    /// The answer to "may I call the detector now?".
    public enum Permission: Sendable, Equatable {
        /// Call it (closed circuit).
        case granted
        /// Call it once as the half-open probe; report the outcome.
        case probe
        /// Do not call it before `until` (a backoff while closed, or an open circuit).
        case denied(until: Duration, state: State)
    }

    /// Counters for the run report.
    public struct Counters: Sendable, Equatable {
        /// Failed calls, timeouts included.
        public var failures = 0
        /// Calls that succeeded but took longer than the timeout (also counted in `failures`).
        public var timeouts = 0
        /// Times the circuit opened (from closed or from a failed probe).
        public var trips = 0
        /// Half-open probes let through.
        public var probes = 0
        /// Requests refused (backoff or open circuit).
        public var denied = 0
    }

    private struct Status {
        var state = State.closed
        var consecutiveFailures = 0
        /// No call before this time (backoff or cool-down end).
        var blockedUntil: Duration = .zero
        var currentCoolDown: Duration
        var probeInFlight = false
        var counters = Counters()
    }

    /// The tuning in force.
    public let configuration: Configuration
    private let clock: any MonotonicClock
    private let status: Mutex<Status>
    /// Set by ``ignoreTimeouts()``.
    private let timeoutsIgnored = Atomic<Bool>(false)

    /// A closed breaker reading time from `clock`.
    public init(configuration: Configuration = Configuration(), clock: any MonotonicClock = SystemClock()) {
        self.configuration = configuration
        self.clock = clock
        self.status = Mutex(Status(currentCoolDown: configuration.coolDown))
    }

    /// Asks whether the detector may be called now; moves open → half-open when the cool-down is over.
    public func requestPermission() -> Permission {
        let now = clock.now()
        return status.withLock { status in
            switch status.state {
            case .closed:
                if now >= status.blockedUntil { return .granted }
            case .open:
                if now >= status.blockedUntil {
                    status.state = .halfOpen
                    status.probeInFlight = true
                    status.counters.probes += 1
                    return .probe
                }
            case .halfOpen:
                if !status.probeInFlight {
                    status.probeInFlight = true
                    status.counters.probes += 1
                    return .probe
                }
            }
            status.counters.denied += 1
            return .denied(until: status.blockedUntil, state: status.state)
        }
    }

    /// From now on a slow call that succeeds is a success: the caller waits for every result (frame-accurate runs),
    /// so slowness costs time, not frames, and must not make the frames analysed depend on the machine's load.
    /// Calls that fail still count.
    public func ignoreTimeouts() { timeoutsIgnored.store(true, ordering: .relaxed) }

    /// The call succeeded in `duration`; a duration beyond the timeout counts as a failure (unless
    /// ``ignoreTimeouts()``).
    public func recordSuccess(duration: Duration = .zero) {
        if let timeout = configuration.callTimeout, duration > timeout, !timeoutsIgnored.load(ordering: .relaxed) {
            recordFailure(timedOut: true)
            return
        }
        status.withLock { status in
            status.state = .closed
            status.consecutiveFailures = 0
            status.blockedUntil = .zero
            status.currentCoolDown = configuration.coolDown
            status.probeInFlight = false
        }
    }

    /// The call failed (threw, or `timedOut`).
    public func recordFailure(timedOut: Bool = false) {
        let now = clock.now()
        status.withLock { status in
            status.counters.failures += 1
            if timedOut { status.counters.timeouts += 1 }
            status.consecutiveFailures += 1
            switch status.state {
            case .halfOpen:
                // The probe failed: open again, waiting longer this time.
                status.currentCoolDown = Self.grow(
                    status.currentCoolDown, by: configuration.multiplier, limit: configuration.maxCoolDown)
                open(&status, now: now)
            case .closed where status.consecutiveFailures >= configuration.failureThreshold:
                open(&status, now: now)
            case .closed:
                status.blockedUntil = now + backoff(afterFailures: status.consecutiveFailures)
            case .open:
                break  // a late report from a call made before the circuit opened
            }
            status.probeInFlight = false
        }
    }

    /// The wait before the next attempt after `failures` failures in a row (while closed).
    public func backoff(afterFailures failures: Int) -> Duration {
        guard failures >= 1 else { return .zero }
        var delay = configuration.initialBackoff
        for _ in 1..<failures { delay = Self.grow(delay, by: configuration.multiplier, limit: configuration.maxBackoff) }
        return min(delay, configuration.maxBackoff)
    }

    /// Where the breaker stands now.
    public var state: State { status.withLock { $0.state } }
    /// What it has counted so far.
    public var counters: Counters { status.withLock { $0.counters } }
    /// Failures since the last success.
    public var consecutiveFailures: Int { status.withLock { $0.consecutiveFailures } }

    private func open(_ status: inout Status, now: Duration) {
        status.state = .open
        status.blockedUntil = now + status.currentCoolDown
        status.counters.trips += 1
    }

    private static func grow(_ duration: Duration, by factor: Double, limit: Duration) -> Duration {
        min(duration * factor, limit)
    }
}
