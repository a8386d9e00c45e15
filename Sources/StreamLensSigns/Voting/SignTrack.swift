import StreamLensCore

/// One physical sign followed across analysed frames: where and when it was seen and what was read.
struct SignTrack: Sendable {
    let id: Int
    /// Reads kept at most (later sightings still extend the track but are not read).
    let maximumReads: Int
    private(set) var firstSeen: Duration
    private(set) var lastSeen: Duration
    /// Latest box, in analysis-frame pixels (for association).
    private(set) var lastAnalysisBox: BoundingBox
    /// Latest box, in source pixels (for the overlay).
    private(set) var lastSourceBox: BoundingBox
    /// First box, in source pixels (where the sign came into view).
    let firstSourceBox: BoundingBox
    /// Largest box seen, in source pixels: the nearest view.
    private(set) var largestSourceBox: BoundingBox
    /// Largest box of a sighting that was read, in source pixels: the nearest view whose ring geometry the digits
    /// confirmed (an unread sighting's ring may have merged with something red beside it). Written in the event.
    private(set) var largestReadSourceBox: BoundingBox?
    /// Frames in which the ring was seen, read or not.
    private(set) var sightings = 0
    /// Frames analysed while the track was open that did not show the sign.
    private(set) var framesMissed = 0
    /// Of those, the ones since its last sighting.
    private(set) var missedSinceLastSeen = 0
    /// Valid reads above the confidence threshold, oldest first, at most the tracker's limit.
    private(set) var reads: [SpeedReading] = []
    /// The text line's unsure reads of this sign, pooled over its sightings (``UnsureTextLine``).
    private var unsureTextLine = UnsureTextLine()
    /// A sighting showed the sign is no speed limit (its words say so): its reads are dropped and no more are taken,
    /// so the vote never confirms it, however clearly its number was read in other frames.
    private(set) var isRuledOut = false
    /// The sign's words were read as "SPEED LIMIT": they need not be read again.
    private(set) var wordsSayLimit = false
    /// Stream time at which the vote first confirmed a value (orders signs for the current limit).
    private(set) var confirmedAt: Duration?
    /// The value the vote names now (the latest that it named, when later reads made it undecided).
    private(set) var confirmedValue: Int?
    /// Re-reads of a confirmed sign whose reads are complete (``Recheck``) that named another value, in a row, with
    /// the times they were taken: a variable message sign that changed, another sign put up in the same place.
    private(set) var challengers: [(reading: SpeedReading, pts: Duration)] = []
    /// The last sighting whose re-read still named the confirmed value (or that was not re-read): where the old
    /// value ends when the sign turns out to have changed.
    private(set) var lastSeenAsConfirmed: Duration
    /// Reads in a row (the latest ones) that named no value.
    private(set) var fruitlessReadsInARow = 0
    /// Box of the latest read (analysis pixels), and sightings since it.
    private(set) var lastReadBox: BoundingBox?
    private(set) var sightingsSinceRead = 0
    /// Sizes (the larger side, analysis pixels) of the three latest sightings, oldest first (a tuple: no allocation).
    private var latestSizes: (Double, Double, Double) = (0, 0, 0)
    /// How far the sign's centre moved per analysed frame between its two latest sightings (analysis pixels); nil
    /// before its second sighting.
    private(set) var latestStep: (dx: Double, dy: Double)?

    init(id: Int, pts: Duration, analysisBox: BoundingBox, sourceBox: BoundingBox, readCapacity: Int) {
        self.id = id
        maximumReads = readCapacity
        firstSeen = pts
        lastSeen = pts
        lastAnalysisBox = analysisBox
        lastSourceBox = sourceBox
        firstSourceBox = sourceBox
        largestSourceBox = sourceBox
        lastSeenAsConfirmed = pts
        reads.reserveCapacity(readCapacity)
        challengers.reserveCapacity(Recheck.changedAfter)
    }

    /// Records that the vote names `value` after the sighting at `pts` (confirmed then, if not before).
    mutating func confirm(_ value: Int, at pts: Duration) {
        if confirmedAt == nil { confirmedAt = pts }
        confirmedValue = value
    }

    /// An analysed frame while the track was open did not show the sign.
    mutating func noteMissed() {
        framesMissed += 1
        missedSinceLastSeen += 1
    }

