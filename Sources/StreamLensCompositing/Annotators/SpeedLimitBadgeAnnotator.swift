import StreamLensCore
import StreamLensText
import Synchronization

/// Shows the newest speed limit read from the road as a sign badge in a corner of the frame: the European round sign
/// (red ring, white disc, black number) or the United States plate ("SPEED LIMIT" above the number), as the signs
/// being read look.
///
/// It looks for detections of class `speed_limit` (configurable) whose ``Detection/text`` holds the value; the one
/// from the newest analysis wins (ties: the most confident). Like a car's sign display it keeps showing the last
/// limit after the sign has left the picture, for `hold` (default 30 s) of stream time. Badges are rendered once
/// per value and size.
public struct SpeedLimitBadgeAnnotator: Annotator {
    /// Which road sign the badge copies.
    public enum Style: String, Sendable, Hashable {
        /// The round European sign (Vienna Convention C14).
        case europeanRound
        /// The rectangular United States sign (MUTCD R2-1), as tall as the round one is wide.
        case unitedStatesPlate
    }

    public let corner: FrameCorner
    public let style: Style
    /// Badge diameter as a fraction of the frame height (0.14: about 150 px at 1080p).
    public let diameterFraction: Double
    /// Gap to the frame edges as a fraction of the frame height.
    public let marginFraction: Double
    /// How long a limit stays after it was last seen; nil keeps it until another one is read.
    public let hold: Duration?
    public let className: String
    private let memory = LimitMemory()
    private let badges: TextTileCache<BadgeKey, OverlayTile>

    public init(
        corner: FrameCorner = .topRight, style: Style = .europeanRound, diameterFraction: Double = 0.14,
        marginFraction: Double = 0.03, hold: Duration? = .seconds(30), className: String = "speed_limit",
        matrix: ColorMatrix = .bt709, renderer: TextRenderer = TextRenderer()
    ) {
        self.corner = corner
        self.style = style
        self.diameterFraction = diameterFraction
        self.marginFraction = marginFraction
        self.hold = hold
        self.className = className
        badges = TextTileCache(capacity: 16, renderer: renderer) { OverlayTile(bitmap: $0, matrix: matrix) }
    }

    /// The limit on show at `context`'s time (after updating from its detections), if any.
    public func currentLimit(_ context: AnnotationContext) -> String? {
        var newest: (pts: Duration, confidence: Double, value: String)?
        context.forEachResult { result in
            for detection in result.items where detection.className == className {
                guard let value = detection.text, !value.isEmpty else { continue }
                if let best = newest, (best.pts, best.confidence) >= (result.pts, detection.confidence) { continue }
                newest = (result.pts, detection.confidence, value)
            }
        }
        return memory.state.withLock { seen in
            if let newest, seen.map({ newest.pts >= $0.pts }) ?? true {
                seen = SeenLimit(value: newest.value, pts: newest.pts)
            }
            guard let current = seen else { return nil }
            if let hold, context.pts - current.pts > hold { return nil }
            return current.value
        }
    }

    /// While a limit is on show.
    public func willDraw(_ context: AnnotationContext) -> Bool { currentLimit(context) != nil }

    public func draw(on frame: YUVPlanes, context: AnnotationContext) {
        guard let value = currentLimit(context) else { return }
        let diameter = max(16, Int(Double(frame.height) * diameterFraction) & ~1)
        let style = style
        guard let badge = badges.tile(for: BadgeKey(value: value, diameter: diameter), render: { renderer throws(TextRenderingError) in
            switch style {
            case .europeanRound: try renderer.renderSpeedLimitBadge(value: value, diameter: diameter)
            case .unitedStatesPlate: try renderer.renderUSSpeedLimitBadge(value: value, height: diameter)
            }
        }) else { return }
        let origin = corner.origin(
            width: badge.width, height: badge.height, frameWidth: frame.width, frameHeight: frame.height,
            margin: Int(Double(frame.height) * marginFraction))
        TileBlender.blend(badge, onto: frame, x: origin.x, y: origin.y)
    }
}

struct BadgeKey: Hashable, Sendable {
    var value: String
    var diameter: Int
}

struct SeenLimit: Sendable {
    var value: String
    var pts: Duration
}

/// The limit last read, kept between frames.
final class LimitMemory: Sendable {
    let state = Mutex<SeenLimit?>(nil)
}
