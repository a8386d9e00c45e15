import StreamLensCore
import StreamLensFramePath
import StreamLensGStreamer

/// The control loop of one run, on the calling thread: it watches both pipelines' buses, the user's interrupts and
/// the frame path's progress until the output is finalized, and decides every way a run ends. Frames never pass
/// through it.
///
/// - An error from any element ends the run: the output's at once (the frame path is aborted, so a push blocked on
///   a failed output returns), the input's after the frames already admitted have drained. A damaged file after its
///   first frame ends the input instead (the frames before the damage are kept, exit 0).
/// - The first interrupt sends end-of-stream and lets the output finalize; a second one, or draining longer than
///   the shutdown grace, aborts the frame path (frames in flight are `interrupted`) and stops the pipelines.
/// - A live input that is lost (an error, its end, or a connected source's silence) is reopened with exponential
///   backoff while frames keep their timeline; `--stall-timeout` ends a live run whose input stays silent.
/// - A watchdog ends a file run in which nothing moved for `--watchdog` seconds.
///
/// Every wait is bounded: bus polls, state changes (``Pipeline/setState(_:within:)``), the frame path's shutdown.
final class RunControl {
    /// How the run ended.
    struct Result {
        var failure: RunError?
        var interrupted: Bool
        /// The run was stopped without draining (second interrupt, shutdown grace over).
        var hardStopped: Bool
        /// The output reached end-of-stream without an error: its muxer finalized the file.
        var outputFinalized: Bool
        var wallTime: Duration
        /// What each hand-back of the start-up's pages released (``StartupPages``).
        var startupPageReleases: [StartupPages.Release]
    }

    /// A connected source silent this long is taken as lost (when reconnecting).
    static let silenceBeforeReconnect = Duration.seconds(5)
    /// How long a reopened input has to deliver a frame before the attempt counts as failed.
    static let attemptWindow = Duration.seconds(5)
    /// The longest a state change may take before the run goes on without it.
    static let stateChangeLimit = Duration.seconds(3)
    /// After an abort, how long the frame path gets to finish the frame it is on.
    static let abortLimit = Duration.seconds(2)
    /// Input bus messages read at most once the frame path has drained (an input's error queued behind its end).
    static let messagesReadAtDrain = 256
    /// A source that ignores end-of-stream after an interrupt is cut off after this long.
    static let endOfStreamLimit = Duration.seconds(3)
    /// The output must finish (end-of-stream) within this long of the last frame, or of the last buffer its sinks
    /// wrote after it (a slow encoder drains a long look-ahead: x264's `placebo` at 1080p, minutes).
    static let finalizeLimit = Duration.seconds(30)
    /// A local file that delivered frames, has none in flight and sends nothing for this long has ended without
    /// saying so (GStreamer 1.22's GIF demuxer never sends end-of-stream).
    static let fileIdleLimit = Duration.seconds(5)
    /// RunControl hands back the start-up's pages (``StartupPages``) as its loop starts, the pipelines playing, and once
    /// more this long after the first frame arrived, when the engines have loaded and every stage has made its first
    /// pass: pages touched only by the first pass go too
    /// (StartupPagesTests.aRunHandsBackItsStartupPagesAndItsOutputIsWhole).
    static let startupReleaseDelay = Duration.milliseconds(750)

    private let configuration: RunConfiguration
    /// The input pipeline; a fresh one replaces it when a lost live input is reopened.
    private var input: Pipeline
    /// The clock and base time the run's timestamps follow; a reopened input adopts them.
    private var timeline: PipelineTimeline?
    private let output: Pipeline?
    private let path: FramePath
    private let live: Bool
    private let hooks: PipelineRunner.Hooks
    private let observer: (any FramePathObserver)?
    private let clock: any MonotonicClock
    private let interrupt: InterruptSignal
    private let classifier: FailureClassifier
    private let reconnects: Bool

    private var start = Duration.zero
    private var failure: RunError?
    private var missingPlugin: String?
    private var inputEnded = false
    private var inputEndReported = false
    private var outputEnded: Bool
    private var outputFinalized = false
    private var drainedAt: Duration?
    private var interruptedAt: Duration?
    private var abortedAt: Duration?
    private var hardStopped = false
    private var formatReported = false
    private var lastTick = Duration.zero
    private var arrivals = 0
    private var lastArrivalAt = Duration.zero
    private var progressMark = -1
    /// Buffers the output's sinks had rendered at the last look, when that count last grew, and when it was read
    /// (once a second, after the last frame was handed over).
    private var outputWrites = (rendered: 0, grewAt: Duration.zero, checkedAt: Duration.zero)
    private var lastProgressAt = Duration.zero
    private var backoff: ReconnectBackoff
    private var outage: InputOutage?
    private var decodeWarningShown = false
    private var firstArrivalAt: Duration?
    private var startupHandBacks = 0
    private var startupReleases: [StartupPages.Release] = []

