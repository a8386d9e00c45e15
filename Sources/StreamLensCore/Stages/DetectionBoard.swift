import Synchronization

/// The newest ``Detections`` of each analysis stage: analysis threads post, the compositor reads.
///
/// ## Thread Safety
/// A mutex guards the dictionary; reads return a copy-on-write snapshot.
public final class DetectionBoard: Sendable {
    private let latest = Mutex<[String: Detections]>([:])

    public init() {}

    /// Replaces the stage's newest result.
    public func post(_ detections: Detections) {
        latest.withLock { $0[detections.source] = detections }
    }

    /// Forgets the stage's result (a flush or new caps: it belongs to frames that are gone).
    public func clear(source: String) {
        _ = latest.withLock { $0.removeValue(forKey: source) }
    }

    /// Every stage's newest result.
    public func snapshot() -> [String: Detections] {
        latest.withLock { $0 }
    }
}
