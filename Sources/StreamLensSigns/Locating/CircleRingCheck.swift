import Foundation
import StreamLensCore

/// Decides whether a circle found in luma (``CircleFinder``) is the ring of a round sign, from chroma: the ring must be
/// redder than the disc inside it and than the scene just outside — relative, not absolute, because a backlit or
/// weathered ring is only V − 128 = +2…+6 while a sunlit one is +30.
///
/// Reads a radial profile of V (and U) from the circle's centre to 1.5 × its radius along 16 directions. The circle may
/// be the ring's outer or inner edge, so the ring is found in the profile: the band around the reddest radius
/// between 0.6 and 1.3 radii where V stays above halfway between that peak and the inside. It is a sign's ring when
/// - the band is redder than the inside by ``minimumInsideContrast`` and than the outside by
///   ``minimumOutsideContrast`` (V levels), with a red hue difference (U falls a little, not more than V rises);
/// - the band is a ring, not a disc: its inner edge is between 0.5 and 0.92 of its outer edge (no-entry signs and
///   brake lights are red to the middle);
/// - the ring is redder than the inside in most directions (``minimumDirectionShare``), not just on one side.
///
/// ## Thread Safety
/// Not synchronized: keeps its profile buffers between calls.
struct CircleRingCheck {
    var minimumInsideContrast = 4.0
    var minimumOutsideContrast = 2.0
    var minimumDirectionShare = 0.7
    /// Smallest inner-to-outer edge ratio of the ring's band: below it the band is a disc, not a ring. A soft (blurred
    /// or small) ring's band spreads inwards, so this cannot be much higher than a sharp ring's 0.74 minus the blur.
    var minimumInnerShare = 0.4

    static let directionCount = 16
    /// Radial steps of a tenth of the circle's radius, 0…1.5.
    private static let stepCount = 16
    /// Unit vectors of the ``directionCount`` directions the ring is sampled along (also ``InsideRelativeRingCheck``'s).
    static let directions: [(dx: Double, dy: Double)] = (0..<directionCount).map {
        let angle = Double($0) * 2 * Double.pi / Double(directionCount)
        return (cos(angle), sin(angle))
    }
    /// V − 128 per direction and step, row-major by direction.
    private var samples = [Double](repeating: 0, count: directionCount * stepCount)
    private var meanV = [Double](repeating: 0, count: stepCount)
    private var meanU = [Double](repeating: 0, count: stepCount)

    /// The ring around `circle` (luma pixels of `planes`), or nil when its colours do not make a sign's ring.
    mutating func ring(around circle: CircleFinder.Circle, in planes: YUVPlanes) -> RingCandidate? {
        let steps = Self.stepCount
        // Chroma sample i is centred on luma 2i + 1.
        let centreX = (circle.x - 1) / 2
        let centreY = (circle.y - 1) / 2
        let radius = circle.radius / 2
        for step in 0..<steps {
            meanV[step] = 0
            meanU[step] = 0
        }
        for (direction, ray) in Self.directions.enumerated() {
            for step in 0..<steps {
                let t = Double(step) / 10 * radius
                let x = min(max(Int((centreX + t * ray.dx).rounded()), 0), planes.v.width - 1)
                let y = min(max(Int((centreY + t * ray.dy).rounded()), 0), planes.v.height - 1)
                let v = Double(planes.v[x, y]) - 128
                samples[direction * steps + step] = v
                meanV[step] += v / Double(Self.directionCount)
                meanU[step] += (Double(planes.u[x, y]) - 128) / Double(Self.directionCount)
            }
        }
        // The inside: up to 0.3 radii (where the digits are; black and white alike have no redness).
        let inside = (meanV[0] + meanV[1] + meanV[2] + meanV[3]) / 4
        let insideU = (meanU[0] + meanU[1] + meanU[2] + meanU[3]) / 4
        var peak = 6
        for step in 6...13 where meanV[step] > meanV[peak] { peak = step }
        let half = (meanV[peak] + inside) / 2
        var inner = peak
        while inner > 4, meanV[inner - 1] >= half { inner -= 1 }
        var outer = peak
        while outer < steps - 1, meanV[outer + 1] >= half { outer += 1 }
        // The scene must show beyond the ring, redder or not.
        guard outer <= steps - 3 else { return nil }
        let outside = (meanV[outer + 1] + meanV[outer + 2]) / 2
        let contrast = meanV[peak] - inside
        guard contrast >= minimumInsideContrast, meanV[peak] - outside >= minimumOutsideContrast else { return nil }
        // Red, not orange or yellow (U falls faster than V rises) nor magenta (U rises).
        let hueShift = meanU[peak] - insideU
        guard hueShift <= contrast / 2, hueShift >= -contrast else { return nil }
        let innerShare = (Double(inner) - 0.5) / (Double(outer) + 0.5)
        guard innerShare >= minimumInnerShare, innerShare <= 0.92 else { return nil }
        // Redder than the inside in most directions.
        var redDirections = 0
        for direction in 0..<Self.directionCount {
            var best = -Double.infinity
            for step in inner...outer { best = max(best, samples[direction * steps + step]) }
            if best - inside >= contrast / 3 { redDirections += 1 }
        }
        let coverage = Double(redDirections) / Double(Self.directionCount)
        guard coverage >= minimumDirectionShare else { return nil }
        let outerRadius = (Double(outer) + 0.5) / 10 * circle.radius
        let innerRadius = (Double(inner) - 0.5) / 10 * circle.radius
        return RingCandidate(
            centerX: circle.x, centerY: circle.y, radiusX: outerRadius, radiusY: outerRadius,
            innerRadiusX: innerRadius, innerRadiusY: innerRadius, ringCoverage: coverage,
            isFaint: meanV[peak] < 12)
    }
}