    mutating func record(_ sighting: SignSighting, pts: Duration) {
        let sourceBox = sighting.sourceBox
        if sightings > 0 {
            let frames = Double(missedSinceLastSeen + 1)
            latestStep = (
                (sighting.analysisBox.center.x - lastAnalysisBox.center.x) / frames,
                (sighting.analysisBox.center.y - lastAnalysisBox.center.y) / frames
            )
        }
        lastSeen = pts
        lastAnalysisBox = sighting.analysisBox
        missedSinceLastSeen = 0
        lastSourceBox = sourceBox
        latestSizes = (latestSizes.1, latestSizes.2, Reread.size(of: sighting.analysisBox))
        if sourceBox.area > largestSourceBox.area { largestSourceBox = sourceBox }
        sightings += 1
        if sighting.reading != nil, sourceBox.area > largestReadSourceBox?.area ?? 0 { largestReadSourceBox = sourceBox }
        switch sighting.words {
        case .otherWords:
            isRuledOut = true
            reads.removeAll()
        case .speedLimit: wordsSayLimit = true
        case .unreadable, nil: break
        }
        if sighting.wasRead {
            lastReadBox = sighting.analysisBox
            sightingsSinceRead = 0
            fruitlessReadsInARow = sighting.reading == nil ? fruitlessReadsInARow + 1 : 0
        } else {
            sightingsSinceRead += 1
        }
        // Pooled whatever the sighting read; it counts as the sighting's read only when there is no other.
        let pooled = sighting.unsureTextLineReading.flatMap { unsureTextLine.add($0) }
        if let reading = sighting.reading, wantsReads {
            reads.append(reading)
        } else if let pooled, wantsReads {
            reads.append(pooled)
        } else if let confirmedValue, !wantsReads, sighting.wasRead {
            recordRecheck(sighting.reading, confirmedValue: confirmedValue, pts: pts)
        }
        if challengers.isEmpty { lastSeenAsConfirmed = pts }
    }

    /// A re-read of a confirmed, fully read sign: the same value clears the challengers; another value named by a
    /// glyph reader adds one (a template match alone neither counts nor clears: it is the weakest evidence); a read
    /// that names nothing changes nothing.
    private mutating func recordRecheck(_ reading: SpeedReading?, confirmedValue: Int, pts: Duration) {
        guard let reading else { return }
        if reading.value == confirmedValue {
            challengers.removeAll(keepingCapacity: true)
        } else if !reading.namedByTemplatesOnly {
            if let first = challengers.first, first.reading.value != reading.value { challengers.removeAll(keepingCapacity: true) }
            challengers.append((reading, pts))
        }
    }

    /// Whether the re-reads say the sign now shows another value (``Recheck/changedAfter`` of them in a row, agreeing).
    var hasChangedValue: Bool { challengers.count >= Recheck.changedAfter }

    /// Splits a sign that changed value in place: this track ends where the old value was last seen, and the returned
    /// track, `id`, starts at the first re-read of the new value with the re-reads as its reads.
    mutating func splitAtValueChange(newID id: Int) -> SignTrack {
        let first = challengers[0]
        var next = SignTrack(
            id: id, pts: first.pts, analysisBox: lastAnalysisBox, sourceBox: lastSourceBox, readCapacity: maximumReads)
        next.lastSeen = lastSeen
        next.sightings = challengers.count
        next.largestReadSourceBox = lastSourceBox
        next.reads.append(contentsOf: challengers.map(\.reading))
        lastSeen = lastSeenAsConfirmed
        challengers.removeAll()
        return next
    }

    /// Whether another read would still count (the read list is not full and the sign was not ruled out).
    var wantsReads: Bool { !isRuledOut && reads.count < maximumReads }

    /// Whether the ring at `box`, continuing this track, is worth reading: another read would count, and the ring is
    /// not one that its recent reads all failed to name and that has not grown since (``Reread``). A sign the camera
    /// approaches grows from one analysed frame to the next, and a larger view of it may read; a ring that keeps its
    /// size is a red lamp, logo or piece of clothing whose next read would cost the same 15–50 ms for nothing.
    func wantsRead(at box: BoundingBox) -> Bool {
        guard wantsReads else {
            // A confirmed sign is still read now and then: it may change value in place.
            return confirmedValue != nil && !isRuledOut && sightingsSinceRead + 1 >= Recheck.every
        }
        guard fruitlessReadsInARow >= Reread.fruitlessReads, let lastReadBox,
            sightingsSinceRead + 1 < Reread.atLeastEvery
        else { return true }
        return Reread.hasGrown(from: lastReadBox, to: box)
            || (sightings >= 3 && Reread.size(of: box) >= (1 + Reread.growthOverThreeSightings) * latestSizes.0)
    }

