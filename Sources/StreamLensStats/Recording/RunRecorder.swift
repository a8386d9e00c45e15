import StreamLensCore
import Synchronization

/// Records everything the frame path reports and turns it into a ``RunReport``: frame counts and drops by cause,
/// source gaps, jitter, latency and per-stage percentiles, stalls versus backpressure, throughput.
///
/// Memory is bounded: counters, fixed-size histograms, a downsampled timeline, and one entry per analysis stage —
/// nothing grows with the number of frames.
///
/// ## What the runner calls, and when
/// 1. ``runStarted(at:)`` when the pipeline starts playing, and ``setNominalFrameDuration(_:)`` once the frame rate
///    is known (it enables gap detection).
/// 2. Pass the recorder as the frame path's ``FramePathObserver``.
/// 3. ``poll(at:poolFull:)`` from the run loop about every 100 ms (stall detection, live frame rate), and
///    ``snapshot(at:)`` for the progress line or metrics.
/// 4. ``producerBlocked(from:to:)`` whenever the producer waited for a pool slot (optional: without it the
///    recorder uses ``FrameTiming/poolWait``).
/// 5. ``sinkReportedDrops(total:)`` with the sink's QoS totals.
/// 6. ``finish(at:)`` at the end (also after an interruption or error), then ``makeReport(context:)``.
///
/// ## Thread Safety
/// Every method may be called from any thread. Counters are atomics; histograms and episode state sit behind
/// three mutexes (source side, output side, analysis) held only for a few arithmetic steps, never across I/O other
/// than the optional timeline writer's buffered append.
public final class RunRecorder: FramePathObserver {
    public let configuration: RecorderConfiguration
    private let timeline: TimelineWriter?

    private let decoded = Atomic<Int>(0)
    private let output = Atomic<Int>(0)
    private let droppedPoolFull = Atomic<Int>(0)
    private let droppedLateAtSink = Atomic<Int>(0)
    private let droppedStreamError = Atomic<Int>(0)
    private let droppedInterrupted = Atomic<Int>(0)
    /// Frames counted as output that the output never wrote, and why (``outputFramesNotWritten(_:cause:)``).
    private let unwritten = Mutex<(count: Int, cause: DropCause)>((0, .streamError))
    /// The largest total the sink has reported (its counter only grows; reports may come out of order).
    private let sinkDropTotal = Atomic<UInt64>(0)
    private let decodeErrors = Atomic<Int>(0)
    private let reconnectAttempts = Atomic<Int>(0)
    private let reconnects = Atomic<Int>(0)
    private let reconnectNanoseconds = Atomic<Int64>(0)

    private let source: Mutex<SourceState>
    private let outputSide = Mutex(OutputState())
    private let analysis = Mutex<[String: AnalysisStageState]>([:])

    /// Creates a recorder; `timeline`, when given, receives one CSV row per frame as it happens.
    public init(configuration: RecorderConfiguration = RecorderConfiguration(), timeline: TimelineWriter? = nil) {
        self.configuration = configuration
        self.timeline = timeline
        source = Mutex(SourceState(configuration: configuration))
    }

    // MARK: - Run loop

    /// Marks the start of the run (the origin of every relative time). Without it the first event is the start.
    public func runStarted(at time: Duration) {
        source.withLock { state in state.note(time) }
    }

    /// The source's nominal frame duration (1 / frame rate): PTS steps above 1.5× this are gaps. Nil turns PTS gap
    /// detection off (discontinuity flags still count).
    public func setNominalFrameDuration(_ duration: Duration?) {
        source.withLock { $0.gaps.nominalFrameDuration = duration }
    }

    /// The producer waited for a pool slot from `start` to `end` (backpressure). Once the runner reports these,
    /// ``FrameTiming/poolWait`` no longer feeds the blocked episodes (it would count the same wait twice).
    public func producerBlocked(from start: Duration, to end: Duration) {
        source.withLock { state in
            state.usesReportedBlocking = true
            state.recordBlocked(from: start, to: end)
        }
    }

