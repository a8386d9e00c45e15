/// What the frame pool does with a new frame when every slot is busy.
public enum BackpressurePolicy: String, Sendable, Equatable, CaseIterable, Codable {
    /// The producer (the decoder's streaming thread) waits for a slot: nothing is lost. The default for files.
    case block
    /// The new frame is dropped and counted with cause ``DropCause/poolFull``. The default for live sources.
    case drop

    /// The policy a source gets when the user does not choose: lossless for files, drop for live sources.
    public static func automatic(isLive: Bool) -> BackpressurePolicy { isLive ? .drop : .block }
}

/// Why a decoded frame never reached the output.
public enum DropCause: String, Sendable, Hashable, CaseIterable, Codable {
    /// Every pool slot was busy on a live source (``BackpressurePolicy/drop``).
    case poolFull = "pool_full"
    /// The output sink threw the frame away as too late (QoS).
    case lateAtSink = "late_at_sink"
    /// The frame was in flight when a stream error ended the run.
    case streamError = "stream_error"
    /// The frame was in flight when the run was interrupted and could not be flushed.
    case interrupted = "interrupted"
}

/// Pool size and policy, validated once.
public struct PoolConfiguration: Sendable, Equatable {
    /// Slots in the pool; each holds one decoded frame between the decoder and the output.
    public let capacity: Int
    public let policy: BackpressurePolicy

    /// The default: three slots, as in a triple-buffered renderer.
    public static let defaultCapacity = 3

    public init(capacity: Int = PoolConfiguration.defaultCapacity, policy: BackpressurePolicy) {
        precondition(capacity >= 1, "a frame pool needs at least one slot")
        self.capacity = capacity
        self.policy = policy
    }
}
