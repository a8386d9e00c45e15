/// An axis-aligned rectangle in source-frame pixel coordinates (origin top-left, y down).
public struct BoundingBox: Sendable, Equatable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var area: Double { max(0, width) * max(0, height) }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var center: (x: Double, y: Double) { (x + width / 2, y + height / 2) }

    /// Intersection over union with `other`: 0 when disjoint, 1 when identical.
    public func intersectionOverUnion(_ other: BoundingBox) -> Double {
        let overlapWidth = min(maxX, other.maxX) - max(x, other.x)
        let overlapHeight = min(maxY, other.maxY) - max(y, other.y)
        guard overlapWidth > 0, overlapHeight > 0 else { return 0 }
        let intersection = overlapWidth * overlapHeight
        let union = area + other.area - intersection
        return union > 0 ? intersection / union : 0
    }

    /// Whether `other` lies wholly inside this box (edges may touch).
    public func contains(_ other: BoundingBox) -> Bool {
        x <= other.x && y <= other.y && maxX >= other.maxX && maxY >= other.maxY
    }

    /// The box scaled by `sx`, `sy` (from analysis-frame to source-frame coordinates, for example).
    public func scaled(x sx: Double, y sy: Double) -> BoundingBox {
        BoundingBox(x: x * sx, y: y * sy, width: width * sx, height: height * sy)
    }

    /// `[x, y, w, h]` rounded to whole pixels, as written in events.
    public var rounded: [Int] { [Int(x.rounded()), Int(y.rounded()), Int(width.rounded()), Int(height.rounded())] }
}
