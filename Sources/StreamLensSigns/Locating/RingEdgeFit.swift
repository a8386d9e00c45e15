import StreamLensCore

/// The inner edge of a sign's ring, fitted to luma around a ``RingContrastSearch`` seed: for signs whose Hough circles
/// are off.
///
/// A sign's inside is the brightest thing on it and its ring is darker, whatever the colour cast, so along every ray
/// from near the centre luma drops most where the inside meets the ring. On dark, hardly red rings under a bluish cast
/// (the second real-photo set's vtest pastes) OpenCV's Hough circle around a seed is often 4–6 px or a tenth of the
/// radius off, and the inside check, whose bands are a fifth of the radius wide, then fails a circle that, at the true
/// place, passes. This finds that place directly:
/// - along each of 16 rays from the seed's centre, from 0.4 to 1.2 seed radii, the middle of the steepest luma drop
///   (over a twelfth of the radius on each side, at least ``minimumDrop`` levels);
/// - a circle fitted to those points by least squares (Kåsa's algebraic fit), then again to the points within a quarter
///   of its radius of it, then twice to those within a tenth (``minimumInliers`` of the 16 must be: a ring, not a
///   corner or a bar);
/// - nil when the fitted centre strays more than a third of the seed radius from the seed or the radius leaves
///   0.4…1.2 seed radii.
/// The caller judges the circle's colours (``InsideRelativeRingCheck``): the fit only says where a round inner edge is.
///
/// ## Thread Safety
/// Not synchronized: keeps its edge points between calls.
struct RingEdgeFit {
    /// Rays (of 16) whose edge must lie on the fitted circle.
    var minimumInliers = 12
    /// Smallest luma drop across an edge (levels).
    var minimumDrop = 6.0

    private static let directions = CircleRingCheck.directions
    /// The inlier tolerances of the successive refits, as shares of the radius (a constant: no array per seed).
    private static let refitShares = [0.25, 0.1, 0.1]
    private var edgeX = [Double](repeating: 0, count: CircleRingCheck.directionCount)
    private var edgeY = [Double](repeating: 0, count: CircleRingCheck.directionCount)
    private var inlier = [Bool](repeating: false, count: CircleRingCheck.directionCount)
    /// Samples per ray: 0.4…1.2 radii in steps of at least a 32nd of the radius.
    private static let maximumSamples = 27
    /// The luma drop at each sample of the current ray.
    private var drops = [Double](repeating: 0, count: maximumSamples)

    /// The fitted inner edge near `center` for a seed of outer radius `radius` (luma pixels of `luma`), or nil.
    mutating func innerEdge(
        near center: (x: Double, y: Double), radius: Double, in luma: Plane
    ) -> CircleFinder.Circle? {
        guard radius >= 4 else { return nil }
        let sampleStep = max(1.0, radius / 32)
        let halfSpan = max(1.0, radius / 12)
        var count = 0
        let sampleCount = min(Self.maximumSamples, Int(0.8 * radius / sampleStep) + 1)
        for ray in Self.directions {
            var steepest = 0
            for index in 0..<sampleCount {
                let distance = 0.4 * radius + Double(index) * sampleStep
                let inner = luma.bilinear(
                    x: center.x + (distance - halfSpan) * ray.dx, y: center.y + (distance - halfSpan) * ray.dy)
                let outer = luma.bilinear(
                    x: center.x + (distance + halfSpan) * ray.dx, y: center.y + (distance + halfSpan) * ray.dy)
                drops[index] = inner - outer
                if drops[index] > drops[steepest] { steepest = index }
            }
            guard drops[steepest] >= minimumDrop else { continue }
            // The middle of the steepest stretch: across a sharp edge the drop is the same for every position within
            // a half span of it, and the first of them would put the edge a half span inside.
            let bar = 0.9 * drops[steepest]
            var first = steepest
            var last = steepest
            while first > 0, drops[first - 1] >= bar { first -= 1 }
            while last < sampleCount - 1, drops[last + 1] >= bar { last += 1 }
            let bestDistance = 0.4 * radius + Double(first + last) / 2 * sampleStep
            // Relative to the seed's centre: the fit's sums stay small.
            edgeX[count] = bestDistance * ray.dx
            edgeY[count] = bestDistance * ray.dy
            count += 1
        }
        guard count >= minimumInliers else { return nil }
        for index in 0..<count { inlier[index] = true }
        guard var circle = fit(count: count) else { return nil }
        // Again on the points near the last fit, first within a quarter of its radius, then a tenth: a ray that met
        // the ring's outer edge, a digit or the scene pulls the first fit off.
        var inliers = 0
        for share in Self.refitShares {
            inliers = markInliers(of: circle, within: share, count: count)
            guard inliers >= minimumInliers, let refitted = fit(count: count) else { return nil }
            circle = refitted
        }
        inliers = markInliers(of: circle, within: 0.1, count: count)
        guard inliers >= minimumInliers,
            (circle.x * circle.x + circle.y * circle.y).squareRoot() <= radius / 3,
            circle.radius >= 0.4 * radius, circle.radius <= 1.2 * radius
        else { return nil }
        return CircleFinder.Circle(x: center.x + circle.x, y: center.y + circle.y, radius: circle.radius)
    }

    /// Marks the edge points within `share` of `circle`'s radius (at least 1.5 px) of it; returns how many.
    private mutating func markInliers(of circle: CircleFinder.Circle, within share: Double, count: Int) -> Int {
        let tolerance = max(1.5, circle.radius * share)
        var inliers = 0
        for index in 0..<count {
            let dx = edgeX[index] - circle.x
            let dy = edgeY[index] - circle.y
            inlier[index] = abs((dx * dx + dy * dy).squareRoot() - circle.radius) <= tolerance
            if inlier[index] { inliers += 1 }
        }
        return inliers
    }

    /// Kåsa's fit over the marked points: the circle x² + y² + D·x + E·y + F = 0 closest in the least-squares sense,
    /// from its 3 × 3 normal equations (Cramer's rule). Nil when the points are collinear.
    private func fit(count: Int) -> CircleFinder.Circle? {
        var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0, n = 0.0
        var sxz = 0.0, syz = 0.0, sz = 0.0
        for index in 0..<count where inlier[index] {
            let x = edgeX[index]
            let y = edgeY[index]
            let z = x * x + y * y
            sx += x
            sy += y
            sxx += x * x
            syy += y * y
            sxy += x * y
            sz += z
            sxz += x * z
            syz += y * z
            n += 1
        }
        // [sxx sxy sx; sxy syy sy; sx sy n] · [D E F] = −[sxz syz sz]
        let determinant = sxx * (syy * n - sy * sy) - sxy * (sxy * n - sy * sx) + sx * (sxy * sy - syy * sx)
        guard abs(determinant) > 1e-9 else { return nil }
        let b1 = -sxz, b2 = -syz, b3 = -sz
        let d = (b1 * (syy * n - sy * sy) - sxy * (b2 * n - sy * b3) + sx * (b2 * sy - syy * b3)) / determinant
        let e = (sxx * (b2 * n - sy * b3) - b1 * (sxy * n - sy * sx) + sx * (sxy * b3 - b2 * sx)) / determinant
        let f = (sxx * (syy * b3 - b2 * sy) - sxy * (sxy * b3 - b2 * sx) + b1 * (sxy * sy - syy * sx)) / determinant
        let centerX = -d / 2
        let centerY = -e / 2
        let squared = centerX * centerX + centerY * centerY - f
        guard squared > 0 else { return nil }
        return CircleFinder.Circle(x: centerX, y: centerY, radius: squared.squareRoot())
    }
}