    init(
        configuration: RunConfiguration, input: Pipeline, output: Pipeline?, path: FramePath, live: Bool,
        hooks: PipelineRunner.Hooks, observer: (any FramePathObserver)?, clock: any MonotonicClock,
        interrupt: InterruptSignal
    ) {
        self.configuration = configuration
        self.input = input
        self.output = output
        self.path = path
        self.live = live
        self.hooks = hooks
        self.observer = observer
        self.clock = clock
        self.interrupt = interrupt
        classifier = FailureClassifier(configuration: configuration)
        reconnects = live && configuration.reconnects
        backoff = ReconnectBackoff(maxAttempts: configuration.reconnectMaxAttempts)
        outputEnded = output == nil
    }

    func run() -> Result {
        start = clock.now()
        // The output shares the input's timeline on live runs; either pipeline gives it.
        timeline = output?.timeline ?? input.timeline
        lastTick = start
        lastArrivalAt = start
        lastProgressAt = start
        while true {
            pumpInputBus()
            let now = clock.now()
            pumpOutputBus(now)
            noteArrivals(now)
            releaseStartupPages(now)
            if !formatReported, let format = path.format {
                formatReported = true
                hooks.formatNegotiated(format)
            }
            watchSilence(now)
            if outage != nil { superviseOutage(now) }
            watchInterrupts(now)
            watchProgress(now)
            if !formatReported, !inputEnded, now - start > configuration.startupTimeout {
                fail(.noFrames(input: configuration.input.label, waited: configuration.startupTimeout))
                endInput()
            }
            if drainedAt == nil, path.waitUntilDrained(timeout: .zero) {
                // The appsink's end-of-stream can overtake the loop: an input element's error, posted before that
                // end-of-stream, may still be on the bus. Read it before the run is declared finished — what is queued,
                // not what an element might go on posting: the loop is bounded.
                for _ in 0..<Self.messagesReadAtDrain {
                    guard pumpInputBus(waiting: .zero) else { break }
                }
                drainedAt = now
            }
            if isFinished(now) { break }
            if inputEnded && !inputEndReported {
                inputEndReported = true
                hooks.inputEnded(now)
            }
            if now - lastTick >= .milliseconds(100) {
                lastTick = now
                hooks.tick(now, path)
            }
        }
        // After an abort the processing thread finishes the frame it is on; the counts are final once it has.
        if drainedAt == nil { _ = path.waitUntilDrained(timeout: Self.abortLimit) }
        if failure == nil, let outputFailure = path.failure { failure = .outputFailed(detail: outputFailure.description) }
        hooks.tick(clock.now(), path)
        // Bounded: a sink blocked in a system call never lets its pipeline reach NULL; the run ends regardless
        // (sooner after an abort: whatever could finalize has had its chance).
        let limit = abortedAt == nil ? Self.stateChangeLimit : Self.stateChangeLimit / 3
        _ = try? input.setState(.null, within: limit)
        _ = try? output?.setState(.null, within: limit)
        return Result(
            failure: failure, interrupted: interruptedAt != nil, hardStopped: hardStopped,
            outputFinalized: outputFinalized, wallTime: clock.now() - start,
            startupPageReleases: startupReleases)
    }

    /// Hands back the start-up's pages (``startupReleaseDelay``), from this thread, which no frame waits on.
    private func releaseStartupPages(_ now: Duration) {
        if firstArrivalAt == nil, arrivals > 0 { firstArrivalAt = now }
        switch startupHandBacks {
        case 0: break
        case 1: guard let firstArrivalAt, now - firstArrivalAt >= Self.startupReleaseDelay else { return }
        default: return
        }
        startupHandBacks += 1
        if let release = StartupPages.release() { startupReleases.append(release) }
    }

    // MARK: - Ending

    private func fail(_ error: RunError) {
        if failure == nil { failure = error }
    }

    /// No more frames from the input; those admitted drain to the output, which then finalizes.
    private func endInput() {
        inputEnded = true
        closeOutage(clock.now())
        // Frames the decoder still gives out were cut by the user's stop, or else by the input's end or failure.
        path.stopAdmitting(refusedAs: interruptedAt != nil ? .interrupted : .streamError)
    }

    /// Ends the frame path now: frames not yet delivered are dropped with `cause`.
    private func abort(_ cause: DropCause, at now: Duration) {
        path.abort(cause: cause)
        inputEnded = true
        closeOutage(now)
        if abortedAt == nil { abortedAt = now }
    }

    /// The run ends while the input is away: its time without input still counts.
    private func closeOutage(_ now: Duration) {
        if let outage { hooks.inputStayedLost(now - outage.since) }
        outage = nil
    }

