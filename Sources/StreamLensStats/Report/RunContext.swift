import StreamLensCore

/// What ran, as the runner knows it: copied into ``RunReport/run``.
public struct RunContext: Codable, Sendable, Equatable {
    /// The input as the user gave it (path or URI).
    public var input: String
    /// The output as the user gave it; nil when frames were only analysed.
    public var output: String?
    /// True for live sources (cameras, network streams).
    public var live: Bool
    public var policy: BackpressurePolicy
    public var poolCapacity: Int
    /// True when the run was stopped early (Ctrl-C).
    public var interrupted: Bool
    /// The error that ended the run, if one did.
    public var error: String?
    public var streamlensVersion: String
    public var gstreamerVersion: String

    public init(
        input: String, output: String? = nil, live: Bool, policy: BackpressurePolicy,
        poolCapacity: Int = PoolConfiguration.defaultCapacity, interrupted: Bool = false, error: String? = nil,
        streamlensVersion: String, gstreamerVersion: String
    ) {
        self.input = input
        self.output = output
        self.live = live
        self.policy = policy
        self.poolCapacity = poolCapacity
        self.interrupted = interrupted
        self.error = error
        self.streamlensVersion = streamlensVersion
        self.gstreamerVersion = gstreamerVersion
    }

    enum CodingKeys: String, CodingKey {
        case input, output, live, policy, interrupted, error
        case poolCapacity = "pool_capacity"
        case streamlensVersion = "streamlens_version"
        case gstreamerVersion = "gstreamer_version"
    }
}
