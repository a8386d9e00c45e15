import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Counts the user's requests to stop a run (Ctrl-C, SIGTERM, SIGHUP: a closed terminal or a dropped SSH session).
/// The first asks for a graceful stop: the runner sends end-of-stream, drains and finalizes the output. The second (or
/// the shutdown grace running out) stops hard — unless it came within ``sameRequestWindow`` of the first: GNU
/// `timeout` sends SIGTERM to the program and then to its process group, two signals microseconds apart that are one
/// request (`timeout 60 streamlens run …` stopped hard, frames in flight lost, in 2 of 8 tries).
///
/// ## Thread Safety
/// Atomics; `trigger()` may be called from any thread, including a signal source's queue.
public final class InterruptSignal: Sendable {
    private let count = Atomic<Int>(0)
    /// When the first request came (`DispatchTime` uptime nanoseconds); 0 before.
    private let firstRequestAt = Atomic<UInt64>(0)
    /// Requests this soon after the first are the same request sent twice; a person pressing Ctrl-C again after
    /// reading "interrupt again to stop at once" takes far longer.
    static let sameRequestWindow = Duration.milliseconds(100)

    public init() {}

    /// Records one request to stop.
    public func trigger() {
        let now = max(1, DispatchTime.now().uptimeNanoseconds)
        let (isFirst, first) = firstRequestAt.compareExchange(expected: 0, desired: now, ordering: .sequentiallyConsistent)
        if !isFirst, Duration.nanoseconds(Int64(now &- first)) < Self.sameRequestWindow { return }
        count.add(1, ordering: .sequentiallyConsistent)
    }
    /// At least one request arrived: stop gracefully.
    public var isRaised: Bool { requests >= 1 }
    /// A second request arrived: stop now, without draining.
    public var isUrgent: Bool { requests >= 2 }
    /// Requests so far.
    public var requests: Int { count.load(ordering: .sequentiallyConsistent) }

    /// The signals that ask a run or a batch to stop: SIGINT, SIGTERM and SIGHUP, less any the program was started
    /// with set to be ignored (`nohup` ignores SIGHUP so that closing the terminal does not stop what it runs).
    /// Read first in `main` (``holdStopSignals()``), before any disposition is changed.
    public static let stopSignals = [SIGINT, SIGTERM, SIGHUP].filter { !isIgnored($0) }

    private static func isIgnored(_ number: Int32) -> Bool {
        var action = sigaction()
        guard sigaction(number, nil, &action) == 0 else { return false }
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Blocks ``stopSignals`` on the calling thread, and so on every thread it starts after: called first thing in
    /// `main`, a stop request that arrives while the program starts stays pending until a signal source reads it.
    /// (Ignoring the signals until the sources were registered, which libdispatch does later on its own thread, lost
    /// a Ctrl-C sent in the first milliseconds: the run went on to its end.)
    public static func holdStopSignals() {
        var signals = stopSignalSet
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        held.store(true, ordering: .sequentiallyConsistent)
    }

    /// Undoes ``holdStopSignals()`` for a command that installs no handler: a pending or later signal ends it as usual.
    public static func releaseStopSignals() {
        var signals = stopSignalSet
        held.store(false, ordering: .sequentiallyConsistent)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Whether ``holdStopSignals()`` is in force: then the signal sources read the held signals, and ignoring them
    /// first would throw away one already pending.
    public static var stopSignalsHeld: Bool { held.load(ordering: .sequentiallyConsistent) }

    private static let held = Atomic<Bool>(false)

    private static var stopSignalSet: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in stopSignals { sigaddset(&signals, number) }
        return signals
    }

    /// Routes ``stopSignals`` to this counter for the life of the process (the default handlers would kill the run
    /// before the output is finalized and the report written).
    public func installSignalHandlers() {
        Self.signalSources += Self.makeStopSignalSources { [self] _, count in
            for _ in 0..<count { trigger() }
        }
    }

    /// One running source per ``stopSignals``, calling `handler` with the signal and how many arrived (signals that
    /// arrive before the handler runs are coalesced) on a global queue. The signals are ignored first unless they are
    /// held (``holdStopSignals()``), when ignoring would throw away one already pending. The caller keeps the
    /// sources; cancelling them stops the handler.
    public static func makeStopSignalSources(
        _ handler: @escaping @Sendable (_ signal: Int32, _ count: Int) -> Void
    ) -> [any DispatchSourceSignal] {
        stopSignals.map { number in
            if !stopSignalsHeld { signal(number, SIG_IGN) }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [source] in handler(number, max(1, Int(source.data))) }
            source.resume()
            return source
        }
    }

    /// Keeps the signal sources alive; written once at start-up on the main thread.
    private nonisolated(unsafe) static var signalSources: [any DispatchSourceSignal] = []
}
