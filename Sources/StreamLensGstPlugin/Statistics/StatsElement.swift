import Foundation
import StreamLensCore
import StreamLensGStreamer
import StreamLensStats
import Synchronization

/// `streamlensstats`: the command line's statistics recorder (``RunRecorder``) watching one point of any pipeline.
///
/// What it feeds the recorder, and what the report's figures then mean:
/// - **arrival** of each buffer on the sink pad: decoded frames, arrival jitter, source gaps (PTS steps beyond 1.5
///   frame durations, discontinuities);
/// - **output** when the push downstream returned OK: latency is arrival → push returned (the element plus
///   everything downstream that holds the push, such as a sink waiting for its clock), the `push` stage likewise;
///   a push that took longer than 1.5 frame durations is backpressure (`blocked`), and a silent pad while a push
///   is held is not a stall;
/// - **late_at_sink**: the largest dropped total any sink reported in its QoS messages (``SinkDropWatch``);
///   a push that failed counts as `interrupted` (flushing, end-of-stream) or `stream_error`.
///
/// So `decoded == output + sum(dropped)` holds as in the command line's report. The report (schema version 1) is
/// written once the whole pipeline reached end-of-stream — frames still queued after the element when end-of-stream
/// passed it may yet be dropped by a sink — or when the element stops without one (then marked interrupted). A
/// `streamlens-stats` element message with the running figures goes on the bus every `interval` seconds and once
/// at the end, before the pipeline's end-of-stream message.
///
/// ## Thread Safety
/// See ``ElementLogic``. Arrival and push run on the streaming thread; the ticker thread only calls the recorder
/// (thread-safe) and reads `pushing` (atomic).
final class StatsElement: ElementLogic, @unchecked Sendable {
    /// Name of the periodic element message.
    static let messageName = "streamlens-stats"

    private let clock = SystemClock()
    /// True while a push downstream is under way (read by the ticker: silence then is backpressure, not a stall).
    private let pushing = PushFlag()
    /// Time spent PAUSED: a push held in a paused sink is neither latency nor backpressure.
    private let pauses = PauseClock()
    private var recorder: RunRecorder?
    private var ticker: Ticker?
    private var metrics: MetricsServer?
    private var drops: SinkDropWatch?
    private var reportPath: String?
    /// Set once the run is finished (report written, final message posted); guards against the two threads that may
    /// finish it: the last sink's, at the pipeline's end-of-stream, and the state-change thread stopping the element.
    private let finished = Mutex(false)
    /// End-of-stream passed the element (streaming thread; read when finishing).
    private let sawEndOfStream = Atomic<Bool>(false)
    private var inputDescription: String?
    private var frameDuration: Duration?
    private var live: Bool?
    private var frameIndex = 0
    private var inFlight: (index: Int, pts: Duration?, arrival: Duration, pausedBefore: Duration)?
    /// The pipeline played, then was paused (state-change thread only). The first PLAYING after preroll is no
    /// resume: nothing was skipped before it.
    private var pausedAfterPlaying = false

    override func begin() -> Start {
        reportPath = string("report").flatMap { $0.isEmpty ? nil : $0 }
        if let reportPath, let problem = Self.whyNotWritable(reportPath) {
            element.postError(.cannotWrite, "\(element.name): cannot write the report to '\(reportPath)': \(problem)")
            return .failed
        }
        let recorder = RunRecorder(configuration: RecorderConfiguration(stallThreshold: seconds("stall-threshold")))
        let now = clock.now()
        recorder.runStarted(at: now)
        // The element starts PAUSED: a prerolled buffer's push waits for PLAYING in the sink.
        pauses.reset(pausedAt: now)
        pausedAfterPlaying = false
        let port = int("metrics-port")
        if port > 0 {
            do { metrics = try MetricsEndpoint.start(port: port, recorder: recorder) } catch {
                element.postError(.failed, "\(element.name): \(error)")
                return .failed
            }
        }
        drops = SinkDropWatch(
            element: element, dropped: { total in recorder.sinkReportedDrops(total: total) },
            pipelineEnded: { [weak self] in self?.pipelineEnded() })
        self.recorder = recorder
        finished.withLock { $0 = false }
        sawEndOfStream.store(false, ordering: .relaxed)
        live = nil
        frameIndex = 0
        startTicker(recorder: recorder)
        return .passthrough
    }

