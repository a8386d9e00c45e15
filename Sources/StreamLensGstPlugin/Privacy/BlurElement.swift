import StreamLensCompositing
import StreamLensCore
import StreamLensDetection
import StreamLensFramePath
import StreamLensGStreamer
import StreamLensOptions

/// `streamlensblur`: the command line's `--blur` as an element. The privacy stage (``PrivacyKind/makeStage``, the
/// command line's detectors and hold) runs on its own thread through an ``ElementAnalysis``; the command line's
/// ``PrivacyBlurStage`` hides what it reports in the frame's own I420/NV12 planes. It attaches no regions of
/// interest: an annotation element downstream draws nothing of what was hidden.
///
/// Every frame is due for analysis. `sync-analysis=auto` (the default) decides at the first buffer, as the command
/// line does: upstream not live (a latency query; a source that cannot say is a file) → every frame waits for its
/// own analysis and is hidden from it; live → a frame never waits (but for the first result after the start or a
/// flush), and is hidden with the newest result, its boxes moved on by their tracks' motion and grown for the lag
/// (``BlurMotion``). A frame that cannot be mapped for
/// writing is an ERROR, never passed on unhidden.
///
/// At end-of-stream the stage finishes before end-of-stream goes on, and the element posts `streamlens-analysis`
/// (frames analysed, skipped, failed) and one `streamlens-privacy` message per kind found (class, detections,
/// tracks, frames blurred, longest gap without a fresh detection, longest lag behind the analysis).
///
/// ## Thread Safety
/// See ``ElementLogic``: everything here runs on one GStreamer thread at a time; the analysis thread is the
/// ``ElementAnalysis``'s own.
final class BlurElement: ElementLogic, @unchecked Sendable {
    /// Name of the per-kind element message.
    static let privacyMessageName = "streamlens-privacy"

    private var analysis: ElementAnalysis?
    private var stage: PrivacyStage?
    private var blur: PrivacyBlurStage?
    private var counters = AnalysisCounters()
    private var format: VideoFormat?
    /// Whether frames wait for their own analysis; nil until the first buffer decides `auto`.
    private var waitForResults: Bool?
    private var frameIndex = 0
    private var streamTime = BufferStreamTime()
    private let frames = WritableFrames()
    private var motion = BlurMotion()
    /// What `prepareOutput` chose to hide on the buffer `process` gets next; nil when nothing.
    private var pending: CompositeContext?
    /// Whether a result has come since the start or the last flush (live frames wait for the first one).
    private var hasResult = false
    /// A frame's own analysis failed (file mode): `process` ends the stream instead of passing it on.
    private var failedFrame = false
    /// The context's detections by source, kept so that its storage is reused from frame to frame.
    private var latestBySource: [String: Detections] = [:]

    init(element: ElementHandle) {
        let kinds = OptionSchema.blurKinds.joined(separator: ", ") + " (comma-separated) or off"
        super.init(element: element, rules: [
            PropertyRule("kinds", allowed: kinds) { value in
                let text = value.stringValue ?? ""
                if text == "off" { return nil }
                do { _ = try PrivacyKind.parse(text) } catch { return "not a list of kinds" }
                return nil
            },
            PropertyRule(choiceOf: OptionSchema.blurStyle, "style"),
            PropertyRule(choiceOf: OptionSchema.syncAnalysis, "sync-analysis"),
        ])
    }

    override func begin() -> Start {
        let text = string("kinds") ?? ""
        if text == "off" { return .passthrough }
        var configuration = PrivacyStage.Configuration()
        configuration.confidenceThreshold = double("confidence")
        configuration.holdTime = seconds("hold")
        do {
            // The models load now: one that is missing or broken is an ERROR before any frame goes on unhidden.
            let kinds = try PrivacyKind.parse(text)
            stage = try PrivacyKind.makeStage(kinds: kinds, configuration: configuration, loadNow: true)
        } catch {
            element.postError(Self.problem(error), "\(element.name): \(error)")
            return .failed
        }
        var blurConfiguration = PrivacyBlurStage.Configuration()
        blurConfiguration.source = PrivacyStage.stageName
        blurConfiguration.style = PrivacyBlurStyle(rawValue: string("style") ?? "") ?? .gaussian
        blurConfiguration.margin = double("margin")
        blur = PrivacyBlurStage(configuration: blurConfiguration)
        counters = AnalysisCounters()
        analysis = stage.map {
            ElementAnalysis(stage: $0, schedule: FixedIntervalSchedule(interval: .zero), observer: counters)
        }
        waitForResults = nil
        switch string("sync-analysis") {
        case "on": decide(waiting: true)
        case "off": decide(waiting: false)
        default: break
        }
        frameIndex = 0
        streamTime.restart()
        hasResult = false
        failedFrame = false
        motion = BlurMotion()
        return .process
    }

