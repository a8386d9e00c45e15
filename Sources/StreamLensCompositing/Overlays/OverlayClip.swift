/// A clip held in memory as tiles: what a decoder returns, and what tests build by hand.
public final class OverlayClip: OverlayClipSource {
    public let name: String
    public let width: Int
    public let height: Int
    public let timing: LoopTiming
    public let frames: [OverlayTile]

    public init(name: String, frames: [OverlayTile], timing: LoopTiming) {
        precondition(!frames.isEmpty && frames.count == timing.frameCount, "frames must match the timing's frame count")
        self.name = name
        self.frames = frames
        self.timing = timing
        width = frames[0].width
        height = frames[0].height
    }

    public func frame(at index: Int) -> OverlayTile { frames[index] }

    public var byteCount: Int { frames.reduce(0) { $0 + $1.byteCount } }
}
