import StreamLensCore

/// Builds the object-detection stage and its schedule from ``ObjectDetectionOptions``: what the runner calls for
/// `--detector …`.
public enum ObjectDetectionSetup {
    /// When the detector (the model) is loaded.
    public enum Loading: Sendable, Equatable {
        /// In ``make(_:events:mot:coco:clock:loading:)``: a missing or broken model stops the run before it starts, with
        /// one error naming the file.
        case now
        /// On the first analysed frame, on the analysis thread: a missing or broken model never stops the video;
        /// each failed attempt is an analysis failure and the circuit breaker spaces out the retries.
        case onFirstFrame
    }

    /// A stage and the schedule to run it on.
    public struct Built: Sendable {
        public var stage: ObjectDetectionStage
        public var schedule: AdaptiveBudgetSchedule
    }

    /// Checks every option (class-names file and cascade name included) and builds the stage and schedule.
    public static func make(
        _ options: ObjectDetectionOptions, events: EventLog? = nil, mot: MOTWriter? = nil, coco: COCOWriter? = nil,
        clock: any MonotonicClock = SystemClock(), loading: Loading = .onFirstFrame
    ) throws -> Built {
        // The stage filters by the names detections carry: class ids in the filter become those names.
        var options = options
        options.allowedClasses = options.effectiveAllowedClasses
        let reported = try reportedClasses(options)
        options.allowedClasses = try reported.names(for: options.allowedClasses)
        options.deniedClasses = try reported.names(for: options.deniedClasses)
        var stageConfiguration = ObjectDetectionStage.Configuration()
        stageConfiguration.preferredAnalysisWidth = options.effectiveAnalysisWidth
        stageConfiguration.analysisColours = options.analysisColours
        stageConfiguration.confidenceThreshold = options.confidenceThreshold
        stageConfiguration.allowedClasses = Set(options.allowedClasses)
        stageConfiguration.deniedClasses = Set(options.deniedClasses)
        stageConfiguration.tracker.maxConcurrent = options.maxConcurrent
        stageConfiguration.tracker.maxAge = options.maxAge
        stageConfiguration.tracker.maxMissedAnalyses = options.maxMissedAnalyses
        stageConfiguration.tracker.reidentificationWindow = options.reidentificationWindow
        stageConfiguration.tracker.confirmationHits = options.confirmationHits
        stageConfiguration.trackingFloor = options.trackingFloor
        // Set: everywhere. Not set: the tracker's 0.35 hides a detector's jitter while results age (live), and the
        // stage's "none" keeps an awaited result's box where it was found.
        if let smoothing = options.smoothing {
            stageConfiguration.tracker.smoothing = smoothing
            stageConfiguration.smoothingWhenAwaited = smoothing
        }
        stageConfiguration.tracker.primarySubjectOnly = options.primarySubject
        stageConfiguration.breaker = options.breaker
        stageConfiguration.emitDetectionEvents = options.detectionEvents
        stageConfiguration.mot = mot
        stageConfiguration.coco = coco

        var scheduleConfiguration = AdaptiveBudgetSchedule.Configuration()
        scheduleConfiguration.base = options.everyNthFrame.map { .everyNthFrame($0) } ?? .interval(options.interval)
        scheduleConfiguration.latencyBudget = options.latencyBudget
        scheduleConfiguration.maximumScale = options.maxCadenceScale
        let schedule = try AdaptiveBudgetSchedule(configuration: scheduleConfiguration)

        let load = try loader(for: options)
        let stage: ObjectDetectionStage
        switch loading {
        case .now:
            stage = try ObjectDetectionStage(
                name: options.stageName, detector: try load(), configuration: stageConfiguration, clock: clock,
                events: events)
        case .onFirstFrame:
            stage = try ObjectDetectionStage(
                name: options.stageName, backendName: options.detector.description,
                configuration: stageConfiguration, clock: clock, events: events, loadDetector: load)
        }
        return Built(stage: stage, schedule: schedule)
    }