    private func isFinished(_ now: Duration) -> Bool {
        // After an abort the output got end-of-stream behind its last frame: one that still moves finalizes.
        if let abortedAt { return (drainedAt != nil && outputEnded) || now - abortedAt > Self.abortLimit }
        guard let drainedAt else { return false }
        if outputEnded { return true }
        noteOutputWrites(now)
        if now - max(drainedAt, outputWrites.grewAt) > Self.finalizeLimit {
            fail(.outputFailed(
                detail: "it wrote nothing for \(Self.finalizeLimit.secondsText) s after the last frame and did not finish"))
            abort(.streamError, at: now)
        }
        return false
    }

    /// Reads what the output's sinks have rendered, at most once a second: an output still writing is still
    /// finishing.
    private func noteOutputWrites(_ now: Duration) {
        guard let output, now - outputWrites.checkedAt >= .seconds(1) else { return }
        outputWrites.checkedAt = now
        let rendered = output.renderedBuffersInSinks()
        if rendered != outputWrites.rendered {
            outputWrites.rendered = rendered
            outputWrites.grewAt = now
        }
    }

    // MARK: - Buses

    /// Handles the next input bus message, waiting up to `waiting` for one; false when there was none.
    @discardableResult
    private func pumpInputBus(waiting: Duration = .milliseconds(20)) -> Bool {
        guard let message = input.nextMessage(timeout: waiting) else { return false }
        let now = clock.now()
        switch message {
        case .endOfStream:
            if outage != nil {
                attemptFailed(now, reason: "the stream ended")
            } else if mayReconnect {
                beginOutage(now, reason: "the stream ended", inputWentSilent: false)
            } else {
                endInput()
            }
        case .error(let error):
            if outage != nil {
                attemptFailed(now, reason: error.description)
            } else if mayReconnect {
                beginOutage(now, reason: error.description, inputWentSilent: false)
            } else if case .damagedData = error, arrivals > 0 {
                // A damaged file after good frames: keep what was decoded, like a player would.
                hooks.decodeError()
                hooks.warning("input damaged after \(arrivals) frames (\(error)); the frames before it are kept")
                endInput()
            } else if !inputEnded {
                fail(missingPlugin.map { .missingPlugin(detail: $0) }
                    ?? classifier.classify(error, input: input, output: output, framesSeen: arrivals > 0))
                endInput()
            }
        case .dataWarning(let source, let message):
            hooks.decodeError()
            if !decodeWarningShown {
                decodeWarningShown = true
                hooks.warning("\(source): \(message) (damaged data skipped; the report counts each as a decode error)")
            }
        case .missingPlugin(let detail):
            missingPlugin = detail
        case .warning(let source, let message):
            hooks.warning("\(source): \(message)")
        default:
            break
        }
        return true
    }

    private func pumpOutputBus(_ now: Duration) {
        while let output, !outputEnded, let message = output.nextMessage(timeout: .zero) {
            switch message {
            case .endOfStream:
                outputEnded = true
                outputFinalized = true
            case .error(let error):
                outputEnded = true
                let classified = classifier.classify(error, input: input, output: output, framesSeen: arrivals > 0)
                if case .gstreamer(let detail) = classified {
                    fail(.outputFailed(detail: detail.description))
                } else {
                    fail(classified)
                }
                abort(.streamError, at: now)
            case .qualityOfService(_, _, let dropped, _):
                observer?.sinkReportedDrops(total: dropped)
            case .latencyChanged:
                output.recalculateLatency()
            case .warning(let source, let message), .dataWarning(let source, let message):
                hooks.warning("\(source): \(message)")
            default:
                break
            }
        }
    }

    // MARK: - Live inputs

    private func noteArrivals(_ now: Duration) {
        let count = path.decodedCount
        guard count != arrivals else { return }
        arrivals = count
        lastArrivalAt = now
        if let length = outage?.framesArrived(at: now) {
            hooks.inputReconnected(length)
            hooks.notice("input back after \(length.secondsText(decimals: 1)) s")
            outage = nil
            backoff.reset()
        }
    }

    /// A lost input is reopened (not the end of the run) once it has delivered frames, unless the run is ending.
    private var mayReconnect: Bool {
        reconnects && arrivals > 0 && interruptedAt == nil && !inputEnded
    }

    private func watchSilence(_ now: Duration) {
        guard live, !inputEnded else { return }
        let silence = now - lastArrivalAt
        if let limit = configuration.stallTimeout, silence >= limit {
            fail(.inputSilent(input: configuration.input.label, waited: limit))
            endInput()
            return
        }
        if outage == nil, mayReconnect, configuration.input.silenceMeansLost, silence >= Self.silenceBeforeReconnect {
            beginOutage(now, reason: "no data for \(Self.silenceBeforeReconnect.secondsText) s", inputWentSilent: true)
        }
    }