    override func end() {
        finishRun(endOfStream: sawEndOfStream.load(ordering: .relaxed))
        ticker?.stop()
        ticker = nil
        drops?.stop()
        drops = nil
        metrics.map(MetricsEndpoint.stop)
        metrics = nil
        recorder = nil
    }

    override func negotiate(caps: UnsafeMutableRawPointer) -> Bool {
        frameDuration = VideoFormat.frameDuration(ofCaps: caps)
        inputDescription = VideoFormat.description(ofCaps: caps)
        recorder?.setNominalFrameDuration(frameDuration)
        return true
    }

    override func bufferArrived(_ buffer: BufferHandle) {
        guard let recorder else { return }
        if live == nil { live = element.isUpstreamLive() }
        let now = clock.now()
        recorder.frameArrived(index: frameIndex, pts: buffer.pts, at: now, discontinuity: buffer.isDiscontinuous)
        inFlight = (frameIndex, buffer.pts, now, pauses.pausedTime(upTo: now))
        frameIndex += 1
        pushing.value.store(true, ordering: .relaxed)
    }

    override func bufferPushed(_ result: FlowResult) {
        pushing.value.store(false, ordering: .relaxed)
        guard let recorder, let frame = inFlight else { return }
        inFlight = nil
        let now = clock.now()
        // A push held while the pipeline was paused: count its time from the arrival as if the pause had not been.
        let arrival = frame.arrival + (pauses.pausedTime(upTo: now) - frame.pausedBefore)
        switch result {
        case .ok:
            recorder.frameOutput(
                index: frame.index, pts: frame.pts,
                timing: FrameTiming(
                    arrival: arrival, poolWait: .zero, compositeTime: .zero, pushTime: now - arrival,
                    outputAt: now, analysisLag: nil))
            if now - arrival > (frameDuration ?? .milliseconds(67)) * 3 / 2 {
                recorder.producerBlocked(from: arrival, to: now)
            }
        case .flushing, .endOfStream:
            recorder.frameDropped(index: frame.index, pts: frame.pts, cause: .interrupted, at: now)
        default:
            recorder.frameDropped(index: frame.index, pts: frame.pts, cause: .streamError, at: now)
        }
    }

    override func playingChanged(_ playing: Bool) {
        let now = clock.now()
        if playing {
            pauses.resume(at: now)
            if pausedAfterPlaying { recorder?.pipelineResumed(at: now) }
            pausedAfterPlaying = false
        } else {
            pauses.pause(at: now)
            recorder?.pipelinePaused(at: now)
            pausedAfterPlaying = true
        }
    }

    override func handle(_ event: SinkPadEvent) {
        // A seek: what it skipped is no gap in the source.
        if event == .flushStop { recorder?.timelineRestarted(at: clock.now()) }
        guard event == .endOfStream, let recorder, !sawEndOfStream.exchange(true, ordering: .relaxed) else { return }
        recorder.sourceEnded(at: clock.now())
        // Without a bus to hear the pipeline's end-of-stream on, the run ends here.
        if drops == nil { finishRun(endOfStream: true) }
    }

    /// Every sink has its last frame: the drops downstream are all counted.
    private func pipelineEnded() {
        if sawEndOfStream.load(ordering: .relaxed) { finishRun(endOfStream: true) }
    }

    // MARK: - Reporting

    private func startTicker(recorder: RunRecorder) {
        let interval = seconds("interval")
        let element = element, clock = clock
        let lastMessage = Mutex<Duration>(clock.now())
        let ticker = Ticker(period: .milliseconds(100), name: "streamlens-stats") { [pushing] in
            let now = clock.now()
            recorder.poll(at: now, poolFull: pushing.value.load(ordering: .relaxed))
            guard interval > .zero else { return }
            let due = lastMessage.withLock { last in
                guard now - last >= interval else { return false }
                last = now
                return true
            }
            if due { Self.postFigures(of: recorder, at: now, final: false, on: element) }
        }
        ticker.start()
        self.ticker = ticker
    }

    /// Ends the recording, posts the final figures and writes the report (once).
    private func finishRun(endOfStream: Bool) {
        finished.withLock { done in
            guard !done, let recorder else { return }
            done = true
            finish(recorder, endOfStream: endOfStream)
        }
    }