    /// Called by the run loop about every 100 ms with the clock's time. `poolFull` says whether every pool slot is
    /// busy; nil lets the recorder estimate it from frames in flight and ``RecorderConfiguration/poolCapacity``.
    public func poll(at time: Duration, poolFull: Bool? = nil) {
        let full = poolFull ?? estimatedPoolFull()
        let outputCount = output.load(ordering: .relaxed)
        source.withLock { state in
            state.note(time)
            if state.sourceEndedAt == nil, !state.paused { state.episodes.poll(at: time, poolFull: full) }
            state.rateSamples.append(time: time, count: outputCount)
        }
    }

    /// The pipeline was paused at `time` (a GStreamer application's PLAYING→PAUSED): the silence that follows is
    /// the user's, not a stall of the source.
    public func pipelinePaused(at time: Duration) {
        source.withLock { state in
            state.note(time)
            state.paused = true
            state.closeOpenStall(at: time)
        }
    }

    /// The pipeline plays again at `time`: the next frame's arrival and timestamp are compared with nothing before the
    /// pause (no jitter, gap or arrival interval across it), and silence is measured from here.
    public func pipelineResumed(at time: Duration) {
        source.withLock { state in
            state.paused = false
            state.restartTimeline(at: time)
        }
    }

    /// The stream was flushed at `time` (an application's seek): the next frame starts a new timeline, compared with
    /// nothing before it — the frames the seek skipped are no gap, the time it took no stall or jitter.
    public func timelineRestarted(at time: Duration) {
        source.withLock { $0.restartTimeline(at: time) }
    }

    /// The source reached its end at `time`: from here on silence is the end of the stream, not a stall (the
    /// output may still be draining).
    public func sourceEnded(at time: Duration) {
        source.withLock { state in
            state.note(time)
            guard state.sourceEndedAt == nil else { return }
            state.sourceEndedAt = time
            state.closeOpenStall(at: time)
        }
    }

    /// Ends the run at `time`: an open stall ends here, and the report's duration stops here.
    public func finish(at time: Duration) {
        source.withLock { state in
            state.note(time)
            state.finishedAt = time
            state.closeOpenStall(at: time)
        }
        timeline?.flush()
    }

    // MARK: - Input health

    /// A decoder or demuxer skipped damaged data (a warning or a damaged-data error on the input).
    public func decodeErrorReported() {
        decodeErrors.add(1, ordering: .relaxed)
    }

    /// The runner tried to reopen a lost live input.
    public func reconnectAttempted() {
        reconnectAttempts.add(1, ordering: .relaxed)
    }

    /// A lost live input came back: `outage` is the time from losing it to its first frame after.
    public func inputReconnected(after outage: Duration) {
        reconnects.add(1, ordering: .relaxed)
        reconnectNanoseconds.add(Int64(outage.reportMilliseconds * 1_000_000), ordering: .relaxed)
    }

    /// The run ended with a lost live input still away: `outage` counts as time without input, not as a reconnect.
    public func inputStayedLost(for outage: Duration) {
        reconnectNanoseconds.add(Int64(outage.reportMilliseconds * 1_000_000), ordering: .relaxed)
    }

    private var reconnectSummary: ReconnectSummary {
        ReconnectSummary(
            count: reconnects.load(ordering: .relaxed),
            totalMilliseconds: Double(reconnectNanoseconds.load(ordering: .relaxed)) / 1_000_000,
            attempts: reconnectAttempts.load(ordering: .relaxed))
    }

    /// The stream time of the first frame that arrived with one.
    public var firstFramePTS: Duration? { source.withLock { $0.firstPTS } }

    /// The latest stream time of a frame that arrived, if any had one.
    public var lastFramePTS: Duration? { source.withLock { $0.lastPTS } }

    // MARK: - FramePathObserver

    public func frameArrived(index: Int, pts: Duration?, at time: Duration, discontinuity: Bool) {
        decoded.add(1, ordering: .relaxed)
        source.withLock { state in
            state.note(time)
            let interval = state.lastArrival.map { time - $0 }
            state.lastArrival = time
            state.recentArrivals.store(index: index, arrival: time)
            if state.firstPTS == nil, let pts { state.firstPTS = pts }
            if let pts { state.lastPTS = max(state.lastPTS ?? pts, pts) }
            state.jitter.frameArrived(pts: pts, at: time, discontinuity: discontinuity)
            state.lag.frameArrived(pts: pts, at: time)
            state.gaps.frameArrived(pts: pts, discontinuity: discontinuity)
            if let stall = state.episodes.frameArrived(at: time) {
                state.series.recordEpisode(from: state.offset(stall.start), to: state.offset(stall.end), isStall: true)
            }
            state.series.recordArrival(at: state.offset(time), interval: interval)
        }
    }

