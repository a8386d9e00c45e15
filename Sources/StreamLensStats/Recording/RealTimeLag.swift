import StreamLensCore

/// How far a live source's frames fall behind real time: a frame that arrives later than its timestamp says,
/// counted from the frame that arrived most promptly so far.
///
/// Each frame's transit is arrival − PTS; its lag is its transit less the smallest transit seen. A source that keeps
/// pace (a camera, an RTP stream behind a jitter buffer, whatever its fixed delay) stays near 0; one that cannot keep
/// up — a decoder or test source starved of CPU, a network stream that buffered — grows by the video it owes. Latency
/// inside StreamLens cannot show that: each frame passes quickly, but later and later (a 1080p60 source on a loaded
/// core delivered 9 s of video in 14 s with a latency p50 of 0.5 ms).
///
/// A timestamp that goes backwards starts afresh (joined streams); a jump forward needs nothing (frames the source
/// never delivered were lost in real time). A reopened input's times are already moved onto the run's.
struct RealTimeLag: Sendable {
    private(set) var histogram = DurationHistogram()
    /// The latest frame's lag.
    private(set) var current: Duration?
    private var smallestTransit: Duration?
    private var previousPTS: Duration?

    mutating func frameArrived(pts: Duration?, at arrival: Duration) {
        guard let pts else { return }
        if let previousPTS, pts < previousPTS { smallestTransit = nil }
        previousPTS = pts
        let transit = arrival - pts
        let smallest = min(smallestTransit ?? transit, transit)
        smallestTransit = smallest
        let lag = transit - smallest
        current = lag
        histogram.record(lag)
    }

    /// The next frame starts afresh (a pause or a seek: the time it took is no lag of the source).
    mutating func restart() {
        smallestTransit = nil
        previousPTS = nil
        current = nil
    }
}
