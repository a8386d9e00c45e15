import StreamLensCore

/// Gives detections stable track ids across analysed frames by box overlap, smooths their boxes and holds them
/// through short occlusions.
///
/// Each ``update(_:at:)``:
/// 1. pairs detections with live tracks greedily, highest IoU first; a track's IoU is the better of its last
///    observed box and that box moved by its estimated velocity to the new time (walkers move a good part of
///    their width between analyses); pairs below ``TrackerConfiguration/matchThreshold`` or of another class
///    never pair;
/// 2. moves each paired track's box towards the detection by an exponential moving average
///    (`box = α·detected + (1 − α)·prior`, α = ``TrackerConfiguration/smoothing``), where the prior is the
///    previous smoothed box moved by the track's estimated velocity, so smoothing removes jitter without
///    trailing behind a walker (with ``TrackerConfiguration/motionSmoothing`` 0 the prior is the previous box:
///    a plain EMA);
/// 3. starts a track (next id, from 1) for each unpaired detection;
/// 4. counts a miss for each unpaired track; tracks missed more than ``TrackerConfiguration/maxMissedAnalyses``
///    times in a row, or unseen for longer than ``TrackerConfiguration/maxAge``, end;
/// 5. reports at most ``TrackerConfiguration/maxConcurrent`` tracks (seen now before held ones, then by
///    confidence), or only the locked primary subject in primary-subject mode; a held track missed more than
///    ``TrackerConfiguration/maxMissedAnalysesShown`` times in a row is not reported.
///
/// ## Thread Safety
/// Not synchronized: owned by one analysis stage and used from its analysis thread only.
public final class IoUTracker {
    /// What one update produced.
    public struct Update: Sendable, Equatable {
        /// Tracks to show now, with ``Detection/trackID`` set and smoothed boxes.
        public var visible: [Detection]
        /// The detections fed to this update as they were (raw boxes), each with the id of the track it
        /// continued or started; empty for ``IoUTracker/advance(to:)``.
        public var observed: [Detection]
        /// Tracks that ended in this update.
        public var finished: [FinishedTrack]
    }

    private struct Track {
        var id: Int
        var className: String
        var classID: Int
        /// What the tracker shows (EMA of the observations).
        var smoothedBox: BoundingBox
        /// The newest observation, used for matching (it does not lag like the smoothed box).
        var observedBox: BoundingBox
        /// Estimated motion of the observed box's centre, in pixels per second.
        var velocity: (x: Double, y: Double)
        var confidence: Double
        var peakConfidence: Double
        var start: Duration
        var lastSeen: Duration
        var observations: Int
        var missed: Int
        /// Reported at least once in ``Update/visible``.
        var shown: Bool
    }

    private struct Pair {
        var track: Int
        var detection: Int
        var overlap: Double
    }

    /// The tuning in force.
    public let configuration: TrackerConfiguration
    private var tracks: [Track] = []
    private var nextID = 1
    private var primaryID: Int?
    // Scratch space reused across updates.
    private var pairs: [Pair] = []
    private var trackMatched: [Bool] = []
    private var detectionMatched: [Bool] = []

    /// Tracks started since creation.
    public private(set) var tracksStarted = 0

    /// A tracker with no tracks; ids start at 1. Call ``TrackerConfiguration/validate()`` first for user input.
    public init(configuration: TrackerConfiguration = TrackerConfiguration()) {
        self.configuration = configuration
    }

    /// Number of live tracks (shown or held).
    public var liveTrackCount: Int { tracks.count }