    /// Throws ``DetectionError/unknownClass(name:available:)`` when the class filter (`allowedClasses`,
    /// `deniedClasses`) names a class the detector does not report — checked before the run rather than on the first
    /// frame; other problems (an unknown cascade, a missing class-names file) throw as they are.
    public static func checkClassFilter(_ options: ObjectDetectionOptions) throws {
        _ = try reportedClasses(options).ids(for: options.allowedClasses + options.deniedClasses)
    }

    /// Throws ``DetectionError/invalidOption(_:)`` when `yolov8n` is asked for an input width it has no network for.
    public static func checkInputSize(_ options: ObjectDetectionOptions) throws {
        guard case .yolov8n = options.detector, !YOLOModel.inputWidths.contains(options.inputSize) else { return }
        let widths = YOLOModel.inputWidths.map(String.init).joined(separator: ", ")
        throw DetectionError.invalidOption("yolov8n runs at an input size of \(widths), not \(options.inputSize)")
    }

    /// The classes the detector reports, in id order: HOG and each cascade report one (id 0), a model those of its
    /// class-names file (COCO's 80 by default). A class filter naming anything else would drop every detection,
    /// silently, so it is refused.
    private static func reportedClasses(_ options: ObjectDetectionOptions) throws -> ClassNames {
        switch options.detector {
        case .hog: ClassNames([HOGPeopleDetector.className])
        case .cascade(let name): ClassNames([try CascadeCatalog().resolve(name).className])
        case .onnx: try options.classNamesPath.map { try ClassNames(contentsOf: $0) } ?? .coco
        case .yolov8n: .coco
        }
    }

    /// A function that creates the detector. Checks what can be checked without loading the model: option
    /// ranges, the cascade name, the class-names file, the class filter, and that a packaged model is installed.
    static func loader(for options: ObjectDetectionOptions) throws -> @Sendable () throws -> any ObjectDetector {
        guard (0...1).contains(options.trackingFloor) else {
            throw DetectionError.invalidOption("tracking floor \(options.trackingFloor) is outside 0…1")
        }
        guard (0...1).contains(options.confidenceThreshold), (0...1).contains(options.nmsThreshold) else {
            throw DetectionError.invalidOption("confidence and NMS thresholds must lie in 0…1")
        }
        if let stride = options.everyNthFrame, stride < 1 {
            throw DetectionError.invalidOption("every-Nth-frame stride must be at least 1")
        }
        try checkClassFilter(options)
        switch options.detector {
        case .hog:
            let hogOptions = options.hog
            return { try HOGPeopleDetector(options: hogOptions) }
        case .cascade(let name):
            let cascadeOptions = options.cascade
            return { try CascadeDetector(cascade: name, options: cascadeOptions) }
        case .onnx(let path):
            var onnx = ONNXDetector.Options()
            onnx.inputWidth = options.inputSize
            onnx.inputHeight = options.inputSize
            onnx.confidenceThreshold = options.detectorThreshold
            onnx.nmsThreshold = options.nmsThreshold
            onnx.layout = options.layout
            onnx.classNamesPath = options.classNamesPath
            onnx.allowedClasses = options.allowedClasses
            onnx.deniedClasses = options.deniedClasses
            let onnxOptions = onnx
            return { try ONNXDetector(modelPath: path, options: onnxOptions) }
        case .yolov8n:
            // Said before the run starts, even when the model would load on the first frame: without it the run
            // could only fail on every analysis.
            try checkInputSize(options)
            let input = options.yolov8nInput
            let path = try YOLOModel.requireInstalled(width: input.width, height: input.height)
            var onnx = ONNXDetector.Options()
            onnx.inputWidth = input.width
            onnx.inputHeight = input.height
            onnx.confidenceThreshold = options.detectorThreshold
            onnx.nmsThreshold = options.nmsThreshold
            onnx.layout = .v8
            onnx.allowedClasses = options.effectiveAllowedClasses
            onnx.deniedClasses = options.deniedClasses
            let onnxOptions = onnx
            return { try ONNXDetector(modelPath: path, options: onnxOptions) }
        }
    }
}
