/// One thing found in a frame: the single contract every detector and OCR stage produces and every annotator and
/// overlay rule consumes.
public struct Detection: Sendable, Equatable, Codable {
    /// Where, in source-frame pixels.
    public var box: BoundingBox
    /// Class name, for example `person` or `speed_limit`.
    public var className: String
    /// Numeric class id of the backend (COCO index, cascade index…); -1 when the backend has none.
    public var classID: Int
    /// 0…1.
    public var confidence: Double
    /// Stable id across frames once a tracker has associated the detection; nil before tracking.
    public var trackID: Int?
    /// Text read in the box (the speed value of a sign, for example).
    public var text: String?

    public init(
        box: BoundingBox, className: String, classID: Int = -1, confidence: Double,
        trackID: Int? = nil, text: String? = nil
    ) {
        self.box = box
        self.className = className
        self.classID = classID
        self.confidence = confidence
        self.trackID = trackID
        self.text = text
    }
}

/// Everything one analysis stage found in one frame.
public struct Detections: Sendable, Equatable {
    /// Presentation time of the analysed frame.
    public var pts: Duration
    /// Name of the stage that produced them.
    public var source: String
    public var items: [Detection]

    public init(pts: Duration, source: String, items: [Detection]) {
        self.pts = pts
        self.source = source
        self.items = items
    }

    public static func empty(pts: Duration, source: String) -> Detections {
        Detections(pts: pts, source: source, items: [])
    }

    public var isEmpty: Bool { items.isEmpty }
    public var count: Int { items.count }
}
