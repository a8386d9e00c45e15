import Foundation
import StreamLensCore
import Testing

@testable import StreamLensSigns

/// A ring under a colour cast, no redder than the street around it but redder and darker than its
/// own bluish inside (the second real-photo set's never-located signs), and look-alikes the contrast search must not
/// seed: a pink ring around a dark hole (brighter than its inside) and a red disc.
struct RingContrastSearchTests {
    /// A warm street: a little redder (V − 128 = +5) than the cast sign's ring.
    static let warmScene: (y: UInt8, u: UInt8, v: UInt8) = (120, 126, 133)
    /// Under a bluish cast: the ring's maroon at V − 128 = 0, the white inside bluish and bright.
    static let castRing: (y: UInt8, u: UInt8, v: UInt8) = (70, 124, 128)
    static let castInside: (y: UInt8, u: UInt8, v: UInt8) = (175, 132, 118)

    /// Paints a ring of `ring` (0.78…1 of `radius`) around a disc of `inside` at (`centerX`, 110), plus two dark
    /// digit bars when `digits`.
    static func drawSign(
        _ planes: YUVPlanes, radius: Double, ring: (y: UInt8, u: UInt8, v: UInt8),
        inside: (y: UInt8, u: UInt8, v: UInt8), digits: Bool = true, centerX: Double = 150
    ) {
        SyntheticSign.paint(planes, colour: inside) { x, y in hypot(x - centerX, y - 110) <= radius }
        SyntheticSign.paint(planes, colour: ring) { x, y in
            let distance = hypot(x - centerX, y - 110)
            return distance >= 0.78 * radius && distance <= radius
        }
        guard digits else { return }
        SyntheticSign.paint(planes, colour: (30, 128, 128)) { x, y in
            let dy = abs(y - 110)
            let dx = x - centerX
            return dy < 0.38 * radius
                && ((dx > -0.45 * radius && dx < -0.15 * radius) || (dx > 0.1 * radius && dx < 0.4 * radius))
        }
    }