    public func frameCutByStop(index: Int, pts: Duration?, at time: Duration) {
        // Counted as decoded, but kept out of the source's gaps and jitter: the stop, not the source, skipped frames.
        // The plotted arrivals count it (with no interval), as the CSV timeline's rows do.
        decoded.add(1, ordering: .relaxed)
        source.withLock { state in
            state.note(time)
            state.recentArrivals.store(index: index, arrival: time)
            state.series.recordArrival(at: state.offset(time), interval: nil)
        }
        frameDropped(index: index, pts: pts, cause: .interrupted, at: time)
    }

    public func frameDropped(index: Int, pts: Duration?, cause: DropCause, at time: Duration) {
        switch cause {
        case .poolFull: droppedPoolFull.add(1, ordering: .relaxed)
        case .lateAtSink: droppedLateAtSink.add(1, ordering: .relaxed)
        case .streamError: droppedStreamError.add(1, ordering: .relaxed)
        case .interrupted: droppedInterrupted.add(1, ordering: .relaxed)
        }
        let (origin, arrival) = source.withLock { state in
            state.note(time)
            state.series.recordDrop(at: state.offset(time))
            return (state.origin ?? time, state.recentArrivals.arrival(of: index))
        }
        timeline?.frameDropped(index: index, pts: pts, arrival: (arrival ?? time) - origin, cause: cause)
    }

    public func frameOutput(index: Int, pts: Duration?, timing: FrameTiming) {
        output.add(1, ordering: .relaxed)
        outputSide.withLock { state in
            state.latency.record(timing.latency)
            state.poolWait.record(timing.poolWait)
            state.composite.record(timing.compositeTime)
            state.push.record(timing.pushTime)
            if let lag = timing.analysisLag { state.analysisLag.record(lag) }
            if let pts {
                if let previous = state.previousOutput, pts >= previous.pts {
                    let difference = (timing.outputAt - previous.outputAt) - (pts - previous.pts)
                    state.pacing.record(difference < .zero ? .zero - difference : difference)
                }
                state.previousOutput = (timing.outputAt, pts)
                state.lastOutputPTS = pts
            }
        }
        let origin = source.withLock { state in
            state.note(timing.outputAt)
            if timing.poolWait > .zero && !state.usesReportedBlocking {
                state.recordBlocked(from: timing.arrival, to: timing.arrival + timing.poolWait)
            }
            return state.origin ?? timing.arrival
        }
        timeline?.frameOutput(index: index, pts: pts, timing: timing, origin: origin)
    }

    public func analysisSkipped(stage: String, pts: Duration) {
        analysis.withLock { stages in stages[stage, default: AnalysisStageState()].skipped += 1 }
    }

    public func analysisCompleted(stage: String, pts: Duration, latency: Duration, count: Int) {
        analysis.withLock { stages in
            stages[stage, default: AnalysisStageState()].latency.record(latency)
            stages[stage, default: AnalysisStageState()].detections += count
        }
    }

    public func analysisDrawn(stage: String, lag: Duration) {
        analysis.withLock { stages in stages[stage, default: AnalysisStageState()].drawnLag.record(lag) }
    }

    public func analysisFailed(stage: String, pts: Duration, error: any Error) {
        let message = String(describing: error)
        analysis.withLock { stages in
            stages[stage, default: AnalysisStageState()].failed += 1
            stages[stage, default: AnalysisStageState()].lastError = message
        }
    }

    /// `count` frames handed to the output never reached its muxer or sink (the element that failed took them, or an
    /// encoder stopped hard kept them): they count as dropped for `cause` instead of output.
    public func outputFramesNotWritten(_ count: Int, cause: DropCause) {
        unwritten.withLock { $0 = (count, cause) }
    }

    public func sinkReportedDrops(total: UInt64) {
        sinkDropTotal.max(total, ordering: .relaxed)
    }

    // MARK: - Reading

