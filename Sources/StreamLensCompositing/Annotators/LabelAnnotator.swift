import StreamLensCore
import StreamLensText

/// Writes "class confidence #track" (e.g. `person 0.87 #12`) on a tab in the class colour above each box.
///
/// Each distinct label is rendered once with Pango and converted once to a YUV tile; the cache key is the label's
/// parts (class, OCR text, confidence in hundredths, track id, colour, size), so a frame whose labels are all
/// cached builds no strings and allocates nothing. Text height scales with the frame (1/45 of its height: 24 px at
/// 1080p, at least 12 px).
public struct LabelAnnotator: Annotator {
    public let palette: ClassPalette
    public let showsConfidence: Bool
    public let showsTrackID: Bool
    /// Text height as a fraction of the frame height.
    public let textHeightFraction: Double
    public let font: String
    private let tiles: TextTileCache<LabelKey, OverlayTile>

    /// Labels kept rendered. A label names its confidence, so every analysis makes new ones, and a kept one is
    /// ~40 KB at 1080p (luma, alpha and the chroma of each pixel phase): the 512 kept before grew a long run's memory
    /// by 20 MiB over its first minutes. 64 still holds every label of many analyses.
    public static let defaultCacheCapacity = 64

    public init(
        palette: ClassPalette = ClassPalette(), showsConfidence: Bool = true, showsTrackID: Bool = true,
        textHeightFraction: Double = 1.0 / 45, font: String = "DejaVu Sans", matrix: ColorMatrix = .bt709,
        cacheCapacity: Int = LabelAnnotator.defaultCacheCapacity, renderer: TextRenderer = TextRenderer()
    ) {
        self.palette = palette
        self.showsConfidence = showsConfidence
        self.showsTrackID = showsTrackID
        self.textHeightFraction = textHeightFraction
        self.font = font
        tiles = TextTileCache(capacity: cacheCapacity, renderer: renderer) { OverlayTile(bitmap: $0, matrix: matrix) }
    }

    /// The label of a detection: class, the text read in it (if any), confidence with two decimals, track id.
    public static func labelText(className: String, text: String?, confidenceHundredths: Int?, trackID: Int?) -> String {
        var label = className
        if let text, !text.isEmpty { label += " \(text)" }
        if let hundredths = confidenceHundredths {
            let fraction = hundredths % 100
            label += " \(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
        }
        if let trackID { label += " #\(trackID)" }
        return label
    }

    /// Text size in pixels for a frame of `frameHeight` rows.
    public func textSize(frameHeight: Int) -> Int { max(12, Int((Double(frameHeight) * textHeightFraction).rounded())) }

    /// Cache statistics (renders, hits, evictions).
    public var cacheStatistics: TextTileCacheStatistics { tiles.statistics }
    /// Labels held rendered now.
    public var cachedLabelCount: Int { tiles.count }

    /// Only detections are drawn.
    public func willDraw(_ context: AnnotationContext) -> Bool { context.hasDetections }

    public func draw(on frame: YUVPlanes, context: AnnotationContext) {
        let size = textSize(frameHeight: frame.height)
        context.forEachDetection { detection in
            let confidence = min(1, max(0, detection.confidence.isFinite ? detection.confidence : 0))
            let key = LabelKey(
                className: detection.className, text: detection.text,
                confidenceHundredths: showsConfidence ? Int((confidence * 100).rounded()) : nil,
                trackID: showsTrackID ? detection.trackID : nil,
                colour: palette.colour(className: detection.className, classID: detection.classID), textSize: size)
            guard let tile = tiles.tile(for: key, render: { renderer throws(TextRenderingError) in
                try renderer.renderTile(text: key.labelText, style: key.style(font: font))
            }) else { return }
            guard let origin = Self.origin(of: tile, above: detection.box, frameWidth: frame.width, frameHeight: frame.height)
            else { return }
            TileBlender.blend(tile, onto: frame, x: origin.x, y: origin.y)
        }
    }

    /// Where a label tile goes: on top of the box's top-left corner, or just inside the box when there is no room
    /// above; kept inside the frame horizontally. Nil for boxes with non-finite coordinates.
    static func origin(of tile: OverlayTile, above box: BoundingBox, frameWidth: Int, frameHeight: Int) -> (x: Int, y: Int)? {
        guard box.x.isFinite, box.y.isFinite else { return nil }
        let left = Int(box.x.rounded(.down)), top = Int(box.y.rounded(.down))
        let x = max(0, min(left, frameWidth - tile.width))
        let y = top - tile.height >= 0 ? top - tile.height : max(0, min(top, frameHeight - tile.height))
        return (x, y)
    }
}

/// The parts a label is made of: hashed per frame instead of a built string.
struct LabelKey: Hashable, Sendable {
    var className: String
    var text: String?
    var confidenceHundredths: Int?
    var trackID: Int?
    var colour: RGBAColor
    var textSize: Int

    var labelText: String {
        LabelAnnotator.labelText(className: className, text: text, confidenceHundredths: confidenceHundredths, trackID: trackID)
    }

    func style(font: String) -> TextStyle {
        // White on dark classes, black on light ones.
        TextStyle(
            font: font, size: Double(textSize), isBold: true, colour: colour.luminance > 0.6 ? .black : .white,
            background: colour)
    }
}