    /// Text-line reads too unsure to stand alone (``RecogniserAgreement/unsureTextLineFloor``), pooled over a track's
    /// sightings: from the ``countsFrom``-th that names the same value on (the first does not count), each is a read
    /// of the sign, until one names another value — so three such sightings confirm a sign alone, and two back one
    /// sure read. One unsure read is a coin toss; the same value read off one sign on frame after frame, as the
    /// camera's view of it changes, is not.
    struct UnsureTextLine: Sendable {
        /// Agreeing unsure reads before they count as reads.
        static let countsFrom = 2
        /// The value they named; nil before the first.
        private var value: Int?
        private var count = 0
        /// They named two values: none counts any more.
        private var disagree = false

        /// Pools `reading`; returns it when it counts as a read of the sign.
        mutating func add(_ reading: SpeedReading) -> SpeedReading? {
            guard !disagree else { return nil }
            if let value, value != reading.value {
                disagree = true
                return nil
            }
            value = reading.value
            count += 1
            return count >= Self.countsFrom ? reading : nil
        }
    }

    /// When a confirmed sign whose reads are complete is read again, and when it has changed value. A sign passed on
    /// the road is out of view before it is rechecked a few times; one watched by a still camera (a variable message
    /// sign over a motorway) changes value under the same track, which would otherwise keep its first value for as
    /// long as it stays in view.
    enum Recheck {
        /// Read again on every this many sightings.
        static let every = 8
        /// Re-reads in a row that name the same other value before the sign counts as changed: more than the vote's
        /// two, since a confirmed value is being overturned.
        static let changedAfter = 3
    }

    /// When a ring that reads nothing is read again.
    enum Reread {
        /// Reads in a row that named no value before a ring that does not grow is passed over.
        static let fruitlessReads = 3
        /// Such a ring is still read on every this many sightings (the light changes; it may turn towards the camera).
        static let atLeastEvery = 8
        /// Growth of the ring's larger side since its last read that makes it worth reading again. The real-photo
        /// sets' signs grow at least 5.9 % from one analysed frame to the next; a frame whose growth the locator's
        /// jitter hides adds its growth to the next one's.
        static let growth = 0.05
        /// Growth over the three sightings before a ring's that makes it worth reading again, whatever its last read
        /// saw. The located size jitters by about ±5 % from frame to frame, so an approached sign can look no larger
        /// than at its last read: a soft "110" of the second real set, located 56, 52 and 59 px wide on consecutive
        /// frames, was passed over at 52 and 59, where it reads; a motion-smeared "80", 58 then 60 px tall, at 60,
        /// where it reads. Over three sightings such signs grow at least 19 %, a still ring's jitter rarely 10 %.
        static let growthOverThreeSightings = 0.10

        /// A ring's size for these rules: its larger side.
        static func size(of box: BoundingBox) -> Double { max(box.width, box.height) }

        static func hasGrown(from old: BoundingBox, to new: BoundingBox) -> Bool {
            let oldSize = size(of: old)
            return oldSize <= 0 || size(of: new) >= (1 + growth) * oldSize
        }
    }

    /// Whether `sighting`, the nearest ring to this track, may continue it. A confirmed sign that the last analysed
    /// frame did not show has often left the picture, and a ring in its place is something else: it continues the
    /// sign unless the disc classifier surely calls it no speed value and no read named one.
    func mayResume(with sighting: SignSighting) -> Bool {
        !(confirmedValue != nil && missedSinceLastSeen > 0 && sighting.reading == nil && sighting.looksLikeNoSpeedValue)
    }

    /// When the disc classifier's verdict counts as "no speed value" for ``mayResume(with:)``. On an x264 encode of
    /// the generated `sequence_50_then_80` clip, a van's rear window where a passed "50" had been was called so with
    /// margins 0.89–0.96 and continued the sign for 0.9 s; the sign itself, 30–64 px, was called 50 at 0.65–0.97.
    enum NoSpeedValue {
        /// The least margin of "no speed value" over the runner-up class.
        static let minimumMargin = 0.8
    }

    /// Whether `point` lies inside the latest box (analysis pixels).
    func lastSeenBoxContains(_ point: (x: Double, y: Double)) -> Bool {
        let box = lastAnalysisBox
        return point.x >= box.x && point.x <= box.x + box.width && point.y >= box.y && point.y <= box.y + box.height
    }

    /// Centre offset, relative to the larger box, under which two nested boxes are taken for one ring's two edges.
    /// A sign drifts about a tenth of its size between analysed frames; the window that a passed sign was once
    /// followed onto held its box a quarter of its size off centre
    /// (`SignTrackerTests.aRingHalfAgainLargerInTheNextFrameIsAnotherSign`).
    static let ringEdgesCentreOffset = 0.15

