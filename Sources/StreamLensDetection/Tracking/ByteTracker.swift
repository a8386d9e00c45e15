import StreamLensCore

/// Gives detections stable track ids across analysed frames, ByteTrack's way: a constant-velocity Kalman filter per
/// track predicts where it is at the new frame's stream time, and detections are assigned to predicted boxes
/// optimally (least total `1 − IoU`, ``LinearAssignment``), in rounds.
///
/// Each ``update(_:lowConfidence:at:)``:
/// 1. predicts every track to `pts` (``KalmanBoxFilter``; a lost track's size is held);
/// 2. assigns the confident detections to the confirmed tracks, lost ones included (IoU ≥
///    ``TrackerConfiguration/matchThreshold``): a lost track keeps its id for
///    ``TrackerConfiguration/reidentificationWindow`` and comes back when a detection lands on its predicted box;
/// 3. assigns the low-confidence detections to the confirmed tracks still unmatched that were seen at the previous
///    analysis (IoU ≥ ``TrackerConfiguration/lowConfidenceMatchThreshold``): a partly hidden or blurred object
///    whose score dropped continues its track, yet such a box never starts one;
/// 4. assigns the confident detections left to the tentative tracks (seen once, not yet confirmed);
///    a track seen once has no velocity yet, so its overlaps are taken between boxes widened by
///    ``TrackerConfiguration/unknownMotionMargin``;
/// 5. starts a tentative track for each confident detection left. A track is confirmed, and gets the next id (from 1),
///    at its ``TrackerConfiguration/confirmationHits``-th sighting within the re-identification window (not
///    necessarily in a row: HOG at a 0.3 s cadence sees a walker on one analysis in three, and "in a row" left the
///    demo's cyclist without a box, RunCommandTests.builtInDemoReadsItsSignAndWritesEveryOutput); on the tracker's
///    first analysed frame at once. One-frame false detections never get an id;
/// 6. counts a miss for each unmatched track; a track missed more than ``TrackerConfiguration/maxMissedAnalyses``
///    times in a row, or unseen for longer than the re-identification window, ends;
/// 7. reports at most ``TrackerConfiguration/maxConcurrent`` confirmed tracks (seen now before held ones, then by
///    confidence), or only the locked primary subject in primary-subject mode; a held track missed more than
///    ``TrackerConfiguration/maxMissedAnalysesShown`` times in a row is not reported.
///
/// Boxes never pair across classes (with ``TrackerConfiguration/matchClassNames``, the default). The drawn box is
/// `α·detected + (1 − α)·predicted` (α = ``TrackerConfiguration/smoothing``); a track's second sighting, before its
/// motion is known, is drawn as detected.
///
/// ## Thread Safety
/// Not synchronized: owned by one analysis stage and used from its analysis thread only.
public final class ByteTracker {
    /// What one update produced.
    public struct Update: Sendable, Equatable {
        /// Tracks to show now, with ``Detection/trackID`` set.
        public var visible: [Detection]
        /// The confident detections fed to this update as they were (raw boxes), each with the id of the confirmed
        /// track it continued or started (nil while its track is tentative), then the low-confidence detections that
        /// continued a track; empty for ``ByteTracker/advance(to:)``.
        public var observed: [Detection]
        /// Confirmed tracks that ended in this update.
        public var finished: [FinishedTrack]
    }

    struct Track {
        /// Nil while tentative.
        var id: Int?
        var className: String
        var classID: Int
        var filter: KalmanBoxFilter
        /// The stream time the filter's state is for.
        var filterTime: Duration
        /// What the tracker shows.
        var shownBox: BoundingBox
        var confidence: Double
        var peakConfidence: Double
        var start: Duration
        var lastSeen: Duration
        var observations: Int
        var missed: Int
        /// Reported at least once in ``Update/visible``.
        var shown: Bool
        var confirmed: Bool { id != nil }
    }

    /// The tuning in force.
    public let configuration: TrackerConfiguration
    private(set) var tracks: [Track] = []
    private var nextID = 1
    private var primaryID: Int?
    private var firstUpdate = true

    /// Tracks confirmed (ids given) since creation.
    public private(set) var tracksStarted = 0

    /// A tracker with no tracks; ids start at 1. Call ``TrackerConfiguration/validate()`` first for user input.
    public init(configuration: TrackerConfiguration = TrackerConfiguration()) {
        self.configuration = configuration
    }

    /// Number of live tracks (tentative, shown or held).
    public var liveTrackCount: Int { tracks.count }