    /// The counters now: cheap enough for every progress tick. `time` defaults to the latest time the recorder saw.
    public func snapshot(at time: Duration? = nil) -> RunSnapshot {
        let counts = frameCounts()
        let lastOutputPTS = outputSide.withLock { $0.lastOutputPTS }
        return source.withLock { state in
            let now = time ?? state.latestTime
            let elapsed = max(.zero, now - (state.origin ?? now))
            let fps = state.rateSamples.recentRate()
                ?? (elapsed > .zero ? Double(counts.outputBeforeSink) / elapsed.reportSeconds : 0)
            let mediaPosition: Duration? = lastOutputPTS.flatMap { last in state.firstPTS.map { last - $0 } }
            return RunSnapshot(
                elapsed: elapsed, decoded: counts.decoded, output: counts.output, dropped: counts.dropped,
                gaps: state.gaps.events, mediaPosition: mediaPosition, framesPerSecond: fps,
                isStalled: state.episodes.isStalled, stalls: state.episodes.stalls(at: now).count,
                blockedEpisodes: state.episodes.blocked.count, behindRealTime: state.lag.current)
        }
    }

    /// Percentiles and analysis counts so far (see ``LiveFigures``); `time` as for ``snapshot(at:)``.
    public func liveFigures(at time: Duration? = nil) -> LiveFigures {
        let latency = outputSide.withLock { $0.latency.summary }
        let analysisReports = analysis.withLock { stages in
            stages.mapValues {
                AnalysisStageReport(
                    completed: $0.latency.count, skipped: $0.skipped, failed: $0.failed, detections: $0.detections,
                    lastError: $0.lastError)
            }
        }
        let reconnectSummary = reconnectSummary
        let decodeErrorCount = decodeErrors.load(ordering: .relaxed)
        return source.withLock { state in
            let jitter = state.jitter.histogram.summary
            return LiveFigures(
                latencyMilliseconds: latency,
                jitterMilliseconds: JitterSummary(
                    p50: jitter.p50, p95: jitter.p95, p99: jitter.p99, max: jitter.max,
                    rfc3550: state.jitter.runningEstimateMilliseconds, count: jitter.count),
                analysis: analysisReports,
                stalledMilliseconds: state.episodes.stalls(at: time ?? state.latestTime).total.reportMilliseconds,
                blockedMilliseconds: state.episodes.blocked.total.reportMilliseconds,
                reconnects: reconnectSummary, decodeErrors: decodeErrorCount)
        }
    }