    private func beginOutage(_ now: Duration, reason: String, inputWentSilent: Bool) {
        outage = InputOutage(
            since: lastArrivalAt, reason: reason, nextAttemptAt: now + backoff.nextDelay,
            inputWentSilent: inputWentSilent)
        hooks.warning("input lost (\(reason)); reconnecting (--reconnect)")
    }

    private func superviseOutage(_ now: Duration) {
        guard var current = outage else { return }
        if let deadline = current.attemptDeadline, now >= deadline {
            attemptFailed(now, reason: current.reason)
            guard let updated = outage else { return }
            current = updated
        }
        guard let next = current.nextAttemptAt, now >= next else { return }
        guard backoff.mayAttempt else {
            fail(.inputLost(input: configuration.input.label, attempts: backoff.attempts, detail: current.reason))
            endInput()
            return
        }
        backoff.recordAttempt()
        hooks.reconnectAttempted()
        current.nextAttemptAt = nil
        outage = current
        if reopenInput() {
            outage?.inputReopened(attemptDeadline: clock.now() + Self.attemptWindow)
        } else {
            attemptFailed(clock.now(), reason: "the input could not be reopened")
        }
    }

    /// Replaces the lost input with a fresh pipeline from the same description (a restarted pipeline would not
    /// relink its dynamic pads) on the run's timeline, and starts it. False when a step failed or hung.
    private func reopenInput() -> Bool {
        // The old input must be at NULL (its streaming threads joined) before the new one feeds the frame path.
        guard (try? input.setState(.null, within: Self.stateChangeLimit)) != nil,
            let fresh = try? Pipeline(input.pipelineDescription, label: "input")
        else { return false }
        if let timeline { fresh.adopt(timeline) }
        guard (try? path.replaceInput(with: fresh, sinkName: InputSource.sinkName)) != nil else { return false }
        input = fresh
        return (try? fresh.setState(.playing, within: Self.stateChangeLimit)) != nil
    }

    /// The attempt in progress failed: the next one comes after the backoff delay.
    private func attemptFailed(_ now: Duration, reason: String) {
        guard outage != nil, outage?.nextAttemptAt == nil else { return }
        outage?.reason = reason
        outage?.attemptDeadline = nil
        outage?.nextAttemptAt = now + backoff.nextDelay
    }

    // MARK: - Interrupts and the watchdog

    private func watchInterrupts(_ now: Duration) {
        if interrupt.isRaised && interruptedAt == nil {
            interruptedAt = now
            hooks.notice("stopping: finishing the output (interrupt again to stop at once)")
            if outage != nil || inputEnded {
                endInput()
            } else {
                path.endAtFirstGap()
                input.sendEndOfStream()
            }
        }
        guard let interruptedAt, abortedAt == nil else { return }
        // A source that ignores end-of-stream is cut off; frames already admitted still reach the output.
        if !inputEnded, now - interruptedAt > Self.endOfStreamLimit { endInput() }
        if interrupt.isUrgent || now - interruptedAt >= configuration.shutdownGrace {
            hardStopped = true
            hooks.notice(
                interrupt.isUrgent
                    ? "stopping now (second interrupt): frames in flight are counted as interrupted"
                    : "stopping now: draining took longer than --shutdown-grace \(configuration.shutdownGrace.secondsText) s")
            abort(.interrupted, at: now)
        }
    }

    /// On a file run, something must move: frames decoded or output, the end reached. A stuck element (a sink
    /// blocked on a pipe, an analysis stage that never returns) ends the run instead of hanging it.
    private func watchProgress(_ now: Duration) {
        guard let limit = configuration.watchdog, !live, abortedAt == nil, interruptedAt == nil else { return }
        if case .file = configuration.input, !inputEnded, arrivals > 0, arrivals == path.outputCount,
            now - lastArrivalAt >= min(limit, Self.fileIdleLimit)
        {
            hooks.warning(
                "the input stopped after \(arrivals) frames without signalling its end; taking it as the end")
            endInput()
            return
        }
        let mark =
            arrivals + path.outputCount + (drainedAt == nil ? 0 : 1) + (outputEnded ? 1 : 0) + outputWrites.rendered
        if mark != progressMark {
            progressMark = mark
            lastProgressAt = now
            return
        }
        guard now - lastProgressAt >= limit else { return }
        let output = path.outputCount
        let stuckAt =
            drainedAt != nil ? "every frame was handed over; the output did not finish"
            : arrivals > output ? "frames wait in the pool: the output or an analysis stage is not taking them"
            : "the input sent no frame"
        fail(.noProgress(waited: limit, detail: "decoded \(arrivals), output \(output); \(stuckAt)"))
        abort(.streamError, at: now)
    }
}