    private func finish(_ recorder: RunRecorder, endOfStream: Bool) {
        // The ticker first: a periodic message it was still posting would otherwise arrive after the final one.
        ticker?.stop()
        let now = clock.now()
        recorder.finish(at: now)
        Self.postFigures(of: recorder, at: now, final: true, on: element)
        // A pipeline that stopped before a single frame came (another element failed to start) recorded nothing: an
        // empty report would replace the last run's good one.
        guard let reportPath, endOfStream || frameIndex > 0 else { return }
        let isLive = live ?? false
        var report = recorder.makeReport(context: RunContext(
            input: inputDescription ?? element.name, output: nil, live: isLive,
            policy: .automatic(isLive: isLive), poolCapacity: 0, interrupted: !endOfStream, error: nil,
            streamlensVersion: StreamLensVersion.current, gstreamerVersion: GStreamer.version))
        // The element times only the push downstream: a pool wait or compositing it never had would read as zeros,
        // which `streamlens stats` compares with a run's real ones.
        report.stages = report.stages.filter { $0.key == "push" }
        if let behind = report.fellBehindRealTime {
            element.postWarning(
                .failed,
                String(
                    format: "%@: the live source fell %.1f s behind real time (p95 %.1f s): upstream did not keep up",
                    element.name, behind.max / 1000, behind.p95 / 1000))
        }
        do { try report.write(toPath: reportPath) } catch {
            element.postError(.cannotWrite, "\(element.name): \(error)")
        }
    }

    /// Posts a `streamlens-stats` message with the recorder's figures now.
    private static func postFigures(of recorder: RunRecorder, at now: Duration, final: Bool, on element: ElementHandle) {
        let snapshot = recorder.snapshot(at: now)
        let figures = recorder.liveFigures(at: now)
        element.postMessage(named: messageName, fields: [
            StructureField("decoded", .int(snapshot.decoded)),
            StructureField("output", .int(snapshot.output)),
            StructureField("dropped", .int(snapshot.droppedTotal)),
            StructureField("late_at_sink", .int(snapshot.dropped[.lateAtSink] ?? 0)),
            StructureField("gaps", .int(snapshot.gaps)),
            StructureField("fps", .double(snapshot.framesPerSecond)),
            StructureField("jitter_ms", .double(figures.jitterMilliseconds.rfc3550)),
            StructureField("latency_p50_ms", .double(figures.latencyMilliseconds.p50)),
            StructureField("latency_p95_ms", .double(figures.latencyMilliseconds.p95)),
            StructureField("stalled", .bool(snapshot.isStalled)),
            StructureField("stalls", .int(snapshot.stalls)),
            StructureField("blocked_episodes", .int(snapshot.blockedEpisodes)),
            StructureField("behind_real_time_ms", .double((snapshot.behindRealTime ?? .zero).milliseconds)),
            StructureField("final", .bool(final)),
        ])
    }

    /// Why a report cannot be written at `path`, or nil when it can (an existing writable file StreamLens wrote, or
    /// a new file in a writable folder). Any other file is left alone, as the command line's `--report` leaves it:
    /// `report=$1` in a script would otherwise replace the recording the pipeline reads.
    private static func whyNotWritable(_ path: String) -> String? {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { return "it is a folder; give a file name, e.g. report=run.json" }
            guard files.isWritableFile(atPath: path) else { return "the file is not writable; check its permissions" }
            return !RunReport.mayReplace(fileAt: path)
                ? "it holds a file StreamLens did not write, which was left as it is; choose another report= name"
                : nil
        }
        let folder = (path as NSString).deletingLastPathComponent
        return files.isWritableFile(atPath: folder.isEmpty ? "." : folder)
            ? nil : "check that the folder exists and is writable"
    }
}

/// How long the element has been PAUSED in all, read by the streaming thread, written on the state-change thread.
final class PauseClock: Sendable {
    private let state = Mutex<(total: Duration, since: Duration?)>((.zero, nil))

    func reset(pausedAt time: Duration) { state.withLock { $0 = (.zero, time) } }

    func pause(at time: Duration) {
        state.withLock { if $0.since == nil { $0.since = time } }
    }

    func resume(at time: Duration) {
        state.withLock { state in
            guard let since = state.since else { return }
            state = (state.total + max(.zero, time - since), nil)
        }
    }

    /// Paused time up to `time`, counting a pause still under way.
    func pausedTime(upTo time: Duration) -> Duration {
        state.withLock { state in state.total + (state.since.map { max(.zero, time - $0) } ?? .zero) }
    }
}

/// A flag shared by the streaming thread and the ticker.
final class PushFlag: Sendable {
    let value = Atomic<Bool>(false)
}
