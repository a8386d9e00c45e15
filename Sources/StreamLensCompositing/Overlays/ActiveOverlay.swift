import StreamLensCore

/// One overlay on screen (or fading): which rule made it, what it follows, when it started.
struct ActiveOverlay: Sendable {
    var ruleIndex: Int
    /// The followed detection's track id, when it has one.
    var trackID: Int?
    /// The followed detection's newest box (detection and event overlays).
    var box: BoundingBox?
    /// Main-stream PTS at which it appeared: the origin of its loop clock and of its age.
    var start: Duration
    /// PTS at which its detection was first missing from a newer analysis; nil while it is present.
    var goneSince: Duration?
    var matchedThisFrame = true
    /// Reached its maximum age while its detection is still there: hidden, and it keeps the detection from
    /// triggering a new overlay until the detection leaves.
    var isExpired = false
    /// The clip drawn last; drawn again while a clip of a new size is loading.
    var clip: (any OverlayClipSource)?

    init(ruleIndex: Int, start: Duration, box: BoundingBox? = nil, trackID: Int? = nil) {
        self.ruleIndex = ruleIndex
        self.start = start
        self.box = box
        self.trackID = trackID
    }

    /// Whether `detection` is the one this overlay follows: same track id, else a box overlapping the last one.
    func follows(_ detection: Detection) -> Bool {
        if let trackID, let other = detection.trackID { return trackID == other }
        guard let box else { return false }
        return box.intersectionOverUnion(detection.box) >= 0.3
    }
}
