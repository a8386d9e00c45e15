import StreamLensCore
import StreamLensText

/// Draws an outline rectangle around every detection, in its class colour.
///
/// Outlines are snapped outward to even coordinates with an even thickness, so they cover whole chroma blocks and
/// keep their exact colour in 4:2:0. Thickness scales with the frame: 2 px up to 540p, 4 px at 1080p, 8 px at 4K.
public struct BoxAnnotator: Annotator {
    public let palette: ClassPalette
    /// Fixed thickness in pixels; nil scales with the frame (see ``scaledThickness(frameWidth:frameHeight:)``).
    public let thickness: Int?
    private let paletteYUV: [YUVColor]
    private let overridesYUV: [String: YUVColor]

    public init(palette: ClassPalette = ClassPalette(), thickness: Int? = nil, matrix: ColorMatrix = .bt709) {
        precondition(thickness.map { $0 > 0 } ?? true, "outline thickness must be positive")
        self.palette = palette
        self.thickness = thickness
        // Convert the palette once; drawing then only copies bytes.
        paletteYUV = palette.colours.map { YUVColor($0, matrix: matrix) }
        overridesYUV = palette.overrides.mapValues { YUVColor($0, matrix: matrix) }
    }

    /// An even thickness proportional to the frame's shorter side: max(2, ⌊side / 270⌋ rounded down to even).
    public static func scaledThickness(frameWidth: Int, frameHeight: Int) -> Int {
        max(2, (min(frameWidth, frameHeight) / 270) & ~1)
    }

    /// The YUV colour of a detection's class.
    public func colour(for detection: Detection) -> YUVColor {
        overridesYUV[detection.className]
            ?? paletteYUV[palette.index(className: detection.className, classID: detection.classID)]
    }

    /// Only detections are drawn.
    public func willDraw(_ context: AnnotationContext) -> Bool { context.hasDetections }

    public func draw(on frame: YUVPlanes, context: AnnotationContext) {
        let lineWidth = thickness ?? Self.scaledThickness(frameWidth: frame.width, frameHeight: frame.height)
        context.forEachDetection { detection in
            drawOutline(detection.box, lineWidth: lineWidth, colour: colour(for: detection), on: frame)
        }
    }

    /// The box in whole pixels, grown outward to even edges: (x0, y0, x1, y1), exclusive ends.
    public static func pixelRectangle(_ box: BoundingBox) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        guard box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite, box.width > 0, box.height > 0 else {
            return nil
        }
        // & ~1 rounds down to even, also for negative values; (v + 1) & ~1 rounds up.
        let x0 = Int(box.x.rounded(.down)) & ~1, y0 = Int(box.y.rounded(.down)) & ~1
        let x1 = (Int(box.maxX.rounded(.up)) + 1) & ~1, y1 = (Int(box.maxY.rounded(.up)) + 1) & ~1
        return (x0, y0, x1, y1)
    }

    private func drawOutline(_ box: BoundingBox, lineWidth: Int, colour: YUVColor, on frame: YUVPlanes) {
        guard let (x0, y0, x1, y1) = Self.pixelRectangle(box) else { return }
        let width = x1 - x0, height = y1 - y0
        if width <= 2 * lineWidth || height <= 2 * lineWidth {
            // Too small for a hollow outline: fill it.
            FramePainter.fillRectangle(x: x0, y: y0, width: width, height: height, colour: colour, on: frame)
            return
        }
        FramePainter.fillRectangle(x: x0, y: y0, width: width, height: lineWidth, colour: colour, on: frame)
        FramePainter.fillRectangle(x: x0, y: y1 - lineWidth, width: width, height: lineWidth, colour: colour, on: frame)
        FramePainter.fillRectangle(x: x0, y: y0 + lineWidth, width: lineWidth, height: height - 2 * lineWidth, colour: colour, on: frame)
        FramePainter.fillRectangle(
            x: x1 - lineWidth, y: y0 + lineWidth, width: lineWidth, height: height - 2 * lineWidth, colour: colour, on: frame)
    }
}
