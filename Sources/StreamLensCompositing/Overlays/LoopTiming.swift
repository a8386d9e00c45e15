/// When each frame of a looping clip starts, within one loop.
///
/// Constant-rate clips (WebM, MOV) are described by their frame rate, so times are computed exactly in integer
/// nanoseconds; variable-rate clips (animated GIF/WebP with per-frame delays) by their frame start times.
public struct LoopTiming: Sendable, Equatable {
    public let frameCount: Int
    /// Set for constant-rate clips.
    public let frameRate: FrameRate?
    /// Start of each frame within the loop, in nanoseconds (variable-rate clips only; empty otherwise).
    let startNanoseconds: [Int64]
    /// Length of one loop in nanoseconds (variable-rate clips only).
    let loopNanoseconds: Int64

    /// Every frame lasts `1 / frameRate`.
    public static func constant(_ frameRate: FrameRate, frameCount: Int) -> LoopTiming {
        precondition(frameCount > 0, "a clip needs at least one frame")
        return LoopTiming(frameCount: frameCount, frameRate: frameRate, startNanoseconds: [], loopNanoseconds: 0)
    }

    /// Frame `i` lasts `durations[i]`; zero or negative durations count as 1 ms (GIF's "as fast as possible").
    public static func variable(frameDurations durations: [Duration]) -> LoopTiming {
        precondition(!durations.isEmpty, "a clip needs at least one frame")
        var starts: [Int64] = []
        starts.reserveCapacity(durations.count)
        var total: Int64 = 0
        for duration in durations {
            starts.append(total)
            total += max(1_000_000, duration.nanoseconds)
        }
        return LoopTiming(frameCount: durations.count, frameRate: nil, startNanoseconds: starts, loopNanoseconds: total)
    }

    /// Length of one loop.
    public var loopDuration: Duration {
        if let frameRate {
            // count × den / num seconds, in nanoseconds, rounded down.
            let nanoseconds = Int128(frameCount) * Int128(frameRate.denominator) * 1_000_000_000 / Int128(frameRate.numerator)
            return .nanoseconds(Int64(nanoseconds))
        }
        return .nanoseconds(loopNanoseconds)
    }
}
