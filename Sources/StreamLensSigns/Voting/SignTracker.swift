import StreamLensCore

/// A ring seen in one analysed frame, with its read when it had one.
struct SignSighting: Sendable {
    var analysisBox: BoundingBox
    var sourceBox: BoundingBox
    var reading: SpeedReading?
    /// What the sign's own words said, when they were read (US plates): "MINIMUM SPEED" rules its track out for good;
    /// "SPEED LIMIT" is remembered so that the words are not read again while the sign stays in view.
    var words: UsPlateWords?
    /// Whether the ring was read in this frame (a nil `reading` then means the read named no value).
    var wasRead: Bool
    /// The disc classifier called the ring's inside no speed value, surely (``SignTrack/NoSpeedValue``); set only
    /// where it matters, for a ring that would continue a confirmed sign after a frame that missed it.
    var looksLikeNoSpeedValue = false
    /// The text line's value when it was read too unsure to stand (``DiscReader/lastUnsureTextLineReading``).
    var unsureTextLineReading: SpeedReading?

    /// `wasRead` defaults to whether there is a reading.
    init(
        analysisBox: BoundingBox, sourceBox: BoundingBox, reading: SpeedReading?, words: UsPlateWords? = nil,
        wasRead: Bool? = nil
    ) {
        self.analysisBox = analysisBox
        self.sourceBox = sourceBox
        self.reading = reading
        self.words = words
        self.wasRead = wasRead ?? (reading != nil)
    }
}

/// Follows signs across analysed frames: associates each sighting with the track of the same physical sign (nearest
/// centre relative to the sign's size, similar size), opens tracks for new signs and closes tracks not seen for
/// ``timeout`` of stream time.
///
/// ## Thread Safety
/// Not synchronized: owned by one ``SpeedLimitStage`` and used on its analysis thread.
struct SignTracker {
    /// A track not seen for this long is closed: the sign has been passed.
    let timeout: Duration
    /// Reads kept per sign.
    let maximumReads: Int
    let vote: SignVote

    private(set) var openTracks: [SignTrack] = []
    private var nextID = 1
    private var claimed: [Bool] = []
    /// Every (sighting, track) pair that may be one sign, with its cost, for one frame's assignment.
    private var pairs: [(sighting: Int, track: Int, cost: Double)] = []
    /// The track each sighting of the frame continues; nil: none.
    private var continued: [Int?] = []

    init(timeout: Duration, maximumReads: Int, vote: SignVote) {
        precondition(timeout > .zero, "track timeout must be positive")
        precondition(maximumReads >= 1, "a sign needs at least one read")
        self.timeout = timeout
        self.maximumReads = maximumReads
        self.vote = vote
        openTracks.reserveCapacity(16)
        claimed.reserveCapacity(16)
        pairs.reserveCapacity(64)
        continued.reserveCapacity(16)
    }

    /// Whether a ring at `box` is worth reading: false when it continues a track whose reads are complete, or one
    /// that reads nothing and has not grown since its last read (``SignTrack/wantsRead(at:)``).
    func wantsRead(at box: BoundingBox) -> Bool {
        guard let index = bestTrack(for: box) else { return true }
        return openTracks[index].wantsRead(at: box)
    }

    /// Whether a ring at `box` would continue a confirmed sign that the last analysed frame did not show: such a ring
    /// must look like a speed sign to continue it (``SignTrack/NoSpeedValue``).
    func wouldResumeConfirmedSign(at box: BoundingBox) -> Bool {
        guard let index = bestTrack(for: box) else { return false }
        return openTracks[index].confirmedValue != nil && openTracks[index].missedSinceLastSeen > 0
    }

    /// Whether a plate at `box` continues a track whose words were already read as "SPEED LIMIT".
    func wordsSayLimit(at box: BoundingBox) -> Bool {
        guard let index = bestTrack(for: box) else { return false }
        return openTracks[index].wordsSayLimit
    }

    /// Adds the sightings of the frame at `pts` (the largest sign first) and moves tracks that ended into `closed`,
    /// oldest last sighting first.
    mutating func update(pts: Duration, sightings: [SignSighting], closed: inout [SignTrack]) {
        // A timestamp that jumps backwards (a loop, a new segment) ends every track.
        if openTracks.contains(where: { $0.lastSeen > pts }) { closeAll(into: &closed) }
        assignSightingsToTracks(sightings)
        for (sightingIndex, sighting) in sightings.enumerated() {
            if let index = continued[sightingIndex] { openTracks[index].record(sighting, pts: pts) }
        }
        for (sightingIndex, sighting) in sightings.enumerated() where continued[sightingIndex] == nil {
            // The same sign seen twice in one frame (its ring's inner and outer edge, or two cues): one sign, one
            // track — a second track would write a second event.
            if isSecondRing(sighting.analysisBox, claimed: claimed) { continue }
            var track = SignTrack(
                id: nextID, pts: pts, analysisBox: sighting.analysisBox, sourceBox: sighting.sourceBox,
                readCapacity: maximumReads)
            track.record(sighting, pts: pts)
            nextID += 1
            openTracks.append(track)
            claimed.append(true)
        }
        let timeout = self.timeout
        // A frame that ends a track (past its timeout) is not one in which it was missed.
        for index in openTracks.indices where !claimed[index] && pts - openTracks[index].lastSeen <= timeout {
            openTracks[index].noteMissed()
        }
        closeTracks(into: &closed) { pts - $0.lastSeen > timeout }
        splitSignsThatChangedValue(at: pts, closed: &closed)
        // Mark newly confirmed tracks: the order of confirmation picks the current limit. A sign still in view may
        // be seen again, so it needs the vote's full count of agreeing reads. A confirmed track's value is kept as the
        // vote names it, for its re-reads to be checked against.
        for index in openTracks.indices {
            if let decision = vote.decide(reads: openTracks[index].reads, sightings: nil) {
                openTracks[index].confirm(decision.reading.value, at: pts)
            }
        }
    }

