import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A source of monotonic time, injected wherever timing logic lives so tests control it to the nanosecond.
public protocol MonotonicClock: Sendable {
    /// Time since an arbitrary fixed origin. Never goes backwards.
    func now() -> Duration
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`).
public struct SystemClock: MonotonicClock {
    public init() {}

    public func now() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return .seconds(Int64(spec.tv_sec)) + .nanoseconds(Int64(spec.tv_nsec))
    }
}

/// A clock that moves only when told to: for tests of pool, jitter, budget and breaker timing.
public final class ManualClock: MonotonicClock {
    private let current: Mutex<Duration>

    public init(start: Duration = .zero) { current = Mutex(start) }

    public func now() -> Duration { current.withLock { $0 } }

    /// Moves the clock forward by `step`.
    public func advance(by step: Duration) {
        precondition(step >= .zero, "a monotonic clock cannot go backwards")
        current.withLock { $0 += step }
    }

    /// Sets the clock to `time`, which must not be earlier than now.
    public func set(_ time: Duration) {
        current.withLock {
            precondition(time >= $0, "a monotonic clock cannot go backwards")
            $0 = time
        }
    }
}

extension Duration {
    /// The duration in (fractional) seconds, from whole nanoseconds (so 9 ms is exactly 0.009).
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// The duration in (fractional) milliseconds, from whole nanoseconds.
    public var milliseconds: Double { Double(nanoseconds) / 1e6 }

    /// The duration in whole nanoseconds (truncated).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