    /// The report of the run so far (normally after ``finish(at:)``). Frames still in flight count as dropped with
    /// cause `stream_error` when `context.error` is set, otherwise `interrupted`, so that
    /// `decoded == output + sum(dropped)` always holds.
    public func makeReport(context: RunContext) -> RunReport {
        var counts = frameCounts()
        let inFlight = counts.decoded - counts.output - counts.dropped.values.reduce(0, +)
        if inFlight > 0 {
            counts.dropped[context.error == nil ? .interrupted : .streamError, default: 0] += inFlight
        } else if inFlight < 0 {
            // An output or drop without an arrival: count it as decoded rather than break the invariant.
            counts.decoded -= inFlight
        }
        let outputState = outputSide.withLock { $0 }
        let analysisStates = analysis.withLock { $0 }
        let sourceState = source.withLock { $0 }

        let end = sourceState.finishedAt ?? sourceState.latestTime
        let duration = max(.zero, end - (sourceState.origin ?? end))
        let stalls = sourceState.episodes.stalls(at: end)
        let blocked = sourceState.episodes.blocked
        let jitter = sourceState.jitter.histogram.summary

        var stages: [String: PercentileSummary] = [
            "pool_wait": outputState.poolWait.summary, "composite": outputState.composite.summary,
            "push": outputState.push.summary, "analysis_lag": outputState.analysisLag.summary,
        ]
        var analysisReports: [String: AnalysisStageReport] = [:]
        for (name, stage) in analysisStates {
            stages["analysis:\(name)"] = stage.latency.summary
            analysisReports[name] = AnalysisStageReport(
                completed: stage.latency.count, skipped: stage.skipped, failed: stage.failed,
                detections: stage.detections, lastError: stage.lastError,
                drawnLagMilliseconds: stage.drawnLag.count > 0 ? stage.drawnLag.summary : nil)
        }

        return RunReport(
            schemaVersion: RunReport.currentSchemaVersion,
            run: context,
            durationSeconds: duration.reportSeconds,
            frames: FrameCounts(
                decoded: counts.decoded, output: counts.output,
                dropped: Dictionary(uniqueKeysWithValues: DropCause.allCases.map { ($0.rawValue, counts.dropped[$0] ?? 0) }),
                analysisSkipped: analysisReports.mapValues(\.skipped),
                gaps: sourceState.gaps.events, missingFrames: sourceState.gaps.missingFrames,
                discontinuities: sourceState.gaps.discontinuities, decodeErrors: decodeErrors.load(ordering: .relaxed)),
            throughputFPS: duration > .zero ? Double(counts.output) / duration.reportSeconds : 0,
            jitterMilliseconds: JitterSummary(
                p50: jitter.p50, p95: jitter.p95, p99: jitter.p99, max: jitter.max,
                rfc3550: sourceState.jitter.runningEstimateMilliseconds, count: jitter.count),
            latencyMilliseconds: outputState.latency.summary,
            // Files run as fast as they can: only a live source can fall behind real time.
            behindRealTimeMilliseconds: context.live && sourceState.lag.histogram.count > 0
                ? sourceState.lag.histogram.summary : nil,
            outputPacingJitterMilliseconds: outputState.pacing.summary,
            stages: stages,
            analysis: analysisReports,
            stalls: EpisodeSummary(count: stalls.count, totalMilliseconds: stalls.total.reportMilliseconds),
            blocked: EpisodeSummary(count: blocked.count, totalMilliseconds: blocked.total.reportMilliseconds),
            reconnects: reconnectSummary,
            peakRSSMegabytes: ProcessResources.peakResidentMegabytes(),
            cpuSeconds: ProcessResources.cpuSeconds(),
            latencyHistogramMilliseconds: outputState.latency.bins(),
            timeline: sourceState.series.report)
    }

    // MARK: - Internals

    private struct Counts {
        var decoded: Int
        var output: Int
        /// Output before moving the sink's drops out of it.
        var outputBeforeSink: Int
        var dropped: [DropCause: Int]
    }

    /// Counts with the sink's drops moved from output to `late_at_sink`.
    private func frameCounts() -> Counts {
        let outputCount = output.load(ordering: .relaxed)
        let lateAtSink = min(Int(clamping: sinkDropTotal.load(ordering: .relaxed)), outputCount)
        let notWritten = unwritten.withLock { $0 }
        let lost = min(notWritten.count, outputCount - lateAtSink)
        var dropped: [DropCause: Int] = [
            .poolFull: droppedPoolFull.load(ordering: .relaxed),
            .lateAtSink: droppedLateAtSink.load(ordering: .relaxed) + lateAtSink,
            .streamError: droppedStreamError.load(ordering: .relaxed),
            .interrupted: droppedInterrupted.load(ordering: .relaxed),
        ]
        dropped[notWritten.cause, default: 0] += lost
        return Counts(
            decoded: decoded.load(ordering: .relaxed),
            output: outputCount - lateAtSink - lost,
            outputBeforeSink: outputCount,
            dropped: dropped)
    }

    /// Frames that arrived but have neither left nor been dropped fill the pool (plus one the producer may be
    /// holding while it waits).
    private func estimatedPoolFull() -> Bool {
        guard let capacity = configuration.poolCapacity else { return false }
        let explicitDrops =
            droppedPoolFull.load(ordering: .relaxed) + droppedLateAtSink.load(ordering: .relaxed)
            + droppedStreamError.load(ordering: .relaxed) + droppedInterrupted.load(ordering: .relaxed)
        let inFlight = decoded.load(ordering: .relaxed) - output.load(ordering: .relaxed) - explicitDrops
        return inFlight >= capacity
    }
}

// MARK: - State behind the mutexes

