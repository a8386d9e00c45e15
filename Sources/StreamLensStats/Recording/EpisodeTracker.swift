import StreamLensCore

/// Episodes of one kind (stalls or blocked periods): how many, and how long in total.
struct EpisodeTotals: Sendable, Equatable {
    var count = 0
    var total = Duration.zero
}

/// Tells a silent source (a *stall*) from a blocked downstream (*backpressure*).
///
/// - A **stall** opens when ``poll(at:poolFull:)`` finds no arrival for longer than the threshold while the pool is
///   not full; it lasts from the last arrival to the next arrival (or the end of the run).
/// - A **blocked** episode is time the producer spent waiting for a pool slot. Intervals closer than `mergeGap`
///   join into one episode: steady backpressure blocks every frame for a moment, and that is one episode. Its time
///   is the waits' own time, not the episode's span: under steady backpressure the span is nearly the whole run,
///   while the decoder waited only part of it.
///
/// A stall that turns out to overlap a blocked interval (reported after the fact) was backpressure, not a silent
/// source, and is withdrawn.
struct EpisodeTracker: Sendable {
    let stallThreshold: Duration
    let mergeGap: Duration

    private(set) var closedStalls = EpisodeTotals()
    private var openStallStart: Duration?
    /// The most recently closed stall, kept so a late blocked report can withdraw it.
    private var lastClosedStall: (start: Duration, end: Duration)?
    private var lastArrival: Duration?

    private var closedBlocked = EpisodeTotals()
    /// The episode being extended: its span, and the time actually waited in it.
    private var openBlocked: (start: Duration, end: Duration, waited: Duration)?

    init(stallThreshold: Duration, mergeGap: Duration) {
        self.stallThreshold = stallThreshold
        self.mergeGap = mergeGap
    }

    /// True while a stall episode is open.
    var isStalled: Bool { openStallStart != nil }

    /// A frame arrived at `time`: an open stall ends here. Returns the stall that ended, if any.
    @discardableResult
    mutating func frameArrived(at time: Duration) -> (start: Duration, end: Duration)? {
        defer { lastArrival = time }
        guard let start = openStallStart else { return nil }
        openStallStart = nil
        closedStalls.count += 1
        closedStalls.total += time - start
        lastClosedStall = (start, time)
        return (start, time)
    }

    /// Checks for a silent source at `time`.
    mutating func poll(at time: Duration, poolFull: Bool) {
        guard openStallStart == nil, !poolFull, let lastArrival, time - lastArrival > stallThreshold else { return }
        if let openBlocked, openBlocked.end >= lastArrival { return }
        openStallStart = lastArrival
    }

    /// Silence is measured from `time` from here on (the pipeline resumed after a pause), unless no frame came yet.
    mutating func restartSilence(at time: Duration) {
        if lastArrival != nil { lastArrival = time }
    }

    /// The producer waited for a pool slot from `start` to `end`. Returns a stall that this withdrew, if any.
    @discardableResult
    mutating func producerBlocked(from start: Duration, to end: Duration) -> (start: Duration, end: Duration)? {
        guard end > start else { return nil }
        var withdrawn: (start: Duration, end: Duration)?
        if let stallStart = openStallStart, end > stallStart {
            openStallStart = nil
            withdrawn = (stallStart, end)
        } else if let stall = lastClosedStall, start < stall.end, end > stall.start {
            closedStalls.count -= 1
            closedStalls.total -= stall.end - stall.start
            lastClosedStall = nil
            withdrawn = stall
        }
        if var current = openBlocked, start <= current.end + mergeGap {
            // Only the part of this wait after the episode's end so far is new waiting.
            current.waited += end - max(start, min(current.end, end))
            current.end = max(current.end, end)
            openBlocked = current
        } else {
            if let current = openBlocked {
                closedBlocked.count += 1
                closedBlocked.total += current.waited
            }
            openBlocked = (start, end, end - start)
        }
        return withdrawn
    }

    /// Stall totals, counting an open stall up to `time`.
    func stalls(at time: Duration) -> EpisodeTotals {
        var totals = closedStalls
        if let start = openStallStart {
            totals.count += 1
            totals.total += max(.zero, time - start)
        }
        return totals
    }

    /// Blocked totals, including the episode still being extended.
    var blocked: EpisodeTotals {
        var totals = closedBlocked
        if let current = openBlocked {
            totals.count += 1
            totals.total += current.waited
        }
        return totals
    }

    /// Ends the run at `time`: an open stall lasts until then. Returns the stall that ended, if any.
    @discardableResult
    mutating func finish(at time: Duration) -> (start: Duration, end: Duration)? {
        guard let start = openStallStart else { return nil }
        openStallStart = nil
        closedStalls.count += 1
        closedStalls.total += max(.zero, time - start)
        return (start, time)
    }
}
