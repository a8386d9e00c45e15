import StreamLensCore

/// A red ring found in an analysis frame: a possible round speed-limit sign, before anything is read.
public struct RingCandidate: Sendable, Equatable {
    /// Centre of the ring in analysis-frame luma pixels.
    public var centerX: Double
    public var centerY: Double
    /// Outer half-width and half-height of the ring: an ellipse when the sign is seen at an angle.
    public var radiusX: Double
    public var radiusY: Double
    /// Half-width and half-height of the disc inside the ring (where the digits are).
    public var innerRadiusX: Double
    public var innerRadiusY: Double
    /// Share (0…1) of directions from the centre in which the ring was found: 1 for a complete ring.
    public var ringCoverage: Double
    /// Found by its shape (a luma circle) with a ring only faintly redder than its inside and the scene — a dark,
    /// backlit or weathered sign, or something that is not a sign: its reads must be surer.
    public var isFaint: Bool

    public init(
        centerX: Double, centerY: Double, radiusX: Double, radiusY: Double, innerRadiusX: Double,
        innerRadiusY: Double, ringCoverage: Double, isFaint: Bool = false
    ) {
        self.isFaint = isFaint
        self.centerX = centerX
        self.centerY = centerY
        self.radiusX = radiusX
        self.radiusY = radiusY
        self.innerRadiusX = innerRadiusX
        self.innerRadiusY = innerRadiusY
        self.ringCoverage = ringCoverage
    }

    /// The ring's bounding box in analysis-frame pixels.
    public var box: BoundingBox {
        BoundingBox(x: centerX - radiusX, y: centerY - radiusY, width: 2 * radiusX, height: 2 * radiusY)
    }

    /// Larger of the two diameters, in analysis-frame pixels.
    public var diameter: Double { 2 * max(radiusX, radiusY) }
}