/// The source side: arrivals, gaps, jitter, stall and blocked episodes, the plotted timeline.
private struct SourceState {
    var origin: Duration?
    var latestTime = Duration.zero
    var finishedAt: Duration?
    /// When the source sent end-of-stream; stall detection stops there.
    var sourceEndedAt: Duration?
    /// Between ``RunRecorder/pipelinePaused(at:)`` and ``RunRecorder/pipelineResumed(at:)``: no stall opens.
    var paused = false
    var lastArrival: Duration?
    var firstPTS: Duration?
    /// The latest stream time of a frame that arrived.
    var lastPTS: Duration?
    var usesReportedBlocking = false
    var jitter = ArrivalJitter()
    var lag = RealTimeLag()
    var gaps = GapDetector()
    var episodes: EpisodeTracker
    var series: IntervalSeries
    var recentArrivals = RecentArrivals()
    var rateSamples = RateSamples()

    init(configuration: RecorderConfiguration) {
        episodes = EpisodeTracker(stallThreshold: configuration.stallThreshold, mergeGap: configuration.blockedMergeGap)
        series = IntervalSeries(capacity: configuration.timelineBuckets)
    }

    /// Every event passes its time here: the first sets the origin.
    mutating func note(_ time: Duration) {
        if origin == nil { origin = time }
        latestTime = max(latestTime, time)
    }

    func offset(_ time: Duration) -> Duration { time - (origin ?? time) }

    /// The next frame's arrival and timestamp are compared with nothing before `time` (a pause, a seek), and
    /// silence is measured from `time`.
    mutating func restartTimeline(at time: Duration) {
        note(time)
        lastArrival = nil
        jitter.restart()
        lag.restart()
        gaps.restart()
        episodes.restartSilence(at: time)
    }

    /// Ends a stall episode still open at `time` and marks it on the timeline.
    mutating func closeOpenStall(at time: Duration) {
        if let stall = episodes.finish(at: time) {
            series.recordEpisode(from: offset(stall.start), to: offset(stall.end), isStall: true)
        }
    }

    mutating func recordBlocked(from start: Duration, to end: Duration) {
        note(start)
        if let withdrawn = episodes.producerBlocked(from: start, to: end) {
            series.removeStall(from: offset(withdrawn.start), to: offset(withdrawn.end))
        }
        series.recordEpisode(from: offset(start), to: offset(end), isStall: false)
    }
}

/// The output side: latency and per-stage histograms, output pacing.
private struct OutputState {
    var latency = DurationHistogram()
    var poolWait = DurationHistogram()
    var composite = DurationHistogram()
    var push = DurationHistogram()
    var analysisLag = DurationHistogram()
    var pacing = DurationHistogram()
    var previousOutput: (outputAt: Duration, pts: Duration)?
    var lastOutputPTS: Duration?
}

private struct AnalysisStageState {
    var latency = DurationHistogram()
    /// Stream time between a frame and the analysis drawn on it.
    var drawnLag = DurationHistogram()
    var skipped = 0
    var failed = 0
    var detections = 0
    var lastError: String?
}

/// Arrival times of the last 64 frames by index, so a dropped frame's CSV row shows when it arrived.
private struct RecentArrivals {
    private static let size = 64
    private var entries: [(index: Int, arrival: Duration)] = Array(repeating: (-1, .zero), count: size)

    mutating func store(index: Int, arrival: Duration) {
        entries[index & (Self.size - 1)] = (index, arrival)
    }

    func arrival(of index: Int) -> Duration? {
        let entry = entries[index & (Self.size - 1)]
        return entry.index == index ? entry.arrival : nil
    }
}

/// The last 16 (time, output count) pairs from ``RunRecorder/poll(at:poolFull:)``: the recent frame rate.
private struct RateSamples {
    private static let size = 16
    private var samples: [(time: Duration, count: Int)] = Array(repeating: (.zero, 0), count: size)
    private var next = 0
    private var stored = 0

    mutating func append(time: Duration, count: Int) {
        samples[next] = (time, count)
        next = (next + 1) % Self.size
        stored = min(stored + 1, Self.size)
    }

    /// Frames per second between the oldest and newest sample; nil with fewer than two samples.
    func recentRate() -> Double? {
        guard stored >= 2 else { return nil }
        let newest = samples[(next + Self.size - 1) % Self.size]
        let oldest = samples[(next + Self.size - stored) % Self.size]
        let span = newest.time - oldest.time
        guard span > .zero else { return nil }
        return Double(newest.count - oldest.count) / span.reportSeconds
    }
}
