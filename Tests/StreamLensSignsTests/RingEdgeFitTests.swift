import Foundation
import StreamLensCore
import Testing

@testable import StreamLensSigns

/// A circle fitted to a ring's inner edge around a contrast seed whose Hough circles are off.
struct RingEdgeFitTests {
    typealias Scene = RingContrastSearchTests

    /// The fitted inner edge of a sign drawn at (150, 110) with outer radius `radius`, seeded at `seed` with
    /// `seedRadius`, on the warm street of ``RingContrastSearchTests``, blurred by `blurPasses` box passes.
    static func fit(
        radius: Double, seed: (x: Double, y: Double), seedRadius: Double, blurPasses: Int = 0,
        draw: ((YUVPlanes) -> Void)? = nil
    ) -> CircleFinder.Circle? {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: Scene.warmScene)
        return image.withPlanes { planes in
            if let draw {
                draw(planes)
            } else {
                Scene.drawSign(planes, radius: radius, ring: Scene.castRing, inside: Scene.castInside)
            }
            for _ in 0..<blurPasses { boxBlur(planes.y) }
            var fit = RingEdgeFit()
            return fit.innerEdge(near: seed, radius: seedRadius, in: planes.y)
        }
    }

    /// A 3 × 3 box blur in place (a soft, out-of-focus sign).
    static func boxBlur(_ plane: Plane) {
        let copy = (0..<plane.height).flatMap { y in (0..<plane.width).map { x in Int(plane[x, y]) } }
        for y in 1..<(plane.height - 1) {
            for x in 1..<(plane.width - 1) {
                var sum = 0
                for dy in -1...1 {
                    for dx in -1...1 { sum += copy[(y + dy) * plane.width + x + dx] }
                }
                plane[x, y] = UInt8(sum / 9)
            }
        }
    }

    @Test func aSeedFourPixelsOffWithATooLargeRadiusFindsTheInnerEdge() {
        // The contrast search's grid: the seed a quarter radius off, its radius a step of the radius ladder too big.
        let circle = Self.fit(radius: 25, seed: (154, 106), seedRadius: 30)
        #expect(circle.map { hypot($0.x - 150, $0.y - 110) <= 1.5 && abs($0.radius - 0.78 * 25) <= 1.5 } == true,
                "\(String(describing: circle))")
    }

    @Test func aSoftSignsInnerEdgeIsFoundWhereItIs() {
        // Blurred, the edge is a slope: its middle is the edge, not where the slope begins.
        let circle = Self.fit(radius: 25, seed: (147, 112), seedRadius: 22, blurPasses: 3)
        #expect(circle.map { hypot($0.x - 150, $0.y - 110) <= 1.5 && abs($0.radius - 0.78 * 25) <= 2 } == true,
                "\(String(describing: circle))")
    }

    @Test func aSquarePaneIsNotACircle() {
        // A bright square window in a dark frame: edges on every ray, but not on one circle.
        let circle = Self.fit(radius: 25, seed: (150, 110), seedRadius: 28) { planes in
            SyntheticSign.paint(planes, colour: Scene.castRing) { x, y in abs(x - 150) <= 40 && abs(y - 110) <= 40 }
            SyntheticSign.paint(planes, colour: Scene.castInside) { x, y in abs(x - 150) <= 20 && abs(y - 110) <= 20 }
        }
        #expect(circle == nil, "\(String(describing: circle))")
    }

    @Test func aFlatSceneHasNoEdge() {
        let circle = Self.fit(radius: 25, seed: (150, 110), seedRadius: 28) { _ in }
        #expect(circle == nil)
    }

    @Test func theLocatorFindsACastSignFromItsSeedWhenHoughFindsNoCircle() {
        // Hough made blind (no circle gets enough votes): the fitted edge alone finds the sign, and only it.
        func candidates(fitting: Bool) -> [RingCandidate] {
            var locator = RedRingLocator()
            locator.circleFinder?.accumulatorThreshold = 10_000
            locator.fitsRingEdges = fitting
            // The contrast seed's path alone (the shape search fits edges around its own seeds).
            locator.maximumSymmetryChecks = 0
            let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: Scene.warmScene)
            return image.withPlanes { planes in
                Scene.drawSign(planes, radius: 30, ring: Scene.castRing, inside: Scene.castInside)
                locator.locate(in: planes)
                return locator.candidates
            }
        }
        let found = candidates(fitting: true)
        #expect(found.contains { hypot($0.centerX - 150, $0.centerY - 110) <= 2 && abs($0.radiusX - 30) <= 3 },
                "\(found)")
        #expect(candidates(fitting: false).isEmpty)
    }

    @Test func aThinRingIsJudgedAsOneWhenTheUsualShareOverreaches() {
        // A ring only an eighth of the radius wide on a green street: judged as a 0.78 ring, the fitted inner edge
        // puts the band's outer part on the street (greener, so the ring's hue looks orange against the bluish
        // inside). The thinner share keeps the band on the ring.
        let street: (y: UInt8, u: UInt8, v: UInt8) = (95, 112, 116)
        func ring(shares: [Double]) -> RingCandidate? {
            var locator = RedRingLocator()
            locator.fittedRingShares = shares
            let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: street)
            return image.withPlanes { planes in
                SyntheticSign.paint(planes, colour: Scene.castInside) { x, y in hypot(x - 150, y - 110) <= 30 }
                SyntheticSign.paint(planes, colour: Scene.castRing) { x, y in
                    let distance = hypot(x - 150, y - 110)
                    return distance >= 0.88 * 30 && distance <= 30
                }
                return locator.fittedRing(near: (153, 108), radius: 32, planes: planes)
            }
        }
        let found = ring(shares: [0.78, 0.88])
        #expect(found.map { hypot($0.centerX - 150, $0.centerY - 110) <= 1.5 && abs($0.radiusX - 30) <= 2 } == true,
                "\(String(describing: found))")
        let withUsualShare = ring(shares: [0.78])
        #expect(withUsualShare == nil, "\(String(describing: withUsualShare))")
    }
}
