import StreamLensCore
import StreamLensFramePath
import StreamLensGStreamer
import StreamLensOptions

/// What streamlensdetect and streamlenssigns share: one analysis stage run by an ``ElementAnalysis`` (its own
/// thread, as in the command line), fed from `transform_ip`, and its newest result attached to every buffer as
/// `GstVideoRegionOfInterestMeta`.
///
/// `sync-analysis=off` never blocks the streaming thread: a frame due while the stage is busy is skipped.
/// `sync-analysis=on` waits for the stage first, so on files every due frame is analysed. `auto` (the default, as on
/// the command line) decides at the first buffer: it waits unless a latency query says upstream is live. At
/// end-of-stream the stage finishes (flushing its events) before end-of-stream goes downstream, and a
/// `streamlens-analysis` message says how many frames it analysed, skipped and failed on.
///
/// ## Thread Safety
/// See ``ElementLogic``: `analysis`, `format` and the frame counter are touched by one GStreamer thread at a time.
class AnalysisElement: ElementLogic, @unchecked Sendable {
    private var analysis: ElementAnalysis?
    private var counters = AnalysisCounters()
    private var format: VideoFormat?
    /// Whether frames wait for a busy stage; nil until the first buffer decides `auto`.
    private var waitWhenBusy: Bool?
    private var frameIndex = 0
    private var streamTime = BufferStreamTime()

    /// Builds the stage and its schedule from the properties; throws a one-line message for an ERROR.
    func makeStage() throws(ElementSetupError) -> (stage: any AnalysisStage, schedule: any AnalysisSchedule) {
        throw ElementSetupError(.failed, "no analysis stage")
    }

    /// Fields added to every region's parameter structure (the speed limit's unit, for example).
    func extraFields(for detections: Detections) -> [StructureField] { [] }

    override init(element: ElementHandle, rules: [PropertyRule]) {
        super.init(element: element, rules: rules + [PropertyRule(choiceOf: OptionSchema.syncAnalysis, "sync-analysis")])
    }

    /// Frames will (or will not) wait for the stage: what the detector does with it (its threads).
    func framesWillWait(_ waiting: Bool) {}

    override func begin() -> Start {
        do {
            let built = try makeStage()
            counters = AnalysisCounters()
            analysis = ElementAnalysis(stage: built.stage, schedule: built.schedule, observer: counters)
        } catch {
            element.postError(error.problem, "\(element.name): \(error.message)")
            return .failed
        }
        waitWhenBusy = switch string("sync-analysis") {
        case "on": true
        case "off": false
        default: nil
        }
        if let waitWhenBusy { decide(waiting: waitWhenBusy) }
        frameIndex = 0
        streamTime.restart()
        return .process
    }

    /// Waiting for the stage is the command line's file mode, and like it keeps a fixed cadence and tells the stage
    /// before its first frame (it then trades no result for time): the same file gets the same analyses however
    /// busy the machine is.
    private func decide(waiting: Bool) {
        waitWhenBusy = waiting
        if waiting {
            analysis?.stage.resultsWillBeAwaited()
            analysis?.schedule.keepBaseCadence()
        }
        framesWillWait(waiting)
    }

    override func end() {
        analysis?.stop()
        analysis = nil
        format = nil
    }

    override func negotiate(caps: UnsafeMutableRawPointer) -> Bool {
        let negotiated = VideoFormat(borrowingCaps: caps)
        // A result of the old size is in the old coordinates.
        if let format, negotiated.map({ $0.width != format.width || $0.height != format.height }) ?? true {
            analysis?.forgetLatest()
        }
        format = negotiated
        return format != nil
    }

    override func process(_ buffer: BufferHandle) -> FlowResult {
        guard let format, let analysis else { return .notNegotiated }
        // `auto`: upstream answers the latency query once it is linked and streaming; a source that cannot say is
        // taken as a file (frames wait), as the command line treats anything that is not a camera or a network stream.
        let waiting = waitWhenBusy ?? {
            let waiting = !(element.upstreamIsLive() ?? false)
            decide(waiting: waiting)
            return waiting
        }()
        let pts = streamTime.presentationTime(of: buffer, format: format)
        analysis.offer(buffer, format: format, pts: pts, frameIndex: frameIndex, waitWhenBusy: waiting)
        frameIndex += 1
        if let latest = analysis.latest {
            buffer.addRegionsOfInterest(
                latest, frameWidth: format.width, frameHeight: format.height, extraFields: extraFields(for: latest))
        }
        return .ok
    }

    override func handle(_ event: SinkPadEvent) {
        switch event {
        case .endOfStream:
            guard let analysis else { return }
            analysis.finish()
            element.postMessage(named: AnalysisCounters.messageName, fields: counters.fields(stage: analysis.stage.name))
        case .flushStop:
            streamTime.restart()
            analysis?.forgetLatest()
        case .segment(let segment): streamTime.segment = segment
        default: break
        }
    }
}
