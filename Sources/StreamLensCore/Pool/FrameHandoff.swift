import Foundation

/// The first-in first-out queue of pool slot numbers from the producer (the decoder's streaming thread) to the
/// consumer (the processing thread). Bounded by the pool: it never holds more entries than there are slots, so its
/// ring is allocated once and pushing never blocks.
///
/// ## Thread Safety
/// One `NSCondition` guards the ring; ``next()`` blocks the consumer until a slot or the end arrives.
public final class FrameHandoff: @unchecked Sendable {
    private let condition = NSCondition()
    private var ring: [Int]
    private var head = 0
    private var count = 0
    private var finished = false

    public init(capacity: Int) {
        precondition(capacity >= 1, "a handoff needs room for at least one frame")
        ring = Array(repeating: -1, count: capacity)
    }

    /// Queues a slot number. The caller holds that slot from the pool, so there is always room.
    public func push(_ slot: Int) {
        condition.lock()
        precondition(count < ring.count, "FrameHandoff overflow: more frames than pool slots")
        ring[(head + count) % ring.count] = slot
        count += 1
        condition.signal()
        condition.unlock()
    }

    /// Marks the end of the stream: ``next()`` returns nil once the queue is empty.
    public func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next slot in arrival order, or nil after ``finish()`` once everything queued has been taken.
    public func next() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !finished { condition.wait() }
        guard count > 0 else { return nil }
        let slot = ring[head]
        head = (head + 1) % ring.count
        count -= 1
        return slot
    }

    /// What ``next(waitingAtMost:)`` found.
    public enum Next: Equatable, Sendable {
        case slot(Int)
        /// ``finish()`` was called and everything queued has been taken.
        case finished
        /// Nothing arrived in time.
        case timedOut
    }

    /// Like ``next()``, but waits at most `timeout` for a slot.
    public func next(waitingAtMost timeout: Duration) -> Next {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18)
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !finished {
            if !condition.wait(until: deadline) && count == 0 && !finished { return .timedOut }
        }
        guard count > 0 else { return .finished }
        let slot = ring[head]
        head = (head + 1) % ring.count
        count -= 1
        return .slot(slot)
    }
}
