import StreamLensCore
import StreamLensFramePath
import StreamLensGStreamer

/// What streamlensdetect and streamlenssigns share: one analysis stage run by an ``ElementAnalysis`` (its own
/// thread, as in the command line), fed from `transform_ip`, and its newest result attached to every buffer as
/// `GstVideoRegionOfInterestMeta`.
///
/// `sync-analysis=false` (the default) never blocks the streaming thread: a frame due while the stage is busy is
/// skipped. `sync-analysis=true` waits for the stage first, so on files every due frame is analysed, as the command
/// line does. At end-of-stream the stage finishes (flushing its events) before end-of-stream goes downstream, and
/// a `streamlens-analysis` message says how many frames it analysed, skipped and failed on.
///
/// ## Thread Safety
/// See ``ElementLogic``: `analysis`, `format` and the frame counter are touched by one GStreamer thread at a time.
class AnalysisElement: ElementLogic, @unchecked Sendable {
    private var analysis: ElementAnalysis?
    private var counters = AnalysisCounters()
    private var format: VideoFormat?
    private var waitWhenBusy = false
    private var frameIndex = 0
    private var lastPTS: Duration?
    /// The sink pad's time segment, for stream time.
    private var segment: TimeSegment?

    /// Builds the stage and its schedule from the properties; throws a one-line message for an ERROR.
    func makeStage() throws(ElementSetupError) -> (stage: any AnalysisStage, schedule: any AnalysisSchedule) {
        throw ElementSetupError(.failed, "no analysis stage")
    }

    /// Fields added to every region's parameter structure (the speed limit's unit, for example).
    func extraFields(for detections: Detections) -> [StructureField] { [] }

    override func begin() -> Start {
        // Waiting for the stage is the command line's file mode, and like it keeps a fixed cadence and tells the stage
        // before its first frame (it then trades no result for time): the same file gets the same analyses however
        // busy the machine is.
        waitWhenBusy = bool("sync-analysis")
        do {
            let built = try makeStage()
            if waitWhenBusy { built.stage.resultsWillBeAwaited() }
            counters = AnalysisCounters()
            analysis = ElementAnalysis(stage: built.stage, schedule: built.schedule, observer: counters)
        } catch {
            element.postError(error.problem, "\(element.name): \(error.message)")
            return .failed
        }
        if waitWhenBusy { analysis?.schedule.keepBaseCadence() }
        frameIndex = 0
        lastPTS = nil
        return .process
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
        let pts = presentationTime(of: buffer, format: format)
        analysis.offer(buffer, format: format, pts: pts, frameIndex: frameIndex, waitWhenBusy: waitWhenBusy)
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
            lastPTS = nil
            analysis?.forgetLatest()
        case .segment(let segment): self.segment = segment
        default: break
        }
    }

    /// The buffer's PTS in stream time (events and subtitles then match what players show); a buffer without one is
    /// placed a frame after the previous, so the schedule still advances.
    private func presentationTime(of buffer: BufferHandle, format: VideoFormat) -> Duration {
        let pts = buffer.pts.map { segment?.streamTime(of: $0) ?? $0 }
            ?? lastPTS.map { $0 + (format.frameDuration ?? .milliseconds(40)) } ?? .zero
        lastPTS = pts
        return pts
    }
}
