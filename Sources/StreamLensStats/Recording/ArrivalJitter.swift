import StreamLensCore

/// Inter-arrival jitter of the source: how much the spacing of arrivals differs from the spacing of their
/// presentation timestamps.
///
/// For consecutive frames, D = Δarrival − ΔPTS. The running estimate follows RFC 3550 (section 6.4.1):
/// J += (|D| − J) / 16, and every |D| also goes into a histogram for percentiles. A frame flagged as a
/// discontinuity, or without a timestamp, or whose timestamp went backwards, starts the comparison afresh.
struct ArrivalJitter: Sendable {
    /// The RFC 3550 running estimate, in milliseconds.
    private(set) var runningEstimateMilliseconds = 0.0
    private(set) var histogram = DurationHistogram()
    private var previous: (arrival: Duration, pts: Duration)?

    mutating func frameArrived(pts: Duration?, at arrival: Duration, discontinuity: Bool) {
        guard let pts else {
            previous = nil
            return
        }
        defer { previous = (arrival, pts) }
        guard let previous, !discontinuity, pts >= previous.pts else { return }
        let difference = (arrival - previous.arrival) - (pts - previous.pts)
        let magnitude = difference < .zero ? .zero - difference : difference
        runningEstimateMilliseconds += (magnitude.reportMilliseconds - runningEstimateMilliseconds) / 16
        histogram.record(magnitude)
    }

    /// The next frame starts the comparison afresh (the pipeline was paused: its arrival says nothing of the source).
    mutating func restart() { previous = nil }
}

/// Finds holes in the source's timestamps: frames the source never delivered (not drops: they never reached us).
///
/// A PTS step larger than 1.5 × the nominal frame duration is one gap event, missing round(step / nominal) − 1
/// frames. A discontinuity flag on any frame but the first (GStreamer flags the first buffer of a stream) is a gap
/// event too; the frames it skipped are counted the same way when its step forward is at most
/// ``longestCountedDiscontinuity`` (a damaged stretch of a file: 18 frames lost to zeroed bytes would otherwise count
/// none), not over a longer or backward step (a restarted timeline, a clock that jumped). Without a nominal frame
/// duration only flags count.
struct GapDetector: Sendable {
    var nominalFrameDuration: Duration?
    private(set) var events = 0
    private(set) var missingFrames = 0
    private(set) var discontinuities = 0
    private var previousPTS: Duration?
    private var seenFirstFrame = false

    /// The longest step forward over a discontinuity whose skipped frames are counted.
    static let longestCountedDiscontinuity: Duration = .seconds(10)

    /// Returns true when this frame follows a gap.
    @discardableResult
    mutating func frameArrived(pts: Duration?, discontinuity: Bool) -> Bool {
        defer {
            seenFirstFrame = true
            if let pts { previousPTS = pts }
        }
        let flagged = discontinuity && seenFirstFrame
        if flagged { discontinuities += 1 }
        var jumped = false
        if let pts, let previousPTS, let nominal = nominalFrameDuration, nominal > .zero {
            let step = pts - previousPTS
            if FrameStep.skipsFrames(step, nominal: nominal), !flagged || step <= Self.longestCountedDiscontinuity {
                jumped = true
                missingFrames += max(1, Int((step / nominal).rounded()) - 1)
            }
        }
        if flagged || jumped { events += 1 }
        return flagged || jumped
    }

    /// The next frame starts the stream afresh, as the first one did: the pipeline was paused, and a live source's
    /// timestamps skip the time it was not capturing.
    mutating func restart() {
        previousPTS = nil
        seenFirstFrame = false
    }
}
