import StreamLensCore

/// Keeps what must stay hidden between detections: every detected box becomes (or continues) a held track, and a
/// track missed by the detector stays hidden for ``holdTime`` after its last detection, moved by its last velocity
/// and grown by ``growthPerSecond`` of its size per second since then, so that a face the detector misses on some
/// frames (turned, blurred by motion, partly hidden) is hidden anyway.
///
/// Detections are matched to tracks of the same class, greedily by overlap with the track's expected box grown by
/// half (faces move far between frames relative to their size).
///
/// ## Thread Safety
/// Not synchronized: the analysis thread of the privacy stage only.
struct PrivacyHold {
    struct Track {
        var id: Int
        var className: String
        var box: BoundingBox
        var confidence: Double
        var lastSeen: Duration
        /// Pixels per second of the box's origin and size, from its last two detections.
        var velocity = (x: 0.0, y: 0.0, width: 0.0, height: 0.0)
        var longestGap = Duration.zero
    }

    /// Per class name, figures over the whole run.
    struct KindFigures: Equatable {
        var detections = 0
        var tracks = 0
        /// The longest time any track of this kind went between two of its detections (held, hidden meanwhile).
        var longestGap = Duration.zero
    }

    let holdTime: Duration
    let growthPerSecond: Double
    private(set) var tracks: [Track] = []
    private(set) var figures: [String: KindFigures] = [:]
    private var nextID = 1
    private var matched: [Bool] = []

    init(holdTime: Duration, growthPerSecond: Double) {
        self.holdTime = holdTime
        self.growthPerSecond = growthPerSecond
    }

    /// Takes the detections of the frame at `pts` and writes into `shown` (emptied first) every box to hide on it:
    /// the detections with their track ids, and the held tracks' expected boxes.
    mutating func update(_ found: [Detection], at pts: Duration, into shown: inout [Detection]) {
        shown.removeAll(keepingCapacity: true)
        tracks.removeAll { pts - $0.lastSeen > holdTime }
        matched.removeAll(keepingCapacity: true)
        matched.append(contentsOf: repeatElement(false, count: tracks.count))
        for detection in found {
            figures[detection.className, default: KindFigures()].detections += 1
            var best: Int?
            var bestOverlap = 0.05
            for index in tracks.indices where !matched[index] && tracks[index].className == detection.className {
                let expected = Self.grown(expectedBox(tracks[index], at: pts), by: 0.5)
                let overlap = expected.intersectionOverUnion(detection.box)
                if overlap > bestOverlap {
                    bestOverlap = overlap
                    best = index
                }
            }
            if let best {
                matched[best] = true
                let gap = pts - tracks[best].lastSeen
                let seconds = Double(gap.components.seconds) + Double(gap.components.attoseconds) * 1e-18
                if seconds > 0 {
                    let old = tracks[best].box
                    tracks[best].velocity = (
                        (detection.box.x - old.x) / seconds, (detection.box.y - old.y) / seconds,
                        (detection.box.width - old.width) / seconds, (detection.box.height - old.height) / seconds
                    )
                }
                tracks[best].longestGap = max(tracks[best].longestGap, gap)
                figures[detection.className, default: KindFigures()].longestGap = max(
                    figures[detection.className]?.longestGap ?? .zero, gap)
                tracks[best].box = detection.box
                tracks[best].confidence = detection.confidence
                tracks[best].lastSeen = pts
                var item = detection
                item.trackID = tracks[best].id
                shown.append(item)
            } else {
                tracks.append(Track(
                    id: nextID, className: detection.className, box: detection.box,
                    confidence: detection.confidence, lastSeen: pts))
                matched.append(true)
                figures[detection.className, default: KindFigures()].tracks += 1
                var item = detection
                item.trackID = nextID
                nextID += 1
                shown.append(item)
            }
        }
        for index in tracks.indices where !matched[index] {
            let track = tracks[index]
            let held = pts - track.lastSeen
            let seconds = Double(held.components.seconds) + Double(held.components.attoseconds) * 1e-18
            shown.append(Detection(
                box: Self.grown(expectedBox(track, at: pts), by: growthPerSecond * seconds),
                className: track.className, confidence: track.confidence, trackID: track.id))
        }
    }

    /// The track's box moved on by its velocity to `pts`.
    private func expectedBox(_ track: Track, at pts: Duration) -> BoundingBox {
        let elapsed = pts - track.lastSeen
        let t = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let v = track.velocity
        return BoundingBox(
            x: track.box.x + v.x * t, y: track.box.y + v.y * t, width: max(1, track.box.width + v.width * t),
            height: max(1, track.box.height + v.height * t))
    }

    /// `box` with `fraction` of its width and height added around it (half on each side).
    static func grown(_ box: BoundingBox, by fraction: Double) -> BoundingBox {
        let dx = box.width * fraction / 2
        let dy = box.height * fraction / 2
        return BoundingBox(x: box.x - dx, y: box.y - dy, width: box.width + 2 * dx, height: box.height + 2 * dy)
    }
}
