import StreamLensCore
import StreamLensText
import Synchronization

/// The numbers a HUD shows, taken once per frame from the statistics recorder.
public struct HUDSnapshot: Sendable, Equatable {
    public var framesPerSecond: Double
    public var droppedFrames: Int

    public init(framesPerSecond: Double, droppedFrames: Int) {
        self.framesPerSecond = framesPerSecond
        self.droppedFrames = droppedFrames
    }
}

/// Shows live figures ("25.0 fps  drops 3") in a corner, on a translucent dark box.
///
/// The figures change every frame, so the HUD does not render whole strings: it renders each character of a
/// monospace font once, as a tile, and lines the tiles up. Formatting writes ASCII codes into a buffer reserved in
/// `init`, so a steady-state frame allocates nothing.
public struct HUDAnnotator: Annotator {
    public let corner: FrameCorner
    /// Text height as a fraction of the frame height.
    public let textHeightFraction: Double
    private let snapshot: @Sendable () -> HUDSnapshot
    private let glyphs: TextTileCache<GlyphKey, OverlayTile>
    private let scratch = HUDScratch()
    private let backgroundColour: YUVColor

    /// - Parameter snapshot: called once per frame on the processing thread; must be quick and must not block.
    public init(
        corner: FrameCorner = .topLeft, textHeightFraction: Double = 1.0 / 40, matrix: ColorMatrix = .bt709,
        renderer: TextRenderer = TextRenderer(), snapshot: @escaping @Sendable () -> HUDSnapshot
    ) {
        self.corner = corner
        self.textHeightFraction = textHeightFraction
        self.snapshot = snapshot
        backgroundColour = YUVColor(red: 0, green: 0, blue: 0, matrix: matrix)
        glyphs = TextTileCache(capacity: 128, renderer: renderer) { OverlayTile(bitmap: $0, matrix: matrix) }
    }

    /// A HUD showing fixed figures.
    public init(corner: FrameCorner = .topLeft, snapshot fixed: HUDSnapshot) {
        self.init(corner: corner, snapshot: { fixed })
    }

    /// The HUD line for `snapshot` as ASCII codes, appended to `codes` (which is emptied first, keeping its memory).
    static func format(_ snapshot: HUDSnapshot, into codes: inout [UInt8]) {
        codes.removeAll(keepingCapacity: true)
        let tenths = snapshot.framesPerSecond.isFinite ? max(0, min(99_999, Int((snapshot.framesPerSecond * 10).rounded()))) : 0
        appendDigits(of: tenths / 10, to: &codes)
        codes.append(UInt8(ascii: "."))
        codes.append(UInt8(ascii: "0") + UInt8(tenths % 10))
        for character in " fps  drops ".utf8 { codes.append(character) }
        appendDigits(of: max(0, snapshot.droppedFrames), to: &codes)
    }

    private static func appendDigits(of value: Int, to codes: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            codes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    public func draw(on frame: YUVPlanes, context: AnnotationContext) {
        let size = max(10, Int((Double(frame.height) * textHeightFraction).rounded()))
        let figures = snapshot()
        scratch.codes.withLock { codes in
            Self.format(figures, into: &codes)
            // Every glyph of a monospace font has the same advance: the width of its tile (rendered with no padding).
            guard let zero = glyph(UInt8(ascii: "0"), size: size) else { return }
            let advance = zero.width
            let padding = max(2, size / 4)
            let boxWidth = advance * codes.count + 2 * padding
            let boxHeight = zero.height + 2 * padding
            let origin = corner.origin(
                width: boxWidth, height: boxHeight, frameWidth: frame.width, frameHeight: frame.height, margin: padding)
            darken(x: origin.x, y: origin.y, width: boxWidth, height: boxHeight, on: frame)
            for (index, code) in codes.enumerated() where code != UInt8(ascii: " ") {
                guard let tile = glyph(code, size: size) else { continue }
                TileBlender.blend(tile, onto: frame, x: origin.x + padding + index * advance, y: origin.y + padding)
            }
        }
    }

    private func glyph(_ code: UInt8, size: Int) -> OverlayTile? {
        glyphs.tile(for: GlyphKey(code: code, size: size)) { renderer throws(TextRenderingError) in
            try renderer.renderTile(
                text: String(UnicodeScalar(code)),
                style: TextStyle(font: "DejaVu Sans Mono", size: Double(size), colour: .white, padding: 0, hasOutline: false))
        }
    }

    /// Halves the brightness of the box behind the text (luma towards black, chroma towards neutral).
    private func darken(x: Int, y: Int, width: Int, height: Int, on frame: YUVPlanes) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(frame.width, x + width), y1 = min(frame.height, y + height)
        guard x0 < x1, y0 < y1 else { return }
        let black = Int(backgroundColour.y)
        for row in y0..<y1 {
            let line = frame.y.row(row)
            for column in x0..<x1 {
                let sample = line + column * frame.y.pixelStride
                sample.pointee = UInt8(truncatingIfNeeded: (Int(sample.pointee) + black + 1) / 2)
            }
        }
        for row in (y0 / 2)..<min(frame.u.height, (y1 + 1) / 2) {
            let uLine = frame.u.row(row), vLine = frame.v.row(row)
            for column in (x0 / 2)..<min(frame.u.width, (x1 + 1) / 2) {
                let u = uLine + column * frame.u.pixelStride, v = vLine + column * frame.v.pixelStride
                u.pointee = UInt8(truncatingIfNeeded: (Int(u.pointee) + 129) / 2)
                v.pointee = UInt8(truncatingIfNeeded: (Int(v.pointee) + 129) / 2)
            }
        }
    }
}

struct GlyphKey: Hashable, Sendable {
    var code: UInt8
    var size: Int
}

/// The HUD's formatting buffer, reserved once.
final class HUDScratch: Sendable {
    let codes: Mutex<[UInt8]>

    init() {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64)
        codes = Mutex(buffer)
    }
}
