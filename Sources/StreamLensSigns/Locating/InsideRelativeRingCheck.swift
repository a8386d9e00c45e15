import Foundation
import StreamLensCore

/// Decides whether a luma circle is the ring of a round sign judged against the sign's own inside only: the ring
/// redder and darker than the disc it encloses, whatever the scene around it.
///
/// For circles seeded by ``RingContrastSearch``: under a colour cast a maroon ring can be less red than the street
/// around it, so ``CircleRingCheck``'s comparison with the scene would reject it, and its band cannot be found as the
/// reddest radius either (the street beyond may be redder). The circle fixes the geometry instead. OpenCV's Hough
/// transform returns either edge of the ring — or, on a soft (out-of-focus) sign whose thin ring has no edges left,
/// its middle — so three bands are tried: the circle as the outer edge (the band from ``ringShare`` of its radius to
/// it), as the inner edge (from it to its radius / ``ringShare``) and as the middle. A band is a ring when, over 16
/// directions,
/// - its V is ``minimumRedness`` above the inside's (up to 0.3 of the inner radius), with a red hue shift (U falls a
///   little, not more than V rises);
/// - its luma is ``minimumDarkening`` below the inside's white (per direction the brightest luma between 0.4 and 0.9
///   of the inner radius: the margin around the digits);
/// - it is redder than the inside and darker than the white in ``minimumDirectionShare`` of the directions;
/// - it ends: just outside it (1.1–1.2 radii) the scene differs from the band in luma by ``minimumEdgeLuma`` or in V
///   by ``minimumEdgeRedness`` in ``minimumEdgeShare`` of the directions. A bluish window in a dark red car body is
///   "inside" a band of body that never ends; a sign's ring always meets the scene.
/// Of the passing bands the one more unlike the inside wins (V contrast + a quarter of the darkening): the ring is
/// darker than a street seen through the other band in both cases measured (backlit sky, dark trees).
///
/// ## Thread Safety
/// Not synchronized: keeps its per-direction buffers between calls.
struct InsideRelativeRingCheck {
    var minimumRedness: Double
    var minimumDarkening = 8.0
    /// 0.85, not ``CircleRingCheck``'s 0.7: on real sign-free footage 0.7 let 262 candidates through in 395 frames
    /// (0.85: 170; the red mask alone: 97) for 19 more of 1141 sign frames located.
    var minimumDirectionShare: Double
    var minimumEdgeLuma = 12.0
    var minimumEdgeRedness = 4.0
    var minimumEdgeShare = 0.6
    /// Inner-to-outer radius of a sign's ring (DIN and Vienna-convention signs: about 0.78).
    var ringShare = 0.78
    /// Whether every band, not only the middle one, must be even across its width (see ``band``): for circles tried
    /// at sizes nothing measured, which can straddle the edge of a pane and the body around it.
    var requiresEvenBand: Bool

    private static let directionCount = CircleRingCheck.directionCount
    private static let directions = CircleRingCheck.directions
    private var bandV = [Double](repeating: 0, count: directionCount)
    private var bandLuma = [Double](repeating: 0, count: directionCount)
    private var white = [Double](repeating: 0, count: directionCount)

    /// A check that wants the ring in `minimumDirectionShare` of the 16 directions (stricter ones judge circles
    /// that were moved or fitted rather than found).
    init(minimumDirectionShare: Double = 0.85, minimumRedness: Double = 4, requiresEvenBand: Bool = false) {
        self.minimumDirectionShare = minimumDirectionShare
        self.minimumRedness = minimumRedness
        self.requiresEvenBand = requiresEvenBand
    }

    /// The ring `circle` (luma pixels of `planes`) is an edge or the middle of, or nil when no band makes a sign's
    /// ring. `share` is the ring's inner-to-outer radius share to assume (default ``ringShare``).
    mutating func ring(
        around circle: CircleFinder.Circle, in planes: YUVPlanes, ringShare share: Double? = nil
    ) -> RingCandidate? {
        let ringShare = share ?? self.ringShare
        var best: (ring: RingCandidate, score: Double)?
        let middleShare = (1 + ringShare) / 2
        // The circle as the outer edge, the inner edge, the middle (no array: this runs for every checked circle).
        for interpretation in 0..<3 {
            let isMiddle = interpretation == 2
            let outerRadius = circle.radius / (interpretation == 0 ? 1 : isMiddle ? middleShare : ringShare)
            guard
                let ring = band(
                    centerX: circle.x, centerY: circle.y, outerRadius: outerRadius, ringShare: ringShare,
                    even: isMiddle || requiresEvenBand, in: planes),
                ring.score > best?.score ?? -.infinity
            else { continue }
            best = ring
        }
        return best?.ring
    }