    /// Feeds the detections of the frame analysed at `pts`: `detections` at or above the confidence threshold, and
    /// `lowConfidence` ones below it (down to the tracking floor), which only continue tracks.
    public func update(_ detections: [Detection], lowConfidence: [Detection] = [], at pts: Duration) -> Update {
        var predicted: [BoundingBox] = []
        predicted.reserveCapacity(tracks.count)
        for index in tracks.indices {
            if tracks[index].missed > 0 { tracks[index].filter.holdSize() }
            tracks[index].filter.predict(by: (pts - tracks[index].filterTime).seconds)
            tracks[index].filterTime = max(tracks[index].filterTime, pts)
            predicted.append(tracks[index].filter.box)
        }
        var trackTaken = [Bool](repeating: false, count: tracks.count)
        var highTaken = [Bool](repeating: false, count: detections.count)
        var lowTaken = [Bool](repeating: false, count: lowConfidence.count)
        var matches: [(track: Int, detection: Detection, observedIndex: Int?)] = []

        // The rounds: which tracks, which detections, how much overlap.
        let confirmed = tracks.indices.filter { tracks[$0].confirmed }
        for (track, detection) in associate(
            confirmed, detections.indices.map { $0 }, detections, predicted, threshold: configuration.matchThreshold)
        {
            trackTaken[track] = true
            highTaken[detection] = true
            matches.append((track, detections[detection], detection))
        }
        let recent = confirmed.filter { !trackTaken[$0] && tracks[$0].missed == 0 }
        for (track, detection) in associate(
            recent, lowConfidence.indices.map { $0 }, lowConfidence, predicted,
            threshold: configuration.lowConfidenceMatchThreshold)
        {
            trackTaken[track] = true
            lowTaken[detection] = true
            matches.append((track, lowConfidence[detection], nil))
        }
        let tentative = tracks.indices.filter { !tracks[$0].confirmed }
        for (track, detection) in associate(
            tentative, detections.indices.filter { !highTaken[$0] }, detections, predicted,
            threshold: configuration.matchThreshold)
        {
            trackTaken[track] = true
            highTaken[detection] = true
            matches.append((track, detections[detection], detection))
        }

        var observed = detections
        var observedLow: [Detection] = []
        for match in matches {
            observe(track: match.track, match.detection, predicted: predicted[match.track], at: pts)
            let id = tracks[match.track].id
            if let index = match.observedIndex {
                observed[index].trackID = id
            } else {
                var low = match.detection
                low.trackID = id
                observedLow.append(low)
            }
        }
        // Tracks the detections of this frame did not continue; tentative ones wait (unreported) for a second
        // sighting until the window ends them like any track.
        for index in tracks.indices where !trackTaken[index] {
            tracks[index].missed += 1
            tracks[index].shownBox = predicted[index]
        }
        for (index, detection) in detections.enumerated() where !highTaken[index] {
            tracks.append(Track(
                id: nil, className: detection.className, classID: detection.classID,
                filter: KalmanBoxFilter(box: detection.box, noise: configuration.noise), filterTime: pts,
                shownBox: detection.box, confidence: detection.confidence, peakConfidence: detection.confidence,
                start: pts, lastSeen: pts, observations: 1, missed: 0, shown: false))
            if firstUpdate || configuration.confirmationHits <= 1 { confirm(tracks.count - 1) }
            observed[index].trackID = tracks[tracks.count - 1].id
        }
        firstUpdate = false
        let finished = endTracks(at: pts, afterAnalysis: true)
        return Update(visible: visibleDetections(), observed: observed + observedLow, finished: finished)
    }

    /// No analysis at `pts` (the detector is backing off or its circuit is open): nothing is counted as missed,
    /// but tracks unseen for longer than ``TrackerConfiguration/maxAge`` end.
    public func advance(to pts: Duration) -> Update {
        let finished = endTracks(at: pts, afterAnalysis: false)
        return Update(visible: visibleDetections(), observed: [], finished: finished)
    }

    /// Ends every live track (end of stream); tentative ones end unreported.
    public func finishAll(at pts: Duration) -> [FinishedTrack] {
        let finished = tracks.filter(\.confirmed).map { Self.finished($0, reason: .streamEnded) }
        tracks.removeAll()
        primaryID = nil
        return finished
    }

    /// `current` moved towards `observed` by `alpha`.
    public static func blend(_ current: BoundingBox, _ observed: BoundingBox, alpha: Double) -> BoundingBox {
        BoundingBox(
            x: alpha * observed.x + (1 - alpha) * current.x,
            y: alpha * observed.y + (1 - alpha) * current.y,
            width: alpha * observed.width + (1 - alpha) * current.width,
            height: alpha * observed.height + (1 - alpha) * current.height)
    }

