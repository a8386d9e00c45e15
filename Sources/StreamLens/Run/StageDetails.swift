import StreamLensCompositing
import StreamLensDetection
import StreamLensSigns

/// The `stage_details` entries of the run report: what each stage says about itself, in milliseconds and counts.

/// Object detection: the stage's counters (failures, breaker trips, tracks, inference times) and what the adaptive
/// schedule did.
struct DetectionDetails: Encodable {
    let stage: DetectionStageReport
    let schedule: Schedule

    struct Schedule: Encodable {
        let currentIntervalMilliseconds: Double
        let currentFrameStride: Int?
        let smoothedLatencyMilliseconds: Double?
        let lengthened: Int
        let shortened: Int

        enum CodingKeys: String, CodingKey {
            case currentIntervalMilliseconds = "current_interval_ms", currentFrameStride = "current_frame_stride"
            case smoothedLatencyMilliseconds = "smoothed_latency_ms", lengthened, shortened
        }
    }

    init(stage: DetectionStageReport, schedule: AdaptiveBudgetSchedule.Report) {
        self.stage = stage
        self.schedule = Schedule(
            currentIntervalMilliseconds: schedule.currentInterval.milliseconds,
            currentFrameStride: schedule.currentFrameStride,
            smoothedLatencyMilliseconds: schedule.smoothedLatency?.milliseconds,
            lengthened: schedule.lengthened, shortened: schedule.shortened)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stage, forKey: .stage)
        try container.encode(schedule, forKey: .schedule)
    }

    enum CodingKeys: String, CodingKey { case stage, schedule }
}

/// Speed-limit reading: reading time per candidate, the text-line recogniser's model and use, and how often the
/// template matcher ran.
struct SpeedLimitDetails: Encodable {
    let ocrCalls: Int
    let ocrMedianMilliseconds: Double?
    let ocrP95Milliseconds: Double?
    /// The text-line recogniser's model file; nil: the reader ran without it (not installed, or off).
    let textLineModel: String?
    let textLineReads: Int
    let templateMatches: Int
    /// Candidates located but not read (their sign's reads were complete, or a still ring that read nothing).
    let candidatesNotRead: Int
    /// Contrast seeds the locator passed over: rejected on the frame before, at the same place over the same picture.
    let contrastSeedsPassedOver: Int
    /// Why the installed model could not be loaded (the reader ran without it), if it could not.
    let textLineProblem: String?
    /// When Tesseract and the model were started: `before_input` (a frame-accurate run on a file, before its input
    /// opened), `background` (as another frame-accurate run began), `first_candidate`, `not_started`.
    let readerEngines: String
    /// Size of the frames the reader analysed: the source's, or scaled down for 4K and wider sources.
    let analysisWidth: Int?
    let analysisHeight: Int?

    init(_ stage: SpeedLimitStage) {
        let timings = stage.ocrTimings.samples()
        textLineModel = stage.textLineModelPath
        textLineReads = stage.ocrTimings.textLineReads
        templateMatches = stage.ocrTimings.templateMatches
        candidatesNotRead = stage.ocrTimings.candidatesNotRead
        contrastSeedsPassedOver = stage.ocrTimings.contrastSeedsPassedOver
        textLineProblem = stage.textLineModelProblem
        readerEngines = stage.enginesStart.rawValue
        let analysedSize = stage.ocrTimings.analysedSize
        analysisWidth = analysedSize?.width
        analysisHeight = analysedSize?.height
        ocrCalls = timings.count
        ocrMedianMilliseconds = Self.percentile(timings, 0.5)
        ocrP95Milliseconds = Self.percentile(timings, 0.95)
    }

    private static func percentile(_ samples: [Duration], _ fraction: Double) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))].milliseconds
    }

    enum CodingKeys: String, CodingKey {
        case ocrCalls = "ocr_calls", ocrMedianMilliseconds = "ocr_median_ms", ocrP95Milliseconds = "ocr_p95_ms"
        case textLineModel = "text_line_model", textLineReads = "text_line_reads", textLineProblem = "text_line_problem"
        case templateMatches = "template_matches", readerEngines = "reader_engines"
        case candidatesNotRead = "candidates_not_read", contrastSeedsPassedOver = "contrast_seeds_passed_over"
        case analysisWidth = "analysis_width", analysisHeight = "analysis_height"
    }
}

/// Overlays: what the clip cache holds and which rules were disabled.
struct OverlayDetails: Encodable {
    let hotClips: Int
    let cacheBytes: Int
    let loads: Int
    let evictions: Int
    let failures: Int
    let disabledClips: [String]

    init(_ report: OverlayStageReport) {
        hotClips = report.cache.hotClips
        cacheBytes = report.cache.bytes
        loads = report.cache.loads
        evictions = report.cache.evictions
        failures = report.cache.failures
        disabledClips = report.disabledClips
    }

    enum CodingKeys: String, CodingKey {
        case hotClips = "hot_clips", cacheBytes = "cache_bytes", loads, evictions, failures
        case disabledClips = "disabled_clips"
    }
}
