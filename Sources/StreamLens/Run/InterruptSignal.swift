import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Counts the user's requests to stop a run (Ctrl-C, SIGTERM, SIGHUP: a closed terminal or a dropped SSH session).
/// The first asks for a graceful stop: the runner sends end-of-stream, drains and finalizes the output. The second (or
/// the shutdown grace running out) stops hard.
///
/// ## Thread Safety
/// An atomic counter; `trigger()` may be called from any thread, including a signal source's queue.
public final class InterruptSignal: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    /// Records one request to stop.
    public func trigger() { count.add(1, ordering: .sequentiallyConsistent) }
    /// At least one request arrived: stop gracefully.
    public var isRaised: Bool { requests >= 1 }
    /// A second request arrived: stop now, without draining.
    public var isUrgent: Bool { requests >= 2 }
    /// Requests so far.
    public var requests: Int { count.load(ordering: .sequentiallyConsistent) }

    /// The signals that ask a run or a batch to stop.
    public static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Routes ``stopSignals`` to this counter for the life of the process (the default handlers would kill the run
    /// before the output is finalized and the report written).
    public func installSignalHandlers() {
        for number in Self.stopSignals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            // Signals that arrive before the handler runs are coalesced; `data` says how many there were. (The
            // handler keeps its source alive, which lives for the process anyway.)
            source.setEventHandler { [self, source] in
                for _ in 0..<max(1, Int(source.data)) { trigger() }
            }
            source.resume()
            Self.signalSources.append(source)
        }
    }

    /// Keeps the signal sources alive; written once at start-up on the main thread.
    private nonisolated(unsafe) static var signalSources: [any DispatchSourceSignal] = []
}
