import StreamLensCore

/// `{"type":"detection", …}`: one object seen in one analysed frame (raw box, source pixels).
struct DetectionEvent: Encodable {
    let type = "detection"
    var stage: String
    /// Stream time of the analysed frame, in seconds; a detection is an instant, so `end` equals `start`.
    var start: Double
    var end: Double
    var className: String
    var classID: Int
    var confidence: Double
    var trackID: Int?
    /// `[x, y, w, h]` in whole source pixels.
    var box: [Int]

    enum CodingKeys: String, CodingKey {
        case type, stage, start, end, confidence, box
        case className = "class"
        case classID = "class_id"
        case trackID = "track_id"
    }

    init(stage: String, pts: Duration, detection: Detection) {
        self.stage = stage
        start = EventTime.seconds(pts)
        end = start
        className = detection.className
        classID = detection.classID
        confidence = EventTime.rounded(detection.confidence)
        trackID = detection.trackID
        box = detection.box.rounded
    }
}

/// `{"type":"track", …}`: one finished track, from its first to its last sighting.
struct TrackEvent: Encodable {
    let type = "track"
    var stage: String
    var start: Double
    var end: Double
    var className: String
    var classID: Int
    /// Highest confidence over the track.
    var confidence: Double
    var trackID: Int
    /// Last smoothed box, `[x, y, w, h]` in whole source pixels.
    var box: [Int]
    var observations: Int
    /// `lost`, `expired` or `stream_ended`.
    var reason: String

    enum CodingKeys: String, CodingKey {
        case type, stage, start, end, confidence, box, observations, reason
        case className = "class"
        case classID = "class_id"
        case trackID = "track_id"
    }

    init(stage: String, track: FinishedTrack) {
        self.stage = stage
        start = EventTime.seconds(track.start)
        end = EventTime.seconds(track.end)
        className = track.className
        classID = track.classID
        confidence = EventTime.rounded(track.peakConfidence)
        trackID = track.trackID
        box = track.lastBox.rounded
        observations = track.observations
        reason = track.reason.rawValue
    }
}

/// Number formatting shared by the events: times to the microsecond, scores to four decimals.
enum EventTime {
    static func seconds(_ duration: Duration) -> Double { (duration.seconds * 1_000_000).rounded() / 1_000_000 }
    static func rounded(_ score: Double) -> Double { (score * 10_000).rounded() / 10_000 }
}
