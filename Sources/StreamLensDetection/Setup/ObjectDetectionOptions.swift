import StreamLensCore

/// Everything a run can say about object detection (command line or pipeline file), with their defaults.
public struct ObjectDetectionOptions: Sendable, Equatable {
    /// `--detector`.
    public var detector: DetectorSpec
    /// Name of the stage in reports, events and ``Detections/source``.
    public var stageName = "objects"
    /// Detections below this confidence are dropped.
    public var confidenceThreshold = 0.5
    /// ONNX: overlap above which the weaker box of a class is suppressed.
    public var nmsThreshold = 0.45
    /// ONNX: network input size (square), the size the model was exported with; `yolov8n`: the letterbox width
    /// (``YOLOModel/inputWidths``), its height following the frames' aspect.
    public var inputSize = 640
    /// The source frames' size when it is known before the first frame (the command line knows it, an element does
    /// not): `yolov8n` picks the network whose letterbox fits their aspect.
    public var frameWidth: Int?
    public var frameHeight: Int?
    /// ONNX: one class name per line (default: the 80 COCO names).
    public var classNamesPath: String?
    /// ONNX: the output layout (auto-detected by default).
    public var layout = ONNXDetector.Layout.auto
    /// Keep only these classes (names or ids; empty: all, or ``YOLOModel/roadClasses`` for `yolov8n`) / drop these.
    public var allowedClasses: [String] = []
    public var deniedClasses: [String] = []
    /// Analyse one frame per `interval` of stream time…
    public var interval: Duration = .milliseconds(300)
    /// …or, when set, one frame in every N.
    public var everyNthFrame: Int?
    /// Inference time one analysis may take before the cadence is lengthened.
    public var latencyBudget: Duration = .milliseconds(250)
    /// The cadence never grows beyond this multiple of its base.
    public var maxCadenceScale = 8.0
    /// At most this many detections per frame (most confident first).
    public var maxConcurrent = 5
    /// Detections unseen this long are dropped.
    public var maxAge: Duration = .seconds(30)
    /// Analysed frames a track may be missed (occlusion) before it ends.
    public var maxMissedAnalyses = 5
    /// Detections from this confidence up to the threshold only continue tracks (the tracker's second round).
    public var trackingFloor = 0.1
    /// Stream time a lost track keeps its id.
    public var reidentificationWindow: Duration = .seconds(3)
    /// Sightings in a row before a track gets an id and is shown.
    public var confirmationHits = 2
    /// EMA weight of the newest box (1: none); nil: 0.35 where the newest result is drawn (live), none where each
    /// analysed frame is drawn with its own result (``ObjectDetectionStage/resultsWillBeAwaited()``).
    public var smoothing: Double?
    /// Follow only the largest subject.
    public var primarySubject = false
    /// Width of the analysis copy; nil: the backend's default (640, or the ONNX input size).
    public var analysisWidth: Int?
    /// Backend tuning.
    public var hog = HOGPeopleDetector.Options()
    public var cascade = CascadeDetector.Options()
    /// Retry and circuit-breaker timing.
    public var breaker = CircuitBreaker.Configuration()
    /// Write a `detection` event per reported object per analysed frame (track events are always written).
    public var detectionEvents = true

    public init(detector: DetectorSpec) {
        self.detector = detector
    }

    /// The class filter in force: ``allowedClasses``, or when it is empty the detector's own default (the road
    /// classes for `yolov8n`, every class otherwise).
    public var effectiveAllowedClasses: [String] {
        if allowedClasses.isEmpty, case .yolov8n = detector { return YOLOModel.roadClasses }
        return allowedClasses
    }

    /// The network input `yolov8n` runs for these options.
    public var yolov8nInput: (width: Int, height: Int) {
        YOLOModel.inputSize(width: inputSize, frameWidth: frameWidth, frameHeight: frameHeight)
    }

    /// The score down to which a model hands boxes to the stage: the tracking floor when it is below the confidence
    /// threshold (those boxes only continue tracks). A lower score threshold before NMS keeps the same confident
    /// boxes: a box is suppressed only by a more confident one.
    public var detectorThreshold: Double { min(confidenceThreshold, trackingFloor) }

    /// The analysis width in force.
    public var effectiveAnalysisWidth: Int {
        if let analysisWidth { return analysisWidth }
        switch detector {
        case .onnx: return inputSize
        case .yolov8n: return inputSize
        case .hog, .cascade: return 640
        }
    }

    /// The analysis copy's colours the backend needs: BT.601 for an ONNX network, whose input OpenCV converts to BGR
    /// assuming it; the source's for HOG and cascades, which read luma only.
    public var analysisColours: AnalysisColours {
        switch detector {
        case .onnx, .yolov8n: .bt601
        case .hog, .cascade: .source
        }
    }
}