    /// Feeds the detections of the frame analysed at `pts`.
    public func update(_ detections: [Detection], at pts: Duration) -> Update {
        associate(detections, at: pts)
        var observed = detections
        let alpha = configuration.smoothing
        for (index, matched) in trackMatched.enumerated() where !matched {
            tracks[index].missed += 1
        }
        for pair in pairs {
            let detection = detections[pair.detection]
            // A track's second sighting is its first displacement: before it the motion is unknown, so a prior at
            // rest would pull the box back towards the first sighting (a walker's box trailed by 0.65 of a step,
            // then settled over several analyses). The second sighting is drawn as observed and sets the velocity.
            let firstDisplacement = tracks[pair.track].observations == 1 && configuration.motionSmoothing > 0
            let prior = firstDisplacement ? detection.box : Self.predictedBox(
                of: (tracks[pair.track].smoothedBox, tracks[pair.track].lastSeen, tracks[pair.track].velocity), at: pts)
            tracks[pair.track].smoothedBox = Self.blend(prior, detection.box, alpha: alpha)
            tracks[pair.track].velocity = velocity(of: tracks[pair.track], movingTo: detection.box, at: pts)
            tracks[pair.track].observedBox = detection.box
            tracks[pair.track].confidence = detection.confidence
            tracks[pair.track].peakConfidence = max(tracks[pair.track].peakConfidence, detection.confidence)
            tracks[pair.track].lastSeen = pts
            tracks[pair.track].observations += 1
            tracks[pair.track].missed = 0
            observed[pair.detection].trackID = tracks[pair.track].id
        }
        for (index, detection) in detections.enumerated() where !detectionMatched[index] {
            tracks.append(Track(
                id: nextID, className: detection.className, classID: detection.classID, smoothedBox: detection.box,
                observedBox: detection.box, velocity: (0, 0), confidence: detection.confidence,
                peakConfidence: detection.confidence, start: pts, lastSeen: pts, observations: 1, missed: 0,
                shown: false))
            observed[index].trackID = nextID
            nextID += 1
            tracksStarted += 1
        }
        let finished = endTracks(at: pts, includeMissed: true)
        return Update(visible: visibleDetections(), observed: observed, finished: finished)
    }

    /// No analysis at `pts` (the detector is backing off or its circuit is open): nothing is counted as missed,
    /// but tracks unseen for longer than ``TrackerConfiguration/maxAge`` end.
    public func advance(to pts: Duration) -> Update {
        let finished = endTracks(at: pts, includeMissed: false)
        return Update(visible: visibleDetections(), observed: [], finished: finished)
    }

