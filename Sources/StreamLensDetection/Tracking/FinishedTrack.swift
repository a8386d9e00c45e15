import StreamLensCore

/// A track that has ended: what it was, from when to when, and where it was last.
public struct FinishedTrack: Sendable, Equatable {
    /// The id the track's detections carried.
    public var trackID: Int
    /// Class of the tracked object, as the detector named it.
    public var className: String
    public var classID: Int
    /// Stream time of the first and last analysed frame that saw it.
    public var start: Duration
    public var end: Duration
    /// Highest confidence over its observations.
    public var peakConfidence: Double
    /// Its last smoothed box (source pixels).
    public var lastBox: BoundingBox
    /// Analysed frames that saw it.
    public var observations: Int
    /// It was reported at least once (not always so beyond ``TrackerConfiguration/maxConcurrent`` or outside
    /// the primary subject).
    public var wasShown: Bool
    /// Why it ended.
    public var reason: EndReason

    /// Why a track ended.
    public enum EndReason: String, Sendable, Equatable {
        /// Missed by more analyses than ``TrackerConfiguration/maxMissedAnalyses``, or unseen for longer than
        /// ``TrackerConfiguration/reidentificationWindow``.
        case lost
        /// Not seen for longer than ``TrackerConfiguration/maxAge``.
        case expired
        /// The stream ended (``ByteTracker/finishAll(at:)``).
        case streamEnded = "stream_ended"
    }
}