    /// Pairs the frame's sightings with open tracks, the closest pair first (``SignTrack/associationCost(to:)``), each
    /// track and sighting at most once: fills ``continued`` and marks the tracks taken in ``claimed``. Taking the
    /// sightings in turn, the largest first, let a large ring beside a sign take the sign's track — a dark GTSDB "120"
    /// confirmed by then went on with the ring next to it, 0.8 of its size away, and the sign itself went to an older
    /// track — where the sign's own ring, a tenth of its size away, was the closer pair.
    private mutating func assignSightingsToTracks(_ sightings: [SignSighting]) {
        claimed.removeAll(keepingCapacity: true)
        claimed.append(contentsOf: repeatElement(false, count: openTracks.count))
        continued.removeAll(keepingCapacity: true)
        continued.append(contentsOf: repeatElement(nil, count: sightings.count))
        pairs.removeAll(keepingCapacity: true)
        for (sightingIndex, sighting) in sightings.enumerated() {
            for trackIndex in openTracks.indices where openTracks[trackIndex].mayResume(with: sighting) {
                if let cost = openTracks[trackIndex].associationCost(to: sighting.analysisBox) {
                    pairs.append((sightingIndex, trackIndex, cost))
                }
            }
        }
        // Ties keep the sightings' order (the largest first), as taking them in turn did.
        pairs.sort { ($0.cost, $0.sighting) < ($1.cost, $1.sighting) }
        for pair in pairs where continued[pair.sighting] == nil && !claimed[pair.track] {
            continued[pair.sighting] = pair.track
            claimed[pair.track] = true
        }
    }

    /// A sign whose re-reads say it changed value (``SignTrack/Recheck``) ends with its old value, and its new value
    /// goes on as a new track, confirmed now: two signs, two events.
    private mutating func splitSignsThatChangedValue(at pts: Duration, closed: inout [SignTrack]) {
        for index in openTracks.indices where openTracks[index].hasChangedValue {
            var next = openTracks[index].splitAtValueChange(newID: nextID)
            nextID += 1
            if let decision = vote.decide(reads: next.reads, sightings: nil) { next.confirm(decision.reading.value, at: pts) }
            closed.append(openTracks[index])
            openTracks[index] = next
        }
    }

    /// Closes every open track (end of stream).
    mutating func closeAll(into closed: inout [SignTrack]) {
        closeTracks(into: &closed) { _ in true }
    }

    /// The open track whose value was confirmed most recently, with its vote.
    func latestConfirmedTrack() -> (track: SignTrack, reading: SpeedReading)? {
        var latest: (track: SignTrack, reading: SpeedReading)?
        for track in openTracks {
            guard let confirmedAt = track.confirmedAt, let decision = vote.decide(reads: track.reads, sightings: nil)
            else { continue }
            if latest == nil || confirmedAt > latest!.track.confirmedAt! { latest = (track, decision.reading) }
        }
        return latest
    }

    private mutating func closeTracks(into closed: inout [SignTrack], where shouldClose: (SignTrack) -> Bool) {
        let firstNew = closed.count
        var index = 0
        while index < openTracks.count {
            if shouldClose(openTracks[index]) {
                closed.append(openTracks.remove(at: index))
            } else {
                index += 1
            }
        }
        closed[firstNew...].sort { $0.lastSeen < $1.lastSeen }
    }

    /// Whether `box` is centred inside a track already seen in this frame (the largest sighting comes first).
    private func isSecondRing(_ box: BoundingBox, claimed: [Bool]) -> Bool {
        openTracks.indices.contains { index in
            guard index < claimed.count, claimed[index], openTracks[index].lastSeenBoxContains(box.center) else {
                return false
            }
            return true
        }
    }

    /// The open track nearest `box` (``SignTrack/associationCost(to:)``).
    private func bestTrack(for box: BoundingBox) -> Int? {
        var best: (index: Int, cost: Double)?
        for index in openTracks.indices {
            guard let cost = openTracks[index].associationCost(to: box) else { continue }
            if best == nil || cost < best!.cost { best = (index, cost) }
        }
        return best?.index
    }
}