    /// Ends every live track (end of stream).
    public func finishAll(at pts: Duration) -> [FinishedTrack] {
        let finished = tracks.map { Self.finished($0, reason: .streamEnded) }
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

    /// Where `track`'s last observation would be at `pts` if it kept moving as estimated.
    static func predictedBox(of track: (box: BoundingBox, lastSeen: Duration, velocity: (x: Double, y: Double)),
                             at pts: Duration) -> BoundingBox {
        let elapsed = max(0, (pts - track.lastSeen).seconds)
        var box = track.box
        box.x += track.velocity.x * elapsed
        box.y += track.velocity.y * elapsed
        return box
    }

    /// New velocity estimate: the centre displacement per second since the last observation, blended into the
    /// old estimate with weight ``TrackerConfiguration/motionSmoothing``; the first displacement sets it.
    private func velocity(of track: Track, movingTo box: BoundingBox, at pts: Duration) -> (x: Double, y: Double) {
        let elapsed = (pts - track.lastSeen).seconds
        let weight = configuration.motionSmoothing
        guard elapsed > 0, weight > 0 else { return track.velocity }
        let measuredX = (box.center.x - track.observedBox.center.x) / elapsed
        let measuredY = (box.center.y - track.observedBox.center.y) / elapsed
        if track.observations == 1 { return (measuredX, measuredY) }
        return (weight * measuredX + (1 - weight) * track.velocity.x, weight * measuredY + (1 - weight) * track.velocity.y)
    }

    /// Greedy association: all admissible (track, detection) pairs, best overlap first, each side used once.
    private func associate(_ detections: [Detection], at pts: Duration) {
        pairs.removeAll(keepingCapacity: true)
        for (trackIndex, track) in tracks.enumerated() {
            let predicted = Self.predictedBox(of: (track.observedBox, track.lastSeen, track.velocity), at: pts)
            for (detectionIndex, detection) in detections.enumerated() {
                if configuration.matchClassNames && detection.className != track.className { continue }
                // The better of "where it was" and "where it should be now": prediction helps walkers, but must
                // not lose a box that simply stayed where it was while its estimated velocity was noise.
                let overlap = max(
                    track.observedBox.intersectionOverUnion(detection.box), predicted.intersectionOverUnion(detection.box))
                if overlap >= configuration.matchThreshold && overlap > 0 {
                    pairs.append(Pair(track: trackIndex, detection: detectionIndex, overlap: overlap))
                }
            }
        }
        // Ties broken by index so the result never depends on sort stability.
        pairs.sort {
            ($0.overlap, -$0.track, -$0.detection) > ($1.overlap, -$1.track, -$1.detection)
        }
        trackMatched.removeAll(keepingCapacity: true)
        trackMatched.append(contentsOf: repeatElement(false, count: tracks.count))
        detectionMatched.removeAll(keepingCapacity: true)
        detectionMatched.append(contentsOf: repeatElement(false, count: detections.count))
        var kept = 0
        for index in pairs.indices {
            let pair = pairs[index]
            guard !trackMatched[pair.track], !detectionMatched[pair.detection] else { continue }
            trackMatched[pair.track] = true
            detectionMatched[pair.detection] = true
            pairs[kept] = pair
            kept += 1
        }
        pairs.removeLast(pairs.count - kept)
    }

    private func endTracks(at pts: Duration, includeMissed: Bool) -> [FinishedTrack] {
        var finished: [FinishedTrack] = []
        tracks.removeAll { track in
            if pts - track.lastSeen > configuration.maxAge {
                finished.append(Self.finished(track, reason: .expired))
                return true
            }
            if includeMissed && track.missed > configuration.maxMissedAnalyses {
                finished.append(Self.finished(track, reason: .lost))
                return true
            }
            return false
        }
        if let primaryID, !tracks.contains(where: { $0.id == primaryID }) { self.primaryID = nil }
        return finished
    }

    /// The tracks to report now; marks them as shown.
    private func visibleDetections() -> [Detection] {
        var chosen: [Int]
        if configuration.primarySubjectOnly {
            if primaryID == nil {
                // Lock onto the largest box seen now; ties go to the older track.
                primaryID = tracks.filter { $0.missed == 0 }
                    .max { ($0.smoothedBox.area, -$0.id) < ($1.smoothedBox.area, -$1.id) }?.id
            }
            chosen = tracks.indices.filter { tracks[$0].id == primaryID }
        } else {
            chosen = tracks.indices.sorted {
                let (a, b) = (tracks[$0], tracks[$1])
                return (a.missed == 0 ? 1 : 0, a.confidence, -a.id) > (b.missed == 0 ? 1 : 0, b.confidence, -b.id)
            }
            if chosen.count > configuration.maxConcurrent { chosen.removeLast(chosen.count - configuration.maxConcurrent) }
        }
        chosen.removeAll { tracks[$0].missed > configuration.maxMissedAnalysesShown }
        return chosen.map { index in
            tracks[index].shown = true
            return Self.detection(tracks[index])
        }
    }

    private static func detection(_ track: Track) -> Detection {
        Detection(
            box: track.smoothedBox, className: track.className, classID: track.classID,
            confidence: track.confidence, trackID: track.id)
    }

    private static func finished(_ track: Track, reason: FinishedTrack.EndReason) -> FinishedTrack {
        FinishedTrack(
            trackID: track.id, className: track.className, classID: track.classID, start: track.start,
            end: track.lastSeen, peakConfidence: track.peakConfidence, lastBox: track.smoothedBox,
            observations: track.observations, wasShown: track.shown, reason: reason)
    }
}