    /// The band from `ringShare` × `outerRadius` to `outerRadius` judged against the disc inside it. An `even` band
    /// must also not step in luma across its width by more than half its darkening: a circle through the edge of a
    /// bluish window in a dark red body makes a "middle" band half pane, half body, which ends in body — an edge
    /// made by the band itself.
    private mutating func band(
        centerX: Double, centerY: Double, outerRadius: Double, ringShare: Double, even: Bool, in planes: YUVPlanes
    ) -> (ring: RingCandidate, score: Double)? {
        let innerRadius = ringShare * outerRadius
        // Rounded half away from zero by hand (`rounded()` is a library call, and this samples a few hundred points
        // per band): the same sample for every position that the clamping keeps inside the plane.
        func chroma(_ plane: Plane, _ x: Double, _ y: Double) -> Double {
            // Chroma sample i is centred on luma 2i + 1.
            let column = min(max(Int((x - 1) / 2 + 0.5), 0), plane.width - 1)
            let row = min(max(Int((y - 1) / 2 + 0.5), 0), plane.height - 1)
            return Double(plane[column, row]) - 128
        }
        func luma(_ x: Double, _ y: Double) -> Double {
            let column = min(max(Int(x + 0.5), 0), planes.y.width - 1)
            let row = min(max(Int(y + 0.5), 0), planes.y.height - 1)
            return Double(planes.y[column, row])
        }
        func bandRadius(_ step: Int) -> Double { innerRadius + Double(step) / 4 * (outerRadius - innerRadius) }
        let count = Double(Self.directionCount)
        // Colour first: most circles checked are not red at all, and their luma is then never looked at.
        var insideV = 0.0
        var insideU = 0.0
        var ringV = 0.0
        var ringU = 0.0
        for (direction, ray) in Self.directions.enumerated() {
            for step in 1...3 {
                let share = Double(step) / 10
                let x = centerX + share * innerRadius * ray.dx
                let y = centerY + share * innerRadius * ray.dy
                insideV += chroma(planes.v, x, y) / (3 * count)
                insideU += chroma(planes.u, x, y) / (3 * count)
            }
            var v = 0.0
            var u = 0.0
            for step in 1...3 {
                let radius = bandRadius(step)
                v += chroma(planes.v, centerX + radius * ray.dx, centerY + radius * ray.dy) / 3
                u += chroma(planes.u, centerX + radius * ray.dx, centerY + radius * ray.dy) / 3
            }
            bandV[direction] = v
            ringV += v / count
            ringU += u / count
        }
        let redness = ringV - insideV
        // Red, not orange or yellow (U falls faster than V rises) nor magenta (U rises).
        let hueShift = ringU - insideU
        guard redness >= minimumRedness, hueShift <= redness / 2, hueShift >= -redness else { return nil }
        var ringLuma = 0.0
        var meanWhite = 0.0
        var edgeDirections = 0
        var lumaStep = 0.0
        for (direction, ray) in Self.directions.enumerated() {
            var brightest = 0.0
            for step in 4...9 {
                let share = Double(step) / 10
                let radius = share * innerRadius
                brightest = max(brightest, luma(centerX + radius * ray.dx, centerY + radius * ray.dy))
            }
            white[direction] = brightest
            meanWhite += brightest / count
            var y = 0.0
            var innermostLuma = 0.0
            for step in 1...3 {
                let radius = bandRadius(step)
                let sample = luma(centerX + radius * ray.dx, centerY + radius * ray.dy)
                y += sample / 3
                if step == 1 {
                    innermostLuma = sample
                } else if step == 3 {
                    lumaStep += abs(sample - innermostLuma) / count
                }
            }
            bandLuma[direction] = y
            var outsideV = 0.0
            var outsideLuma = 0.0
            for step in 1...2 {
                let radius = outerRadius * (1 + Double(step) / 10)
                outsideV += chroma(planes.v, centerX + radius * ray.dx, centerY + radius * ray.dy) / 2
                outsideLuma += luma(centerX + radius * ray.dx, centerY + radius * ray.dy) / 2
            }
            if abs(outsideLuma - y) >= minimumEdgeLuma || abs(outsideV - bandV[direction]) >= minimumEdgeRedness {
                edgeDirections += 1
            }
            ringLuma += y / count
        }
        let darkening = meanWhite - ringLuma
        guard darkening >= minimumDarkening, !even || lumaStep <= darkening / 2 else { return nil }
        var ringDirections = 0
        for direction in 0..<Self.directionCount
        where bandV[direction] - insideV >= redness / 3 && bandLuma[direction] < white[direction] {
            ringDirections += 1
        }
        let coverage = Double(ringDirections) / count
        guard coverage >= minimumDirectionShare, Double(edgeDirections) / count >= minimumEdgeShare else { return nil }
        let ring = RingCandidate(
            centerX: centerX, centerY: centerY, radiusX: outerRadius, radiusY: outerRadius,
            innerRadiusX: innerRadius, innerRadiusY: innerRadius, ringCoverage: coverage, isFaint: true)
        return (ring, redness + darkening / 4)
    }
}