    /// A wrong setting, or a model that is missing or does not load.
    private static func problem(_ error: any Error) -> ElementHandle.Problem {
        if error is PrivacyKind.Unknown { return .settings }
        if case .invalidOption? = error as? DetectionError { return .settings }
        return .notFound
    }

    /// Waiting frames are the command line's file mode: the stage is told before its first frame.
    private func decide(waiting: Bool) {
        waitForResults = waiting
        if waiting { stage?.resultsWillBeAwaited() }
    }

    override func end() {
        analysis?.stop()
        analysis = nil
        stage = nil
        blur = nil
        format = nil
        pending = nil
    }

    override func negotiate(caps: UnsafeMutableRawPointer) -> Bool {
        let negotiated = VideoFormat(borrowingCaps: caps)
        // A result of the old size is in the old coordinates.
        if let format, negotiated.map({ $0.width != format.width || $0.height != format.height }) ?? true {
            analysis?.forgetLatest()
            motion.reset()
            // Live frames wait again for a first result in the new coordinates rather than go out unhidden.
            hasResult = false
        }
        format = negotiated
        return format != nil
    }

    override func prepareOutput(_ input: BufferHandle) -> UnsafeMutableRawPointer? {
        pending = nil
        guard let format, let analysis, let stage else { return nil }
        let waiting = waitForResults ?? {
            decide(waiting: !(element.upstreamIsLive() ?? false))
            return waitForResults ?? true
        }()
        let pts = streamTime.presentationTime(of: input, format: format)
        let outcome = analysis.offer(input, format: format, pts: pts, frameIndex: frameIndex, waitWhenBusy: waiting)
        if waiting && outcome == .submitted {
            analysis.waitForSubmitted()
        } else if !waiting && !hasResult {
            // Live, before the first result: the frames wait for it once (one analysis of latency at the start or
            // after a flush) rather than go out with nothing hidden.
            analysis.waitForSubmitted()
        }
        if waiting && outcome == .submitted && analysis.latest?.pts != pts {
            // The frame's own analysis failed: hiding it with an older frame's boxes (or none) could leave a face
            // showing, so the stream stops instead.
            element.postError(.failed, "\(element.name): the analysis of the frame at \(pts) failed, so it cannot be "
                + "blurred; the stream stops rather than pass it on")
            failedFrame = true
            return nil
        }
        guard var hidden = analysis.latest else {
            frameIndex += 1
            return input.pointer
        }
        hasResult = true
        if !waiting {
            hidden = motion.boxes(from: hidden, at: pts, growthPerSecond: stage.configuration.growthPerSecond)
        }
        latestBySource[PrivacyStage.stageName] = hidden
        let context = CompositeContext(pts: pts, frameIndex: frameIndex, latestDetections: latestBySource)
        frameIndex += 1
        guard blur?.willDraw(context) == true else { return input.pointer }
        pending = context
        return frames.writable(input, format: format)
    }

    override func process(_ buffer: BufferHandle) -> FlowResult {
        guard let format else { return .notNegotiated }
        guard !failedFrame else { return .error }
        guard let context = pending, let blur else { return .ok }
        pending = nil
        let drawn: Void? = buffer.withPlanes(format: format, writable: true) { blur.composite(onto: $0, context: context) }
        guard drawn != nil else {
            element.postError(.failed, "\(element.name): a frame could not be mapped for writing, so it was not "
                + "blurred; the stream stops rather than pass it on")
            return .error
        }
        return .ok
    }

    override func handle(_ event: SinkPadEvent) {
        switch event {
        case .endOfStream:
            guard let analysis, let stage else { return }
            analysis.finish()
            element.postMessage(named: AnalysisCounters.messageName, fields: counters.fields(stage: stage.name))
            let report = stage.report
            let blurred = blur?.framesBlurred ?? [:]
            let lag = motion.longestLag
            for kind in Set(report.kinds.keys).union(blurred.keys).sorted() {
                let figures = report.kinds[kind]
                element.postMessage(named: Self.privacyMessageName, fields: [
                    StructureField("class", .string(kind)),
                    StructureField("detections", .int(figures?.detections ?? 0)),
                    StructureField("tracks", .int(figures?.tracks ?? 0)),
                    StructureField("frames-blurred", .int(blurred[kind] ?? 0)),
                    StructureField("longest-gap", .double(figures?.longestGapSeconds ?? 0)),
                    StructureField("longest-lag", .double(lag.seconds)),
                ])
            }
        case .flushStop:
            streamTime.restart()
            hasResult = false
            analysis?.forgetLatest()
            motion.reset()
        case .segment(let segment): streamTime.segment = segment
        default: break
        }
    }
}
