import StreamLensCore

/// Where the boxes of an earlier analysis are on a later frame, for streamlensblur on live sources, where each frame
/// is hidden with the newest result rather than its own: every box of a track is moved on by the track's velocity
/// (from the two newest results that hold it) for the time since its analysed frame, and grown by `growthPerSecond`
/// of its size per second of that lag (the privacy stage's own hold growth), so that a face moving between
/// analyses stays covered.
///
/// ## Thread Safety
/// Not synchronized: the element's streaming thread only.
struct BlurMotion {
    /// Per track id, its box in the newest result holding it and that result's time; its velocity in pixels per
    /// second (origin and size).
    private struct Track {
        var box: BoundingBox
        var pts: Duration
        var velocity = (x: 0.0, y: 0.0, width: 0.0, height: 0.0)
    }

    private var tracks: [Int: Track] = [:]
    private var newest: Duration?
    private var seen: Set<Int> = []
    /// The boxes handed out for the current frame (storage reused from frame to frame).
    private var moved = Detections(pts: .zero, source: "", items: [])
    /// The longest time between a frame and the analysed frame whose result hid it.
    private(set) var longestLag = Duration.zero

    /// The boxes of `latest` placed on the frame at `pts`.
    mutating func boxes(from latest: Detections, at pts: Duration, growthPerSecond: Double) -> Detections {
        if latest.pts != newest { learn(latest) }
        let lag = max(.zero, pts - latest.pts)
        longestLag = max(longestLag, lag)
        let seconds = lag.seconds
        moved.pts = pts
        moved.source = latest.source
        moved.items.removeAll(keepingCapacity: true)
        for var item in latest.items {
            if seconds > 0 {
                let v = item.trackID.flatMap { tracks[$0]?.velocity } ?? (x: 0, y: 0, width: 0, height: 0)
                // A box only grows ahead of its detections: a shrinking estimate must not uncover a face.
                let box = BoundingBox(
                    x: item.box.x + v.x * seconds, y: item.box.y + v.y * seconds,
                    width: item.box.width + max(0, v.width) * seconds,
                    height: item.box.height + max(0, v.height) * seconds)
                item.box = Self.grown(box, by: growthPerSecond * seconds)
            }
            moved.items.append(item)
        }
        return moved
    }

    /// Forgets every track (a flush: the next result starts a new timeline).
    mutating func reset() {
        tracks.removeAll(keepingCapacity: true)
        newest = nil
    }

    /// Takes a new result: each track's velocity from its previous box, and the tracks it no longer holds dropped.
    private mutating func learn(_ result: Detections) {
        newest = result.pts
        seen.removeAll(keepingCapacity: true)
        for item in result.items {
            guard let id = item.trackID else { continue }
            seen.insert(id)
            guard var track = tracks[id] else {
                tracks[id] = Track(box: item.box, pts: result.pts)
                continue
            }
            let gap = result.pts - track.pts
            let seconds = gap.seconds
            if seconds > 0 {
                track.velocity = (
                    (item.box.x - track.box.x) / seconds, (item.box.y - track.box.y) / seconds,
                    (item.box.width - track.box.width) / seconds, (item.box.height - track.box.height) / seconds
                )
            }
            track.box = item.box
            track.pts = result.pts
            tracks[id] = track
        }
        tracks = tracks.filter { seen.contains($0.key) }
    }

    /// `box` with `fraction` of its width and height added around it (half on each side).
    static func grown(_ box: BoundingBox, by fraction: Double) -> BoundingBox {
        let dx = box.width * fraction / 2
        let dy = box.height * fraction / 2
        return BoundingBox(x: box.x - dx, y: box.y - dy, width: box.width + 2 * dx, height: box.height + 2 * dy)
    }
}
