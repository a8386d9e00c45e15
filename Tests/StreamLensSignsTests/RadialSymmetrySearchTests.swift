import Foundation
import StreamLensCore
import Testing

@testable import StreamLensSigns

/// Round things found by their luma edges alone, whatever their colour — the second real-photo
/// set's greyish rings that neither the red mask nor the contrast search seed.
struct RadialSymmetrySearchTests {
    static let neutralStreet: (y: UInt8, u: UInt8, v: UInt8) = (110, 128, 128)
    static let greyRing: (y: UInt8, u: UInt8, v: UInt8) = (70, 128, 128)
    static let whiteInside: (y: UInt8, u: UInt8, v: UInt8) = (175, 128, 128)
    /// A dark sign as GTSDB photographs them: a maroon ring round a dim, bluish-grey inside, on a bright scene.
    static let maroonRing: (y: UInt8, u: UInt8, v: UInt8) = (32, 130, 130)
    static let darkInside: (y: UInt8, u: UInt8, v: UInt8) = (46, 132, 125)
    static let brightScene: (y: UInt8, u: UInt8, v: UInt8) = (150, 128, 128)

    /// Seeds of the search alone on a 320 × 240 frame of `scene` drawn on by `draw`.
    static func seeds(
        scene: (y: UInt8, u: UInt8, v: UInt8) = neutralStreet, draw: (YUVPlanes) -> Void
    ) -> [RadialSymmetrySearch.Seed] {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: scene)
        return image.withPlanes { planes in
            draw(planes)
            var luma = SummedArea()
            luma.build(from: planes.y, width: planes.v.width, height: planes.v.height, step: 2)
            var search = RadialSymmetrySearch()
            search.search(luma: luma)
            return search.seeds
        }
    }

    @Test(arguments: [14.0, 20.0, 34.0, 60.0])
    func aGreyRingIsTheStrongestSeedAtItsCentre(radius: Double) throws {
        let seeds = Self.seeds { planes in
            RingContrastSearchTests.drawSign(planes, radius: radius, ring: Self.greyRing, inside: Self.whiteInside)
        }
        let best = try #require(seeds.first, "no seed")
        // Chroma sample i is centred on luma 2i + 1; the cells of larger radii are a sixth of the radius wide.
        #expect(abs(2 * best.x + 1 - 150) <= 0.15 * radius + 2, "\(seeds)")
        #expect(abs(2 * best.y + 1 - 110) <= 0.15 * radius + 2, "\(seeds)")
        // Either edge of the ring: the inside's (0.78 of the radius) or the scene's.
        let edge = Double(2 * best.radius)
        #expect(edge >= 0.65 * radius && edge <= 1.2 * radius, "\(seeds)")
    }

    @Test func aFlatFrameHasNoSeeds() {
        #expect(Self.seeds { _ in }.isEmpty)
    }

    /// Straight edges point at no common centre: a square as wide as a sign scores well under the sign's ring.
    @Test func aSquareScoresFarBelowARingOfItsSize() throws {
        let ring = try #require(Self.seeds { planes in
            RingContrastSearchTests.drawSign(planes, radius: 34, ring: Self.greyRing, inside: Self.whiteInside,
                digits: false)
        }.first)
        let square = Self.seeds { planes in
            SyntheticSign.paint(planes, colour: Self.whiteInside) { x, y in abs(x - 150) <= 34 && abs(y - 110) <= 34 }
        }
        #expect((square.first?.score ?? 0) < 0.5 * ring.score, "ring \(ring), square \(square)")
    }

    /// Searches the whole of a 320 × 240 frame of `scene` drawn on by `first`, then only around its seeds in a
    /// second frame drawn on by `second`; returns both searches' seeds.
    static func seedsAround(
        scene: (y: UInt8, u: UInt8, v: UInt8) = neutralStreet, first: (YUVPlanes) -> Void,
        second: (YUVPlanes) -> Void
    ) -> (whole: [RadialSymmetrySearch.Seed], around: [RadialSymmetrySearch.Seed]) {
        var search = RadialSymmetrySearch()
        var luma = SummedArea()
        func searched(_ draw: (YUVPlanes) -> Void, around: Bool) -> [RadialSymmetrySearch.Seed] {
            let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: scene)
            return image.withPlanes { planes in
                draw(planes)
                luma.build(from: planes.y, width: planes.v.width, height: planes.v.height, step: 2)
                if around { search.searchAround(luma: luma) } else { search.search(luma: luma) }
                return search.seeds
            }
        }
        let whole = searched(first, around: false)
        return (whole, searched(second, around: true))
    }

    /// A window around a seed holds every edge that can vote for a centre near it, on the whole search's lattice and
    /// cells: the same frame searched around its seeds gives its ring the very seed the whole search gave it.
    @Test(arguments: [14.0, 34.0, 60.0])
    func aRingScoresTheSameInAWindowAsInTheWholeFrame(radius: Double) throws {
        let draw = { (planes: YUVPlanes) in
            RingContrastSearchTests.drawSign(planes, radius: radius, ring: Self.greyRing, inside: Self.whiteInside)
        }
        let (whole, around) = Self.seedsAround(first: draw, second: draw)
        let best = try #require(whole.first, "no seed")
        #expect(around.first == best, "whole \(whole), around \(around)")
    }

    /// Between whole searches a sign is followed as it drifts and grows (10 px and 15 % here, more than a sign
    /// moves in one analysis interval); a ring that was not there before is left to the next whole search.
    @Test func aMovedRingIsFollowedAndANewOneLeftToTheNextWholeSearch() throws {
        let (whole, around) = Self.seedsAround(
            first: { planes in
                RingContrastSearchTests.drawSign(planes, radius: 30, ring: Self.greyRing, inside: Self.whiteInside)
            },
            second: { planes in
                RingContrastSearchTests.drawSign(
                    planes, radius: 34.5, ring: Self.greyRing, inside: Self.whiteInside, centerX: 160)
                RingContrastSearchTests.drawSign(
                    planes, radius: 30, ring: Self.greyRing, inside: Self.whiteInside, centerX: 260)
            })
        #expect(!whole.isEmpty)
        let followed = try #require(around.first, "not followed")
        #expect(abs(2 * followed.x + 1 - 160) <= 0.15 * 34.5 + 2, "\(around)")
        #expect(abs(2 * followed.y + 1 - 110) <= 0.15 * 34.5 + 2, "\(around)")
        #expect(!around.contains { abs(2 * $0.x + 1 - 260) < 30 }, "the new ring was searched: \(around)")
    }

    /// Between whole searches the search also looks around places it is given (the locator's last rings, whatever
    /// found them) and keeps looking around the whole search's seeds when a window loses its ring for a frame.
    @Test func givenPlacesAndTheWholeSearchsSeedsAreSearchedAround() throws {
        var search = RadialSymmetrySearch()
        var luma = SummedArea()
        func searched(
            ring: Bool, around: Bool, places: [RadialSymmetrySearch.Seed] = []
        ) -> [RadialSymmetrySearch.Seed] {
            let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: Self.neutralStreet)
            return image.withPlanes { planes in
                if ring {
                    RingContrastSearchTests.drawSign(planes, radius: 30, ring: Self.greyRing, inside: Self.whiteInside)
                }
                luma.build(from: planes.y, width: planes.v.width, height: planes.v.height, step: 2)
                if around { search.searchAround(luma: luma, alsoAround: places) } else { search.search(luma: luma) }
                return search.seeds
            }
        }
        func isOnTheRing(_ seed: RadialSymmetrySearch.Seed) -> Bool {
            abs(2 * seed.x + 1 - 150) <= 6 && abs(2 * seed.y + 1 - 110) <= 6
        }
        // A blank frame's whole search leaves nothing to follow: the ring is found only at the place given.
        #expect(searched(ring: false, around: false).isEmpty)
        #expect(searched(ring: true, around: true).isEmpty)
        let place = RadialSymmetrySearch.Seed(x: 74.5, y: 54.5, radius: 15, score: 0)
        #expect(searched(ring: true, around: true, places: [place]).contains(where: isOnTheRing))
        // Found by a whole search, lost for a frame, found again: its whole-search seed was still searched around.
        #expect(searched(ring: true, around: false).contains(where: isOnTheRing))
        #expect(searched(ring: false, around: true).isEmpty)
        #expect(searched(ring: true, around: true).contains(where: isOnTheRing))
    }

    /// The locator searches the whole frame every ``RedRingLocator/symmetrySearchInterval`` analysed frames and
    /// around its last seeds between: a grey ring that appears on a frame between is located on the next whole
    /// search, one already located stays located while it moves.
    @Test func theLocatorFindsNewRingsOnItsNextWholeSearchAndFollowsOldOnes() {
        var locator = RedRingLocator()
        locator.maximumContrastChecks = 0
        #expect(locator.symmetrySearchInterval == 3)
        let inside: (y: UInt8, u: UInt8, v: UInt8) = (175, 130, 122)
        let ring: (y: UInt8, u: UInt8, v: UInt8) = (75, 128, 127)
        // Frame by frame: the first sign's centre (it drifts right) and whether the second has appeared.
        let frames: [(firstX: Double, second: Bool)] = [(100, false), (104, true), (108, true), (112, true)]
        var located: [(first: Bool, second: Bool)] = []
        for frame in frames {
            let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: RingContrastSearchTests.warmScene)
            image.withPlanes { planes in
                RingContrastSearchTests.drawSign(planes, radius: 30, ring: ring, inside: inside, centerX: frame.firstX)
                if frame.second {
                    RingContrastSearchTests.drawSign(planes, radius: 30, ring: ring, inside: inside, centerX: 230)
                }
                locator.locate(in: planes)
            }
            func has(_ x: Double) -> Bool { locator.candidates.contains { abs($0.centerX - x) <= 3 } }
            located.append((has(frame.firstX), has(230)))
        }
        #expect(located.map(\.first) == [true, true, true, true], "\(located)")
        #expect(located.map(\.second) == [false, false, false, true], "\(located)")
    }

    /// A greyish ring only 5 V levels redder than its inside, on a street redder than the ring: the red mask does not
    /// take it; the shape search finds it, and the inside check on its circle confirms it. (The contrast search is
    /// off here: it measures this ring at its 4-level bar.)
    @Test func aGreyishRingTheRedMaskMissesIsLocatedByItsShape() {
        let inside: (y: UInt8, u: UInt8, v: UInt8) = (175, 130, 122)
        let ring: (y: UInt8, u: UInt8, v: UInt8) = (75, 128, 127)
        let sign = Self.locatedOnlyByShape(centerX: 150, centerY: 110, radius: 30) { symmetryChecks in
            Self.located(symmetryChecks: symmetryChecks, scene: RingContrastSearchTests.warmScene) { planes in
                RingContrastSearchTests.drawSign(planes, radius: 30, ring: ring, inside: inside)
            }
        }
        if let sign { #expect(sign.isFaint) }
    }

    /// A red ring that shadows break into arcs (dark, barely red where the shade falls) traces no ring in the red
    /// mask: no closed hole, red in too few directions. A Hough circle searched around such pieces found little; the
    /// shape search finds the ring by its luma edges instead. Its seed must be centred within a
    /// pixel or two for the inside check's bands to sit on the ring: the middle of an even-sized vote cell (radius 13
    /// here, cells of 2) falls between two samples. (The contrast search is off here, as in the test above.)
    @Test func aRedRingBrokenByShadowsIsLocatedByItsShape() {
        let shade: (y: UInt8, u: UInt8, v: UInt8) = (50, 126, 133)
        _ = Self.locatedOnlyByShape(centerX: 160, centerY: 120, radius: 30) { symmetryChecks in
            Self.located(symmetryChecks: symmetryChecks, scene: SyntheticSign.grey) { planes in
                SyntheticSign.drawRingSign(planes, centerX: 160, centerY: 120, radius: 30)
                // Four shadows across the ring, a quarter turn apart, each 0.2 radians wide (6 px).
                SyntheticSign.paint(planes, colour: shade) { x, y in
                    let distance = hypot(x - 160, y - 120)
                    guard distance >= 0.74 * 30, distance <= 30 else { return false }
                    let angle = atan2(y - 120, x - 160) + .pi
                    return angle.truncatingRemainder(dividingBy: .pi / 2) < 0.2
                }
            }
        }
    }

    /// A dark sign as GTSDB's photographs show them: a maroon ring only 3.5 V levels redder than a dim,
    /// bluish-grey inside, on a bright scene. Its shape seeds it; the seed's own circle and the fitted edge fail the
    /// inside check's 4-level bar, so only the resized circles' check (3 levels) confirms it.
    @Test func aDarkMaroonRingRoundAGreyInsideIsLocatedByItsShape() {
        func candidates(symmetryChecks: Int, resizing: Bool) -> [RingCandidate] {
            let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: Self.brightScene)
            var locator = RedRingLocator()
            locator.maximumContrastChecks = 0
            locator.maximumSymmetryChecks = symmetryChecks
            if !resizing { locator.seedRadiusShares = [] }
            return image.withPlanes { planes in
                RingContrastSearchTests.drawSign(planes, radius: 24, ring: Self.maroonRing, inside: Self.darkInside)
                locator.locate(in: planes)
                return locator.candidates
            }
        }
        #expect(candidates(symmetryChecks: 16, resizing: false).isEmpty)
        _ = Self.locatedOnlyByShape(centerX: 150, centerY: 110, radius: 24) { symmetryChecks in
            candidates(symmetryChecks: symmetryChecks, resizing: true)
        }
    }

    /// A seed's circle 25 % too large (the radius its edges voted from is one of the search's few) sits outside the
    /// ring: the circle is tried again at the ``RedRingLocator/seedRadiusShares`` and the ring found at its size.
    @Test func aSeedWhoseRadiusIsOffIsResizedOntoTheRing() throws {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: Self.brightScene)
        var locator = RedRingLocator()
        let seedCircle = CircleFinder.Circle(x: 150, y: 110, radius: 30)
        let (resized, unresized) = image.withPlanes { planes in
            RingContrastSearchTests.drawSign(planes, radius: 24, ring: Self.maroonRing, inside: Self.darkInside)
            let resized = locator.resizedRing(around: seedCircle, planes: planes)
            let unresized = locator.resizedSeedCheck.ring(around: seedCircle, in: planes)
            return (resized, unresized)
        }
        #expect(unresized == nil)
        let found = try #require(resized)
        #expect(abs(found.radiusX - 24) <= 0.12 * 24, "\(found)")
        #expect(found.isFaint)
    }

    /// Expects what `located` (the candidates with that many shape-search seeds confirmed) finds of one ring at
    /// (`centerX`, `centerY`) of `radius`: nothing without the shape search, the ring alone with it (centre within 3
    /// px, radius within 20 %). Returns that candidate for further checks.
    static func locatedOnlyByShape(
        centerX: Double, centerY: Double, radius: Double, sourceLocation: SourceLocation = #_sourceLocation,
        _ located: (_ symmetryChecks: Int) -> [RingCandidate]
    ) -> RingCandidate? {
        #expect(located(0).isEmpty, sourceLocation: sourceLocation)
        let found = located(16)
        #expect(found.count == 1, "\(found)", sourceLocation: sourceLocation)
        guard let sign = found.first else { return nil }
        #expect(
            abs(sign.centerX - centerX) <= 3 && abs(sign.centerY - centerY) <= 3, "\(sign)",
            sourceLocation: sourceLocation)
        #expect(abs(sign.radiusX - radius) <= 0.2 * radius, "\(sign)", sourceLocation: sourceLocation)
        return sign
    }

    /// The locator's candidates on a 320 × 240 `scene` after `draw`, with the contrast search off (it finds some of
    /// these rings too) and `symmetryChecks` seeds of the shape search confirmed.
    static func located(
        symmetryChecks: Int, scene: (y: UInt8, u: UInt8, v: UInt8), draw: (YUVPlanes) -> Void
    ) -> [RingCandidate] {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: scene)
        var locator = RedRingLocator()
        locator.maximumContrastChecks = 0
        locator.maximumSymmetryChecks = symmetryChecks
        return image.withPlanes { planes in
            draw(planes)
            locator.locate(in: planes)
            return locator.candidates
        }
    }
}
