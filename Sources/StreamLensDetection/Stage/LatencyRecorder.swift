import StreamLensCore
import Synchronization

/// Keeps the most recent inference latencies in a fixed ring (allocated once) and answers median and p95.
///
/// ## Thread Safety
/// A mutex guards the ring: the analysis thread records, reports read from any thread.
public final class LatencyRecorder: Sendable {
    private struct Ring {
        var samples: [Duration]
        var next = 0
        var count = 0
        var total = 0
    }

    public let capacity: Int
    private let ring: Mutex<Ring>

    public init(capacity: Int = 4096) {
        precondition(capacity > 0, "latency ring needs room for at least one sample")
        self.capacity = capacity
        ring = Mutex(Ring(samples: Array(repeating: .zero, count: capacity)))
    }

    public func record(_ latency: Duration) {
        ring.withLock { ring in
            ring.samples[ring.next] = latency
            ring.next = (ring.next + 1) % capacity
            ring.count = min(ring.count + 1, capacity)
            ring.total += 1
        }
    }

    /// Samples recorded since creation (the ring keeps the last ``capacity``).
    public var totalCount: Int { ring.withLock { $0.total } }

    /// The `quantile` (0…1, nearest rank) of the kept samples; nil when there are none.
    public func quantile(_ quantile: Double) -> Duration? {
        let sorted = ring.withLock { ring in Array(ring.samples.prefix(ring.count)) }.sorted()
        guard !sorted.isEmpty else { return nil }
        let rank = Int((quantile * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }
}
