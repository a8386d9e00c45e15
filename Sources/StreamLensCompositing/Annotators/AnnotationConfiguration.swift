import StreamLensText

/// The annotations part of the YAML configuration (decoded by the runner), turned into an ``AnnotationStage``.
///
/// ```yaml
/// annotations:
///   boxes: true
///   labels: true
///   speed_limit_badge: top-right   # a frame corner, or "off"
///   hud: top-left                  # a frame corner, or "off"
///   spotlight: 0.3                 # brightness kept outside boxes; omit for no spotlight
///   sources: [detector, signs]     # analysis stages to draw; omit for all
/// ```
public struct AnnotationConfiguration: Sendable, Codable, Equatable {
    public var boxes: Bool?
    public var labels: Bool?
    public var speedLimitBadge: String?
    public var hud: String?
    public var spotlight: Double?
    public var sources: [String]?

    enum CodingKeys: String, CodingKey {
        case boxes, labels, hud, spotlight, sources
        case speedLimitBadge = "speed_limit_badge"
    }

    public init(
        boxes: Bool? = nil, labels: Bool? = nil, speedLimitBadge: String? = nil, hud: String? = nil,
        spotlight: Double? = nil, sources: [String]? = nil
    ) {
        self.boxes = boxes
        self.labels = labels
        self.speedLimitBadge = speedLimitBadge
        self.hud = hud
        self.spotlight = spotlight
        self.sources = sources
    }

    /// The stage, or nil when nothing is to be drawn. Boxes and labels default to on; the badge, HUD and spotlight
    /// to off. `hudSnapshot` feeds the HUD (required for it to be drawn).
    /// - Parameter badgeHold: how long the badge shows a limit after its sign was last in view (the speed-limit
    ///   stage's expiry; its detections stop when the sign leaves the picture).
    /// - Parameter badgeStyle: the road sign the badge copies (the region whose signs are read).
    /// - Parameter speed: the vehicle's speed for a readout beside the badge (a GPS track); nil draws none.
    public func makeStage(
        matrix: ColorMatrix = .bt709, renderer: TextRenderer = TextRenderer(),
        hudSnapshot: (@Sendable () -> HUDSnapshot)? = nil, badgeHold: Duration? = .seconds(30),
        badgeStyle: SpeedLimitBadgeAnnotator.Style = .europeanRound, speed: SpeedReadoutAnnotator.Source? = nil
    ) throws(OverlayError) -> AnnotationStage? {
        func corner(_ value: String?, _ key: String) throws(OverlayError) -> FrameCorner? {
            guard let value, value != "off" else { return nil }
            guard let corner = FrameCorner(rawValue: value) else {
                throw .invalidSpecification("\(key): \(value)", reason: "use top-left, top-right, bottom-left, bottom-right or off")
            }
            return corner
        }
        var annotators: [any Annotator] = []
        if let level = spotlight {
            guard level >= 0 && level <= 1 else {
                throw .invalidSpecification("spotlight: \(level)", reason: "the level must be within 0…1")
            }
            annotators.append(SpotlightAnnotator(level: level))
        }
        if boxes ?? true { annotators.append(BoxAnnotator(matrix: matrix)) }
        if labels ?? true { annotators.append(LabelAnnotator(matrix: matrix, renderer: renderer)) }
        if let badgeCorner = try corner(speedLimitBadge, "speed_limit_badge") {
            let badge = SpeedLimitBadgeAnnotator(
                corner: badgeCorner, style: badgeStyle, hold: badgeHold, matrix: matrix, renderer: renderer)
            annotators.append(badge)
            // The vehicle's speed beside it, when the run has a GPS track.
            if let speed { annotators.append(SpeedReadoutAnnotator(badge: badge, source: speed, matrix: matrix, renderer: renderer)) }
        }
        if let hudCorner = try corner(hud, "hud"), let hudSnapshot {
            annotators.append(HUDAnnotator(corner: hudCorner, matrix: matrix, renderer: renderer, snapshot: hudSnapshot))
        }
        guard !annotators.isEmpty else { return nil }
        return AnnotationStage(annotators: annotators, sources: sources.map(Set.init))
    }
}
