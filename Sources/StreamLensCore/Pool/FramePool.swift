import Foundation

/// A bounded pool of frame slots guarded by a counting semaphore: at most `capacity` frames are between the decoder
/// and the output at once.
///
/// The producer calls ``admit()`` for each decoded frame; under ``BackpressurePolicy/block`` it waits for a free slot,
/// under ``BackpressurePolicy/drop`` it gets ``Admission/dropped`` at once when none is free. The consumer calls
/// ``release(slot:)`` when a frame has left. ``close()`` wakes a waiting producer at shutdown so nothing hangs.
///
/// ## Thread Safety
/// All state sits behind one `NSCondition`; `admit` may block the calling thread (a GStreamer streaming thread, by
/// design: that is the backpressure), every other method returns promptly. Safe from any thread.
public final class FramePool: @unchecked Sendable {
    /// What happened to a frame offered to the pool.
    public enum Admission: Equatable, Sendable {
        /// The frame holds slot number `slot` (0..<capacity); `waited` is how long the producer was blocked for it.
        case admitted(slot: Int, waited: Duration)
        /// No slot was free and the policy is ``BackpressurePolicy/drop``.
        case dropped
        /// The pool was closed: the run is ending.
        case closed
    }

    public let configuration: PoolConfiguration
    private let clock: any MonotonicClock
    private let condition = NSCondition()
    private var busySlots = 0
    /// Indices of free slots, used as a stack; allocated once.
    private var freeSlots: [Int]
    private var closed = false
    private var peakBusySlots = 0
    private var blockedAdmissions = 0
    private var totalBlocked = Duration.zero

    public init(configuration: PoolConfiguration, clock: any MonotonicClock = SystemClock()) {
        self.configuration = configuration
        self.clock = clock
        self.freeSlots = Array((0..<configuration.capacity).reversed())
    }

    /// Offers one frame to the pool.
    public func admit() -> Admission {
        condition.lock()
        defer { condition.unlock() }
        if closed { return .closed }
        if busySlots < configuration.capacity {
            return .admitted(slot: takeSlot(), waited: .zero)
        }
        if configuration.policy == .drop { return .dropped }
        let start = clock.now()
        while busySlots >= configuration.capacity && !closed { condition.wait() }
        if closed { return .closed }
        let waited = clock.now() - start
        blockedAdmissions += 1
        totalBlocked += waited
        return .admitted(slot: takeSlot(), waited: waited)
    }

    /// Returns slot `slot`; wakes a producer waiting for it.
    public func release(slot: Int) {
        condition.lock()
        precondition(busySlots > 0 && !freeSlots.contains(slot), "FramePool.release(slot: \(slot)) without a matching admission")
        busySlots -= 1
        freeSlots.append(slot)
        condition.signal()
        condition.unlock()
    }

    /// Ends the pool: a waiting producer wakes with ``Admission/closed`` and later offers are refused.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// What the pool has seen so far.
    public var usage: Usage {
        condition.lock()
        defer { condition.unlock() }
        return Usage(
            busySlots: busySlots, peakBusySlots: peakBusySlots,
            blockedAdmissions: blockedAdmissions, totalBlocked: totalBlocked)
    }

    /// Occupancy and blocking figures of a pool.
    public struct Usage: Sendable, Equatable {
        public var busySlots: Int
        public var peakBusySlots: Int
        /// Admissions that had to wait for a slot (``BackpressurePolicy/block`` only).
        public var blockedAdmissions: Int
        /// Total time producers spent waiting for slots.
        public var totalBlocked: Duration
    }

    private func takeSlot() -> Int {
        busySlots += 1
        peakBusySlots = max(peakBusySlots, busySlots)
        return freeSlots.removeLast()
    }
}
