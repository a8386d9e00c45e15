import StreamLensCore

/// The speed limit in force: the last confirmed sign, until a new sign replaces it or it expires.
public struct CurrentSpeedLimit: Sendable, Equatable {
    public var value: Int
    public var confidence: Double
    /// Where the sign was last seen, in source pixels.
    public var box: BoundingBox
    /// The sign's track.
    public var trackID: Int
    /// Stream time of the sign's last sighting: the expiry counts from here.
    public var lastSeen: Duration

    public init(value: Int, confidence: Double, box: BoundingBox, trackID: Int, lastSeen: Duration) {
        self.value = value
        self.confidence = confidence
        self.box = box
        self.trackID = trackID
        self.lastSeen = lastSeen
    }
}

/// Remembers the limit of the last sign passed and forgets it after ``expiry`` (default 180 s, like the Obserwator
/// app: a limit without a repeat sign is no longer trusted).
struct SpeedLimitMemory {
    let expiry: Duration
    private(set) var settled: CurrentSpeedLimit?

    init(expiry: Duration) {
        precondition(expiry > .zero, "limit expiry must be positive")
        self.expiry = expiry
    }

    /// Takes `limit` from a closed sign unless a sign seen later is already settled.
    mutating func settle(_ limit: CurrentSpeedLimit) {
        if let settled, settled.lastSeen > limit.lastSeen { return }
        settled = limit
    }

    /// The limit in force at `pts`: a confirmed sign still in view wins over the settled one; an expired limit is
    /// none.
    mutating func current(at pts: Duration, inView: CurrentSpeedLimit?) -> CurrentSpeedLimit? {
        if let inView { return inView }
        guard let settled else { return nil }
        if pts > settled.lastSeen, pts - settled.lastSeen > expiry {
            self.settled = nil
            return nil
        }
        return settled
    }
}