    /// The optimal pairs of `trackIndices` and `detectionIndices` (of `detections`) whose predicted boxes overlap
    /// at least `threshold` (and above 0), same class where classes must match, as (track, detection) indices.
    private func associate(
        _ trackIndices: [Int], _ detectionIndices: [Int], _ detections: [Detection], _ predicted: [BoundingBox],
        threshold: Double
    ) -> [(Int, Int)] {
        guard !trackIndices.isEmpty, !detectionIndices.isEmpty else { return [] }
        let pairs = LinearAssignment.solve(rows: trackIndices.count, columns: detectionIndices.count) { row, column in
            let track = tracks[trackIndices[row]]
            let detection = detections[detectionIndices[column]]
            if configuration.matchClassNames && detection.className != track.className { return nil }
            // Seen once: the motion is unknown, the prediction is the first box; compare widened boxes.
            let margin = track.observations == 1 ? configuration.unknownMotionMargin : 0
            let overlap = Self.widened(predicted[trackIndices[row]], by: margin)
                .intersectionOverUnion(Self.widened(detection.box, by: margin))
            guard overlap >= threshold, overlap > 0 else { return nil }
            return 1 - overlap
        }
        return pairs.map { (trackIndices[$0.row], detectionIndices[$0.column]) }
    }

    /// `box` grown by `fraction` of its width and height on each side.
    static func widened(_ box: BoundingBox, by fraction: Double) -> BoundingBox {
        guard fraction > 0 else { return box }
        return BoundingBox(
            x: box.x - fraction * box.width, y: box.y - fraction * box.height, width: box.width * (1 + 2 * fraction),
            height: box.height * (1 + 2 * fraction))
    }

    private func observe(track index: Int, _ detection: Detection, predicted: BoundingBox, at pts: Duration) {
        // The second sighting is the first displacement: before it the motion is unknown and the prediction is the
        // first box, which would pull the drawn box back.
        tracks[index].shownBox = tracks[index].observations == 1
            ? detection.box : Self.blend(predicted, detection.box, alpha: configuration.smoothing)
        tracks[index].filter.update(with: detection.box)
        tracks[index].confidence = detection.confidence
        tracks[index].peakConfidence = max(tracks[index].peakConfidence, detection.confidence)
        tracks[index].lastSeen = pts
        tracks[index].observations += 1
        tracks[index].missed = 0
        if !tracks[index].confirmed && tracks[index].observations >= configuration.confirmationHits { confirm(index) }
    }

    private func confirm(_ index: Int) {
        tracks[index].id = nextID
        nextID += 1
        tracksStarted += 1
    }

    private func endTracks(at pts: Duration, afterAnalysis: Bool) -> [FinishedTrack] {
        var finished: [FinishedTrack] = []
        tracks.removeAll { track in
            if pts - track.lastSeen > configuration.maxAge {
                if track.confirmed { finished.append(Self.finished(track, reason: .expired)) }
                return true
            }
            if afterAnalysis
                && (track.missed > configuration.maxMissedAnalyses
                    || pts - track.lastSeen > configuration.reidentificationWindow)
            {
                if track.confirmed { finished.append(Self.finished(track, reason: .lost)) }
                return true
            }
            return false
        }
        if let primaryID, !tracks.contains(where: { $0.id == primaryID }) { self.primaryID = nil }
        return finished
    }

    /// The confirmed tracks to report now; marks them as shown.
    private func visibleDetections() -> [Detection] {
        var chosen: [Int]
        if configuration.primarySubjectOnly {
            if primaryID == nil {
                // Lock onto the largest box seen now; ties go to the older track.
                primaryID = tracks.filter { $0.confirmed && $0.missed == 0 }
                    .max { ($0.shownBox.area, -$0.id!) < ($1.shownBox.area, -$1.id!) }?.id
            }
            chosen = tracks.indices.filter { primaryID != nil && tracks[$0].id == primaryID }
        } else {
            chosen = tracks.indices.filter { tracks[$0].confirmed }.sorted {
                let (a, b) = (tracks[$0], tracks[$1])
                return (a.missed == 0 ? 1 : 0, a.confidence, -a.id!) > (b.missed == 0 ? 1 : 0, b.confidence, -b.id!)
            }
            if chosen.count > configuration.maxConcurrent { chosen.removeLast(chosen.count - configuration.maxConcurrent) }
        }
        chosen.removeAll { tracks[$0].missed > configuration.maxMissedAnalysesShown }
        return chosen.map { index in
            tracks[index].shown = true
            return Detection(
                box: tracks[index].shownBox, className: tracks[index].className, classID: tracks[index].classID,
                confidence: tracks[index].confidence, trackID: tracks[index].id)
        }
    }

    private static func finished(_ track: Track, reason: FinishedTrack.EndReason) -> FinishedTrack {
        FinishedTrack(
            trackID: track.id ?? 0, className: track.className, classID: track.classID, start: track.start,
            end: track.lastSeen, peakConfidence: track.peakConfidence, lastBox: track.shownBox,
            observations: track.observations, wasShown: track.shown, reason: reason)
    }
}
