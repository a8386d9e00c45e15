import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Set when the user asks a run to stop (Ctrl-C, SIGTERM). The runner then sends end-of-stream through the pipeline so
/// the output file is finalized and the report written.
///
/// ## Thread Safety
/// An atomic flag; `trigger()` may be called from any thread, including a signal source's queue.
public final class InterruptSignal: Sendable {
    private let raised = Atomic<Bool>(false)

    public init() {}

    public func trigger() { raised.store(true, ordering: .sequentiallyConsistent) }
    public var isRaised: Bool { raised.load(ordering: .sequentiallyConsistent) }

    /// Routes SIGINT and SIGTERM to this flag for the life of the process (the default handlers would kill the run
    /// before the output is finalized).
    public func installSignalHandlers() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in trigger() }
            source.resume()
            Self.signalSources.append(source)
        }
    }

    /// Keeps the signal sources alive; written once at start-up on the main thread.
    private nonisolated(unsafe) static var signalSources: [any DispatchSourceSignal] = []
}