    /// Seeds of the contrast search alone on a frame drawn by `draw` (its band test on eight positions at once
    /// unless `eightAtOnce` is false).
    static func seeds(eightAtOnce: Bool = true, draw: (YUVPlanes) -> Void) -> [RingContrastSearch.Seed] {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: warmScene)
        return image.withPlanes { planes in
            draw(planes)
            var v = SummedArea()
            var luma = SummedArea()
            v.build(from: planes.v, width: planes.v.width, height: planes.v.height, bias: 128)
            luma.build(from: planes.y, width: planes.v.width, height: planes.v.height, step: 2)
            var search = RingContrastSearch()
            search.testsEightPositionsAtOnce = eightAtOnce
            search.search(v: v, luma: luma)
            return search.seeds
        }
    }

    /// The band test on eight positions at once (radii searched 2 positions apart) gives exactly the seeds of the
    /// test one position at a time: on small cast signs among speckled red noise, where many positions pass the
    /// band test and go on to the ring boxes.
    @Test func theBandTestOnEightPositionsAtOnceSeedsAsOnePositionAtATime() throws {
        func draw(_ planes: YUVPlanes) {
            var state: UInt32 = 12345
            for y in 0..<planes.v.height {
                for x in 0..<planes.v.width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    planes.v[x, y] = 128 + UInt8(state >> 28)
                }
            }
            for (centerX, radius) in [(60.0, 17.0), (150.0, 23.0), (240.0, 30.0)] {
                Self.drawSign(planes, radius: radius, ring: Self.castRing, inside: Self.castInside, centerX: centerX)
            }
        }
        let eightAtOnce = Self.seeds(draw: draw)
        let oneAtATime = Self.seeds(eightAtOnce: false, draw: draw)
        #expect(eightAtOnce == oneAtATime)
        // The two smaller signs are seeded at the vectorised radii (8 and 11 chroma samples).
        #expect(oneAtATime.contains { $0.radius == 8 || $0.radius == 11 }, "\(oneAtATime)")
        #expect(oneAtATime.count >= 3, "\(oneAtATime)")
    }

    static func locate(contrastChecks: Int, draw: (YUVPlanes) -> Void) -> [RingCandidate] {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: warmScene)
        var locator = RedRingLocator()
        locator.maximumContrastChecks = contrastChecks
        // The colour searches alone: the shape search (RadialSymmetrySearchTests) finds this ring too.
        locator.maximumSymmetryChecks = 0
        return image.withPlanes { planes in
            draw(planes)
            locator.locate(in: planes)
            return locator.candidates
        }
    }

    @Test func summedAreaMeansMatchTheSamples() {
        let image = OwnedYUVImage(layout: .i420, width: 8, height: 6, fill: (0, 128, 128))
        image.withPlanes { planes in
            for y in 0..<6 {
                for x in 0..<8 { planes.y[x, y] = UInt8(10 * x + y) }
            }
            var sums = SummedArea()
            sums.build(from: planes.y, width: 4, height: 3, step: 2)
            // Grid sample (x, y) is luma (2x, 2y) = 20x + 2y; columns 1..<3, rows 0..<2: 20, 40, 22, 42.
            #expect(sums.sum(left: 1, top: 0, right: 3, bottom: 2) == 124)
            #expect(sums.mean(left: 1, top: 0, right: 3, bottom: 2) == 31)
            // Clamped to the grid: the whole grid's 12 samples.
            #expect(sums.mean(left: -5, top: -5, right: 50, bottom: 50) == (0 + 20 + 40 + 60) / 4 + 2)
            var biased = SummedArea()
            biased.build(from: planes.u, width: 4, height: 3, bias: 128)
            #expect(biased.sum(left: 0, top: 0, right: 4, bottom: 3) == 0)
        }
    }

    @Test(arguments: [20.0, 34.0, 60.0])
    func aCastRingRedderOnlyThanItsInsideIsSeeded(radius: Double) {
        let seeds = Self.seeds { Self.drawSign($0, radius: radius, ring: Self.castRing, inside: Self.castInside) }
        // Chroma sample i is centred on luma 2i + 1; the radii grid is about 4/3 apart. Since ring boxes may be a
        // little brighter than the inside's mean, the street just around the sign can make the seed one grid step
        // larger (34 px: seed radius 50); the luma circle search around a seed (0.6…1.3 of its radius) still reaches
        // the ring (aCastRingIsLocatedOnlyByTheContrastSearch).
        let seed = seeds.first { seed in
            max(abs(Double(2 * seed.x + 1) - 150), abs(Double(2 * seed.y + 1) - 110)) <= 0.2 * radius + 2
                && Double(2 * seed.radius) >= 0.7 * radius && Double(2 * seed.radius) <= 1.5 * radius
        }
        #expect(seed != nil, "no seed for a ring of radius \(radius): \(seeds)")
    }

    /// A ring whose measured redness over its inside is only 4 V levels (the second real set's greyish rings
    /// around greyish insides: 4–6 levels) is seeded; 3 is not. Painted 6 and 5 levels apart: the
    /// inside box's corners reach the ring, so the search measures 4 and 3.
    @Test(arguments: [(insideV: UInt8(122), seeded: true), (insideV: UInt8(123), seeded: false)])
    func aRingFourLevelsRedderThanItsInsideIsSeeded(insideV: UInt8, seeded: Bool) {
        let inside = (y: Self.castInside.y, u: Self.castInside.u, v: insideV)
        let radius = 20.0
        // A street as neutral as the ring (the warm one would add its redness to the ring boxes' outer edges).
        let seeds = Self.seeds { planes in
            SyntheticSign.paint(planes, colour: (110, 128, 128)) { _, _ in true }
            Self.drawSign(planes, radius: radius, ring: Self.castRing, inside: inside, digits: false)
        }
        let seed = seeds.first { seed in
            max(abs(Double(2 * seed.x + 1) - 150), abs(Double(2 * seed.y + 1) - 110)) <= 0.2 * radius + 2
                && Double(2 * seed.radius) >= 0.7 * radius && Double(2 * seed.radius) <= 1.5 * radius
        }
        #expect((seed != nil) == seeded, "\(seeds)")
        if seeded { #expect(seed?.redness == 4, "\(seeds)") }
    }

    @Test func aCastRingIsLocatedOnlyByTheContrastSearch() {
        let draw = { (planes: YUVPlanes) in
            Self.drawSign(planes, radius: 34, ring: Self.castRing, inside: Self.castInside)
        }
        // The red mask alone: the ring is less red than the street, so nothing.
        #expect(Self.locate(contrastChecks: 0, draw: draw).isEmpty)
        let found = Self.locate(contrastChecks: 3, draw: draw)
        #expect(found.count == 1, "\(found)")
        guard let ring = found.first else { return }
        #expect(abs(ring.centerX - 150) <= 3 && abs(ring.centerY - 110) <= 3, "\(ring)")
        #expect(abs(ring.radiusX - 34) <= 0.2 * 34, "\(ring)")
        #expect(ring.innerRadiusX < ring.radiusX && ring.innerRadiusX >= 0.5 * ring.radiusX, "\(ring)")
        #expect(ring.isFaint)
    }

    @Test func betweenSearchesTheSeedsFollowTheMovedSign() {
        // The whole search runs on every second frame; on the frame between, the sign has moved 8 px, is seeded again
        // around the seeds of the frame before, and is located there.
        var locator = RedRingLocator()
        #expect(locator.contrastSearchInterval == 2)
        for (frame, centerX) in [150.0, 158.0].enumerated() {
            let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: Self.warmScene)
            image.withPlanes { planes in
                Self.drawSign(planes, radius: 34, ring: Self.castRing, inside: Self.castInside, centerX: centerX)
                locator.locate(in: planes)
            }
            let seeded = locator.contrastSearch.seeds.contains {
                abs(Double(2 * $0.x + 1) - centerX) <= 6 && abs(Double(2 * $0.y + 1) - 110) <= 6
            }
            #expect(seeded, "frame \(frame): \(locator.contrastSearch.seeds)")
            #expect(locator.candidates.count == 1, "frame \(frame): \(locator.candidates)")
            guard let ring = locator.candidates.first else { continue }
            #expect(abs(ring.centerX - centerX) <= 3 && abs(ring.centerY - 110) <= 3, "frame \(frame): \(ring)")
        }
    }

    @Test func boldDigitsDarkerThanTheRingDoNotHideTheSign() {
        // Large bold digits on a grey-bluish inside (second real-photo set): the inside's mean (digits included) is
        // darker than the ring, though its white is brighter. Seeded, and located around the seed.
        let draw = { (planes: YUVPlanes) in
            Self.drawSign(planes, radius: 34, ring: (95, 124, 128), inside: (110, 132, 118))
        }
        let seeds = Self.seeds(draw: draw)
        #expect(seeds.contains { abs(Double(2 * $0.x + 1) - 150) <= 8 && abs(Double(2 * $0.y + 1) - 110) <= 8 },
            "\(seeds)")
        let found = Self.locate(contrastChecks: 6, draw: draw)
        #expect(found.count == 1 && found.allSatisfy { abs($0.centerX - 150) <= 3 && abs($0.centerY - 110) <= 3 },
            "\(found)")
    }

    @Test func aSoftRingIsConfirmedFromACircleThroughItsMiddle() {
        // Out of focus, a thin ring has no edges left, and the Hough circle runs through the ring's middle (0.89 of its
        // outer radius) — neither of its edges. The check tries that band too.
        let radius = 30.0
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: Self.warmScene)
        let ring = image.withPlanes { planes -> RingCandidate? in
            func colour(_ x: Double, _ y: Double) -> (y: Double, u: Double, v: Double) {
                let distance = hypot(x - 150, y - 110) / radius
                func mix(_ a: (y: UInt8, u: UInt8, v: UInt8), _ b: (y: UInt8, u: UInt8, v: UInt8), _ share: Double)
                    -> (y: Double, u: Double, v: Double)
                {
                    let t = min(max(share, 0), 1)
                    return (Double(a.y) * (1 - t) + Double(b.y) * t, Double(a.u) * (1 - t) + Double(b.u) * t,
                        Double(a.v) * (1 - t) + Double(b.v) * t)
                }
                // Blurred edges: inside → ring from 0.68 to 0.88, ring → street from 0.9 to 1.1 radii.
                return distance < 0.89
                    ? mix(Self.castInside, Self.castRing, (distance - 0.68) / 0.2)
                    : mix(Self.castRing, Self.warmScene, (distance - 0.9) / 0.2)
            }
            for y in 0..<planes.height {
                for x in 0..<planes.width { planes.y[x, y] = UInt8(colour(Double(x) + 0.5, Double(y) + 0.5).y) }
            }
            for y in 0..<planes.u.height {
                for x in 0..<planes.u.width {
                    let sample = colour(Double(2 * x + 1), Double(2 * y + 1))
                    planes.u[x, y] = UInt8(sample.u)
                    planes.v[x, y] = UInt8(sample.v)
                }
            }
            var check = InsideRelativeRingCheck()
            return check.ring(around: CircleFinder.Circle(x: 150, y: 110, radius: 0.89 * radius), in: planes)
        }
        #expect(ring != nil)
        guard let ring else { return }
        #expect(abs(ring.radiusX - radius) <= 0.08 * radius, "\(ring)")
    }

    @Test func aSeededCircleTwoPixelsOffAThinRingIsNudgedOntoIt() {
        // On dark, soft real rings OpenCV's Hough centre is often 1–2 px off. The inside check's
        // bands are a fifth of the radius wide, so off by two on a 24 px ring one side samples the disc, not the ring.
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: Self.warmScene)
        image.withPlanes { planes in
            Self.drawSign(planes, radius: 24, ring: Self.castRing, inside: Self.castInside)
            var locator = RedRingLocator()
            let off = CircleFinder.Circle(x: 152, y: 112, radius: 24)
            #expect(locator.insideCheck.ring(around: off, in: planes) == nil)
            // The first nudge that passes: (150, 112), one of the two 2 px moves towards the true centre.
            let ring = locator.nudgedRing(around: off, planes: planes)
            #expect(ring.map { hypot($0.centerX - 150, $0.centerY - 110) <= 2 && abs($0.radiusX - 24) <= 0.15 * 24 }
                == true, "\(String(describing: ring))")
            locator.seededCircleNudge = 0
            #expect(locator.nudgedRing(around: off, planes: planes) == nil)
        }
    }

    @Test func aBluishWindowInADarkRedBodyIsNotARing() {
        // A car's rear window: a bluish pane in a dark red body that goes on past any ring width. Seeded (it is
        // redder and darker than the pane), but no ring: the band never meets a scene.
        let found = Self.locate(contrastChecks: 3) { planes in
            SyntheticSign.paint(planes, colour: Self.castRing) { x, y in abs(x - 150) <= 90 && abs(y - 110) <= 80 }
            SyntheticSign.paint(planes, colour: Self.castInside) { x, y in hypot(x - 150, y - 110) <= 0.78 * 34 }
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test func aRejectedSeedOverAnUnchangedPictureIsPassedOverUntilItsTurnComesAgain() {
        // A fixed camera's car window: seeded and rejected on every frame. From the second frame its seeds are passed
        // over (not confirmed again) for seven frames in a row; the ninth checks them again.
        func drawWindow(_ planes: YUVPlanes, paneLuma: UInt8) {
            SyntheticSign.paint(planes, colour: Self.castRing) { x, y in abs(x - 150) <= 90 && abs(y - 110) <= 80 }
            var pane = Self.castInside
            pane.y = paneLuma
            SyntheticSign.paint(planes, colour: pane) { x, y in hypot(x - 150, y - 110) <= 0.78 * 34 }
        }
        func passedOverPerFrame(remembering: Bool, paneLuma: (Int) -> UInt8) -> [Int] {
            var locator = RedRingLocator()
            locator.remembersRejectedSeeds = remembering
            var passedOver: [Int] = []
            for frame in 0..<9 {
                let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: Self.warmScene)
                let before = locator.seedsPassedOver
                image.withPlanes { planes in
                    drawWindow(planes, paneLuma: paneLuma(frame))
                    locator.locate(in: planes)
                }
                #expect(locator.candidates.isEmpty, "frame \(frame): \(locator.candidates)")
                passedOver.append(locator.seedsPassedOver - before)
            }
            return passedOver
        }
        let still = passedOverPerFrame(remembering: true) { _ in Self.castInside.y }
        #expect(still[0] == 0 && still[8] == 0, "\(still)")
        #expect(still[1...7].allSatisfy { $0 > 0 } && Set(still[1...7]).count == 1, "\(still)")
        // The pane brightens by 4 levels a frame: never the same look twice, always checked.
        let brightening = passedOverPerFrame(remembering: true) { Self.castInside.y - 20 + UInt8(4 * $0) }
        #expect(brightening.allSatisfy { $0 == 0 }, "\(brightening)")
        #expect(passedOverPerFrame(remembering: false) { _ in Self.castInside.y }.allSatisfy { $0 == 0 })
    }

    @Test func aPinkRingAroundADarkHoleIsNotSeeded() {
        // A wheel in a red car, a dark hole in a pink surround: redder than the inside, but brighter.
        let seeds = Self.seeds {
            Self.drawSign($0, radius: 34, ring: (150, 124, 140), inside: (40, 128, 128), digits: false)
        }
        #expect(seeds.isEmpty, "\(seeds)")
    }

    @Test func aRedDiscIsNotSeeded() {
        // A brake light or a no-entry sign without its bar: red to the middle, no redder ring.
        let seeds = Self.seeds {
            Self.drawSign($0, radius: 34, ring: SyntheticSign.red, inside: SyntheticSign.red, digits: false)
        }
        #expect(seeds.isEmpty, "\(seeds)")
    }

    /// Between whole searches the search follows its seeds. A sign that drifted half a radius outwards and
    /// grew a fifth (beyond the third of a radius within which a luma circle is sought around the old seed) is seeded
    /// at its new place by ``RingContrastSearch/searchAround(v:luma:)``; a sign that appeared far from every old seed is
    /// left to the next whole search.
    @Test func theSearchAroundOldSeedsFollowsASignThatMovedAndGrew() {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: Self.warmScene)
        image.withPlanes { planes in
            var v = SummedArea()
            var luma = SummedArea()
            func tables() {
                v.build(from: planes.v, width: planes.v.width, height: planes.v.height, bias: 128)
                luma.build(from: planes.y, width: planes.v.width, height: planes.v.height, step: 2)
            }
            var search = RingContrastSearch()
            Self.drawSign(planes, radius: 30, ring: Self.castRing, inside: Self.castInside, centerX: 100)
            tables()
            search.search(v: v, luma: luma)
            #expect(search.seeds.contains { abs(2 * $0.x + 1 - 100) <= 8 && abs(2 * $0.y + 1 - 110) <= 8 }, "\(search.seeds)")
            // The next frame: the sign 15 px further out and 20 % larger; a second sign far to the right.
            SyntheticSign.paint(planes, colour: Self.warmScene) { _, _ in true }
            Self.drawSign(planes, radius: 36, ring: Self.castRing, inside: Self.castInside, centerX: 115)
            Self.drawSign(planes, radius: 30, ring: Self.castRing, inside: Self.castInside, centerX: 260)
            tables()
            search.searchAround(v: v, luma: luma)
            let followed = search.seeds.filter { abs(2 * $0.x + 1 - 115) <= 8 && abs(2 * $0.y + 1 - 110) <= 8 }
            #expect(!followed.isEmpty, "\(search.seeds)")
            // Near, as the locator measure counts it: radius within 1.5 times the sign's (the luma circle search around
            // a seed takes radii 0.6…1.3 of the seed's).
            #expect(followed.allSatisfy { Double(2 * $0.radius) / 36 < 1.5 && 36 / Double(2 * $0.radius) < 1.5 }, "\(followed)")
            #expect(!search.seeds.contains { 2 * $0.x + 1 > 200 }, "\(search.seeds)")
            search.search(v: v, luma: luma)
            #expect(search.seeds.contains { abs(2 * $0.x + 1 - 260) <= 8 }, "\(search.seeds)")
        }
    }
}
