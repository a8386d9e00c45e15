import Foundation
import StreamLensCore

/// A thread that calls `tick` every `period` until stopped: it lets streamlensstats notice a silent source (no
/// buffer arrives to run any code) and post its periodic messages.
///
/// ## Thread Safety
/// `condition` guards `stopping`; ``start()`` and ``stop()`` are called from the element's state-change thread.
final class Ticker: @unchecked Sendable {
    private let period: Duration
    private let name: String
    private let tick: @Sendable () -> Void
    private let condition = NSCondition()
    private var stopping = false
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    init(period: Duration, name: String, tick: @escaping @Sendable () -> Void) {
        precondition(period > .zero, "a ticker needs a positive period")
        self.period = period
        self.name = name
        self.tick = tick
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    /// Ends the thread after its current tick and waits for it.
    func stop() {
        guard thread != nil else { return }
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
        thread = nil
    }

    private func run() {
        let seconds = period / .seconds(1)
        while true {
            condition.lock()
            let deadline = Date(timeIntervalSinceNow: seconds)
            while !stopping && Date() < deadline { _ = condition.wait(until: deadline) }
            let done = stopping
            condition.unlock()
            if done { break }
            tick()
        }
        finished.signal()
    }
}
