/// Contrast seeds that nothing confirmed, remembered from one analysed frame to the next, so that a still seed over
/// an unchanged picture is not confirmed again and again.
///
/// A fixed camera sees the same faintly red, ring-like places (a reddish window, a jacket on a bench) in every frame;
/// each cost a Hough transform a frame (vtest.avi: most of the sign stage's time) and failed
/// the same way every time. A seed at the same place and radius as one rejected on the last analysed frame, whose box
/// still looks the same — the mean luma of its four quadrants and of its middle, and its mean V, each within
/// ``tolerance`` of then — is passed
/// over, at most ``maximumSkips`` times in a row; then it is checked again. A sign that approaches grows and moves,
/// so its seed is never the same one twice; a sign that stands still in a still picture gives the same result
/// anyway.
///
/// ## Thread Safety
/// Not synchronized; one per locator.
struct RejectedSeedMemory {
    /// What a seed's box looked like: the mean luma of its four quadrants and of its middle half (where a sign's
    /// digits would be), and its mean V (chroma samples).
    struct Look {
        var lumaQuadrants: SIMD4<Int32>
        var middleLuma: Int32
        var v: Int32

        /// The look of the box of `radius` around (`x`, `y`) in the summed luma and V tables.
        init(x: Int, y: Int, radius: Int, luma: SummedArea, v: SummedArea) {
            let left = x - radius
            let top = y - radius
            let right = x + radius + 1
            let bottom = y + radius + 1
            lumaQuadrants = SIMD4(
                Int32(luma.mean(left: left, top: top, right: x, bottom: y)),
                Int32(luma.mean(left: x, top: top, right: right, bottom: y)),
                Int32(luma.mean(left: left, top: y, right: x, bottom: bottom)),
                Int32(luma.mean(left: x, top: y, right: right, bottom: bottom)))
            let half = max(1, radius / 2)
            middleLuma = Int32(luma.mean(left: x - half, top: y - half, right: x + half + 1, bottom: y + half + 1))
            self.v = Int32(v.mean(left: left, top: top, right: right, bottom: bottom))
        }

        func isClose(to other: Look, tolerance: Int32) -> Bool {
            let lumaDifference = lumaQuadrants &- other.lumaQuadrants
            let largest = max(lumaDifference.max(), -lumaDifference.min())
            return largest <= tolerance && abs(middleLuma - other.middleLuma) <= tolerance
                && abs(v - other.v) <= tolerance
        }
    }

    private struct Entry {
        var x: Int
        var y: Int
        var radius: Int
        var look: Look
        /// Frames in a row this seed has been passed over.
        var skips: Int
    }

    /// Frames in a row a remembered seed may be passed over before it is checked again.
    var maximumSkips = 7
    /// Largest change (levels) of a quadrant's or the middle's mean luma, or of the mean V, for the box to look the
    /// same.
    var tolerance: Int32 = 2

    /// Seeds rejected or passed over on the last analysed frame, and those of this frame (swapped each frame; both
    /// keep their storage).
    private var previous: [Entry] = []
    private var current: [Entry] = []

    /// Starts a frame: what the last one remembered is what this one consults.
    mutating func beginFrame() {
        swap(&previous, &current)
        current.removeAll(keepingCapacity: true)
    }

    /// Whether the seed at (`x`, `y`) with `radius` was rejected on the last frame over the same look and may be
    /// passed over once more; if so it is remembered for the next frame too.
    mutating func passesOver(x: Int, y: Int, radius: Int, look: Look) -> Bool {
        guard let entry = previous.first(where: { $0.x == x && $0.y == y && $0.radius == radius }),
            entry.skips < maximumSkips, entry.look.isClose(to: look, tolerance: tolerance)
        else { return false }
        // The look it is compared with stays the one it was rejected with: a slow drift adds up and ends the skips.
        current.append(Entry(x: x, y: y, radius: radius, look: entry.look, skips: entry.skips + 1))
        return true
    }

    /// Remembers a seed that every check rejected this frame.
    mutating func rejected(x: Int, y: Int, radius: Int, look: Look) {
        current.append(Entry(x: x, y: y, radius: radius, look: look, skips: 0))
    }
}