    /// How well a ring at `box` continues this track: nil when it cannot be the same sign, else a cost (lower is
    /// better): the centre distance relative to the sign's size — after missed frames, from the last sighting or
    /// from where the sign's motion led, whichever is nearer.
    func associationCost(to box: BoundingBox) -> Double? {
        let size = max(lastAnalysisBox.width, lastAnalysisBox.height)
        let newSize = max(box.width, box.height)
        guard size > 0, newSize > 0 else { return nil }
        let growth = newSize / size
        let dx = box.center.x - lastAnalysisBox.center.x
        let dy = box.center.y - lastAnalysisBox.center.y
        let distance = (dx * dx + dy * dy).squareRoot() / max(size, newSize)
        // An approached sign grows under 30 % between analysed frames even close up; a sign that left the view was
        // followed onto a rear window 2× its size (a QA sweep). After missed frames it may have grown more; so may
        // the same sign located at its ring's inner edge on one frame and its outer edge on the next — one box holds
        // the other round nearly the same centre (a dark GTSDB "120" at 51 px, then 84, centres a tenth apart).
        let ringEdges = distance < Self.ringEdgesCentreOffset
            && (box.contains(lastAnalysisBox) || lastAnalysisBox.contains(box))
        let maximumGrowth = missedSinceLastSeen == 0 && !ringEdges ? 1.5 : 2
        guard growth > 1 / maximumGrowth, growth < maximumGrowth else { return nil }
        // A sign moves less than one and a half of its sizes between analysed frames (a small sign drifting out at the
        // side of the view moves more than its own width in 80 ms); overlapping boxes always qualify. After frames that
        // missed it, it is looked for where its motion took it, or, seen once and so without a motion yet, farther
        // out for each frame missed. A real "100" drifting out at a third of its size per analysed frame was located
        // on frames 3, 6 and 11 of its clip, 1.5 of its sizes apart each time, read on the last two — three tracks
        // and no event (Road Sign Detection at 56–150 px, `sign_108`).
        let nearest: Double
        var reach = 1.5
        if missedSinceLastSeen > 0, let step = latestStep {
            let frames = Double(missedSinceLastSeen + 1)
            let offX = dx - step.dx * frames
            let offY = dy - step.dy * frames
            nearest = min(distance, (offX * offX + offY * offY).squareRoot() / max(size, newSize))
        } else {
            nearest = distance
            reach += Motion.reachPerMissedFrame * Double(min(missedSinceLastSeen, Motion.reachGrowsFor))
        }
        guard nearest < reach || lastAnalysisBox.intersectionOverUnion(box) > 0.1 else { return nil }
        if missedSinceLastSeen > 0, isBehindItsMotion(dx: dx, dy: dy, size: size) { return nil }
        return nearest
    }

    /// Whether a ring offset by (`dx`, `dy`) from the latest sighting lies back against the way the sign was moving,
    /// by more than ``Motion/mostBacktrack`` of its size. A sign missed for a frame or more comes back where its
    /// motion took it: a passed "130" drifting right at a quarter of its size per frame was resumed, four frames after
    /// it left, on a van's window 1.5 of its sizes to its left (`SignTrackerTests`). A sign that barely moved (under
    /// ``Motion/leastStep`` of its size per frame) has no direction to hold to.
    private func isBehindItsMotion(dx: Double, dy: Double, size: Double) -> Bool {
        guard let step = latestStep else { return false }
        let speed = (step.dx * step.dx + step.dy * step.dy).squareRoot()
        guard speed >= Motion.leastStep * size else { return false }
        let along = (dx * step.dx + dy * step.dy) / speed
        return along < -Motion.mostBacktrack * size
    }

    /// The direction check for a sign seen again after missed frames (``associationCost(to:)``).
    enum Motion {
        /// Least move per analysed frame, as a share of the sign's size, that gives the sign a direction.
        static let leastStep = 0.05
        /// Farthest back against that direction, as a share of the sign's size, that a ring may continue it.
        static let mostBacktrack = 0.5
        /// How much farther, as a share of its size, a sign seen only once may be found for each analysed frame that
        /// missed it since, for up to ``reachGrowsFor`` frames (2.5 of its sizes at most).
        static let reachPerMissedFrame = 0.25
        /// Missed frames over which that reach grows.
        static let reachGrowsFor = 4
    }
}
