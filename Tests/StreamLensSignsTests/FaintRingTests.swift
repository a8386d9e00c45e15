import Foundation
import StreamLensCore
import Testing

@testable import StreamLensSigns

/// The faint-ring cue: rings only a few levels redder than their inside and the scene (dark, backlit, weathered real
/// signs) are found when luma shows a circle there, and faint redness without that shape is not.
struct FaintRingTests {
    /// Colours measured on GTSRB photos pasted into footage: a maroon ring V − 128 ≈ +6, a bluish grey disc.
    static let maroon: (y: UInt8, u: UInt8, v: UInt8) = (70, 125, 134)
    static let bluishGrey: (y: UInt8, u: UInt8, v: UInt8) = (125, 133, 126)

    static func locate(draw: (YUVPlanes) -> Void) -> [RingCandidate] {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: SyntheticSign.grey)
        var locator = RedRingLocator()
        return image.withPlanes { planes in
            draw(planes)
            locator.locate(in: planes)
            return locator.candidates
        }
    }

    static func drawFaintSign(_ planes: YUVPlanes, centerX: Double, centerY: Double, radius: Double,
        ring: (y: UInt8, u: UInt8, v: UInt8) = maroon, disc: (y: UInt8, u: UInt8, v: UInt8) = bluishGrey)
    {
        SyntheticSign.paint(planes, colour: disc) { x, y in hypot(x - centerX, y - centerY) <= radius }
        SyntheticSign.paint(planes, colour: ring) { x, y in
            let distance = hypot(x - centerX, y - centerY)
            return distance >= 0.74 * radius && distance <= radius
        }
    }

    @Test(arguments: [
        // centre x, centre y, outer radius
        (160.0, 120.0, 14.0),  // 28 px across
        (100.0, 90.0, 24.0),
        (180.0, 130.0, 40.0),
    ])
    func aMaroonRingOnAGreyDiscIsFoundAsFaint(centerX: Double, centerY: Double, radius: Double) {
        let found = Self.locate { Self.drawFaintSign($0, centerX: centerX, centerY: centerY, radius: radius) }
        #expect(found.count == 1, "\(found)")
        guard let ring = found.first else { return }
        #expect(ring.isFaint)
        #expect(abs(ring.centerX - centerX) <= 2.5 && abs(ring.centerY - centerY) <= 2.5, "\(ring)")
        #expect(abs(ring.radiusX - radius) <= 0.2 * radius + 1, "\(ring)")
        // The disc the cropper cuts out stays inside the ring.
        #expect(ring.innerRadiusX <= 0.85 * radius && ring.innerRadiusX >= 0.55 * radius, "\(ring)")
    }

    @Test func aStrongRedRingIsNotFaint() {
        let found = Self.locate { SyntheticSign.drawRingSign($0, centerX: 160, centerY: 120, radius: 24) }
        #expect(found.count == 1)
        #expect(found.first?.isFaint == false)
    }

    @Test func faintRedWithoutALumaCircleIsNotARing() {
        // The same colours but the ring as bright as the scene and the disc: only chroma says "ring".
        let found = Self.locate {
            Self.drawFaintSign(
                $0, centerX: 160, centerY: 120, radius: 24, ring: (110, 125, 134), disc: (110, 133, 126))
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test func aFaintlyRedDiscIsNotARing() {
        // Rust, skin, a dim brake light: red to the middle.
        let found = Self.locate {
            Self.drawFaintSign($0, centerX: 160, centerY: 120, radius: 24, ring: Self.maroon, disc: Self.maroon)
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test func theCircleFinderFindsADarkCircleNearTheGuess() throws {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: SyntheticSign.grey)
        let finder = try #require(CircleFinder())
        image.withPlanes { planes in
            Self.drawFaintSign(planes, centerX: 150, centerY: 100, radius: 30)
            finder.find(near: (155, 104), radius: 30, in: planes.y)
        }
        let best = try #require(finder.circles.first)
        #expect(abs(best.x - 150) <= 2 && abs(best.y - 100) <= 2, "\(finder.circles)")
        // Either edge of the ring: the outer (30) or the inner (22) one.
        #expect(best.radius >= 20 && best.radius <= 32, "\(finder.circles)")
        image.withPlanes { planes in
            SyntheticSign.paint(planes, colour: SyntheticSign.grey) { _, _ in true }
            finder.find(near: (150, 100), radius: 30, in: planes.y)
        }
        #expect(finder.circles.isEmpty, "a flat picture has no circle")
    }
}
