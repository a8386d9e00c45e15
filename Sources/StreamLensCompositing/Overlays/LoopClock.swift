/// Maps presentation times of the main stream to frames of a looping overlay clip, at the clip's own speed.
///
/// The overlay started at `origin` (a main-stream PTS). At a later PTS the clip has played `PTS − origin`; the frame
/// on show is the one whose display interval contains that time, counted on one global frame line and wrapped
/// with a Euclidean modulo. So a 30 fps clip on 25 fps video plays at true speed (it advances 1.2 frames per video
/// frame on average), and the loop point is like any other point: frame `count − 1` is followed by frame 0, with no
/// extra repeat or skip. `tolerance` (1 ms) absorbs timestamps that land a hair before a frame boundary (PTS rounded
/// to whole nanoseconds or milliseconds by a container), which would otherwise show the previous frame twice.
/// Integer arithmetic (128-bit for the products) keeps it exact over days of stream time.
public struct LoopClock: Sendable, Equatable {
    public let timing: LoopTiming
    public let origin: Duration
    public let tolerance: Duration

    public init(timing: LoopTiming, origin: Duration, tolerance: Duration = .milliseconds(1)) {
        self.timing = timing
        self.origin = origin
        self.tolerance = tolerance
    }

    /// Frames elapsed since `origin` on the unwrapped frame line (negative before the origin).
    public func frameNumber(at pts: Duration) -> Int {
        let elapsed = (pts - origin + tolerance).nanoseconds
        if let rate = timing.frameRate {
            // ⌊elapsed × num / (den × 10⁹)⌋
            return Int(Self.floorDivide(Int128(elapsed) * Int128(rate.numerator), Int128(rate.denominator) * 1_000_000_000))
        }
        let loops = Self.floorDivide(Int128(elapsed), Int128(timing.loopNanoseconds))
        let within = Int64(Int128(elapsed) - loops * Int128(timing.loopNanoseconds))
        return Int(loops) * timing.frameCount + Self.lastStart(atOrBefore: within, in: timing.startNanoseconds)
    }

    /// The clip frame on show at `pts`: 0 ..< frameCount.
    public func frameIndex(at pts: Duration) -> Int {
        let count = timing.frameCount
        let number = frameNumber(at: pts)
        return ((number % count) + count) % count
    }

    /// Whole loops completed by `pts`.
    public func completedLoops(at pts: Duration) -> Int {
        let number = frameNumber(at: pts)
        return number >= 0 ? number / timing.frameCount : -((-number - 1) / timing.frameCount) - 1
    }

    private static func floorDivide(_ dividend: Int128, _ divisor: Int128) -> Int128 {
        let quotient = dividend / divisor
        return (dividend % divisor != 0 && (dividend < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// Index of the last start ≤ `time` (binary search; `starts[0]` is 0 and `time` ≥ 0).
    private static func lastStart(atOrBefore time: Int64, in starts: [Int64]) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= time { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
