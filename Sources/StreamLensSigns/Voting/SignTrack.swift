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
    /// Largest box seen, in source pixels: the nearest view, written in the event.
    private(set) var largestSourceBox: BoundingBox
    /// Frames in which the ring was seen, read or not.
    private(set) var sightings = 0
    /// Valid reads above the confidence threshold, oldest first, at most the tracker's limit.
    private(set) var reads: [SpeedReading] = []
    /// Stream time at which the vote first confirmed a value (orders signs for the current limit).
    var confirmedAt: Duration?

    init(id: Int, pts: Duration, analysisBox: BoundingBox, sourceBox: BoundingBox, readCapacity: Int) {
        self.id = id
        maximumReads = readCapacity
        firstSeen = pts
        lastSeen = pts
        lastAnalysisBox = analysisBox
        lastSourceBox = sourceBox
        largestSourceBox = sourceBox
        reads.reserveCapacity(readCapacity)
    }

    mutating func record(pts: Duration, analysisBox: BoundingBox, sourceBox: BoundingBox, reading: SpeedReading?) {
        lastSeen = pts
        lastAnalysisBox = analysisBox
        lastSourceBox = sourceBox
        if sourceBox.area > largestSourceBox.area { largestSourceBox = sourceBox }
        sightings += 1
        if let reading, reads.count < maximumReads { reads.append(reading) }
    }

    /// Whether another read would still count (the read list is not full).
    var wantsReads: Bool { reads.count < maximumReads }

    /// How well a ring at `box` continues this track: nil when it cannot be the same sign, else a cost (lower is
    /// better): the centre distance relative to the sign's size.
    func associationCost(to box: BoundingBox) -> Double? {
        let size = max(lastAnalysisBox.width, lastAnalysisBox.height)
        let newSize = max(box.width, box.height)
        guard size > 0, newSize > 0 else { return nil }
        let growth = newSize / size
        guard growth > 0.5, growth < 2 else { return nil }
        let dx = box.center.x - lastAnalysisBox.center.x
        let dy = box.center.y - lastAnalysisBox.center.y
        let distance = (dx * dx + dy * dy).squareRoot() / max(size, newSize)
        // A sign moves less than its own size between analysed frames; overlapping boxes always qualify.
        guard distance < 1 || lastAnalysisBox.intersectionOverUnion(box) > 0.1 else { return nil }
        return distance
    }
}
