import StreamLensCore
import StreamLensText

/// Shows the vehicle's speed beside the speed-limit badge ("72 km/h"), white, and red while it is above the limit on
/// the badge by more than the tolerance; from a GPS track (`--gps`). Nothing is drawn while the speed is unknown
/// (before the first fix, in a dropout).
///
/// The text sits on the inner side of the badge (left of it in a right corner, right of it in a left corner),
/// vertically centred on it, outlined in black to stand out on any road. Digits are cached tiles of each colour, so a frame
/// allocates nothing once they are rendered.
public struct SpeedReadoutAnnotator: Annotator {
    /// Where the speed comes from and what counts as over.
    public struct Source: Sendable {
        /// `km/h` or `mph`: the unit the speed is shown in, as the signs being read.
        public var unit: String
        /// Metres per second at a stream time, nil when unknown.
        public var speed: @Sendable (Duration) -> Double?
        /// The tolerance above a limit (in `unit`) before the speed shows red.
        public var tolerance: @Sendable (Double) -> Double

        public init(
            unit: String, speed: @escaping @Sendable (Duration) -> Double?, tolerance: @escaping @Sendable (Double) -> Double
        ) {
            self.unit = unit
            self.speed = speed
            self.tolerance = tolerance
        }
    }

    /// The badge it stands beside (the same one the frame shows: its limit memory is shared).
    public let badge: SpeedLimitBadgeAnnotator
    public let source: Source
    private let glyphs: TextTileCache<ReadoutGlyphKey, OverlayTile>
    private let scratch = HUDScratch()

    public init(
        badge: SpeedLimitBadgeAnnotator, source: Source, matrix: ColorMatrix = .bt709,
        renderer: TextRenderer = TextRenderer()
    ) {
        self.badge = badge
        self.source = source
        glyphs = TextTileCache(capacity: 64, renderer: renderer) { OverlayTile(bitmap: $0, matrix: matrix) }
    }

    /// The speed in the source's unit, rounded, and whether it is over the limit on show; nil while unknown.
    public func reading(_ context: AnnotationContext) -> (speed: Int, over: Bool)? {
        guard let metresPerSecond = source.speed(context.pts), metresPerSecond.isFinite else { return nil }
        let speed = source.unit == "mph" ? metresPerSecond * 3600 / 1609.344 : metresPerSecond * 3.6
        let limit = badge.currentLimit(context).flatMap { Double($0) }
        let over = limit.map { speed > $0 + source.tolerance($0) } ?? false
        return (Int(speed.rounded()), over)
    }

    public func willDraw(_ context: AnnotationContext) -> Bool { reading(context) != nil }

    public func draw(on frame: YUVPlanes, context: AnnotationContext) {
        guard let reading = reading(context) else { return }
        let diameter = max(16, Int(Double(frame.height) * badge.diameterFraction) & ~1)
        let margin = Int(Double(frame.height) * badge.marginFraction)
        let badgeOrigin = badge.corner.origin(
            width: diameter, height: diameter, frameWidth: frame.width, frameHeight: frame.height, margin: margin)
        let size = max(10, diameter / 3)
        guard let zero = glyph(UInt8(ascii: "0"), size: size, red: reading.over) else { return }
        // "72 km/h" as glyphs, one tile per character, formatted into a buffer reserved once.
        scratch.codes.withLock { codes in
            Self.format(speed: reading.speed, unit: source.unit, into: &codes)
            draw(codes, zero: zero, size: size, red: reading.over, badgeOrigin: badgeOrigin, diameter: diameter,
                 margin: margin, on: frame)
        }
    }

    /// `speed` and `unit` as ASCII codes ("72 km/h"), into `codes` (emptied first, keeping its memory).
    static func format(speed: Int, unit: String, into codes: inout [UInt8]) {
        codes.removeAll(keepingCapacity: true)
        var divisor = 1
        let value = max(0, speed)
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            codes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
        codes.append(UInt8(ascii: " "))
        for character in unit.utf8 { codes.append(character) }
    }

    private func draw(
        _ codes: [UInt8], zero: OverlayTile, size: Int, red: Bool, badgeOrigin: (x: Int, y: Int), diameter: Int,
        margin: Int, on frame: YUVPlanes
    ) {
        let advance = zero.width
        let padding = max(2, size / 4)
        let width = advance * codes.count + 2 * padding
        let height = zero.height + 2 * padding
        let onRight = badge.corner == .topRight || badge.corner == .bottomRight
        let x = onRight ? badgeOrigin.x - margin / 2 - width : badgeOrigin.x + diameter + margin / 2
        let y = badgeOrigin.y + (diameter - height) / 2
        for (index, code) in codes.enumerated() where code != UInt8(ascii: " ") {
            guard let tile = glyph(code, size: size, red: red) else { continue }
            TileBlender.blend(tile, onto: frame, x: x + padding + index * advance, y: y + padding)
        }
    }

    private func glyph(_ code: UInt8, size: Int, red: Bool) -> OverlayTile? {
        glyphs.tile(for: ReadoutGlyphKey(code: code, size: size, red: red)) { renderer throws(TextRenderingError) in
            try renderer.renderTile(
                text: String(UnicodeScalar(code)),
                style: TextStyle(
                    font: "DejaVu Sans Mono", size: Double(size), colour: red ? .signalRed : .white, padding: 0,
                    hasOutline: true))
        }
    }
}

struct ReadoutGlyphKey: Hashable, Sendable {
    var code: UInt8
    var size: Int
    var red: Bool
}
