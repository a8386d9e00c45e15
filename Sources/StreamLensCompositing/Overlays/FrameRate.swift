/// A frame rate as GStreamer states it: `numerator / denominator` frames per second (30/1, 30000/1001).
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    public let numerator: Int
    public let denominator: Int

    public init(_ numerator: Int, _ denominator: Int = 1) {
        precondition(numerator > 0 && denominator > 0, "a frame rate must be positive")
        self.numerator = numerator
        self.denominator = denominator
    }

    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }
    public var description: String { "\(numerator)/\(denominator)" }
}
