import Foundation
import StreamLensCore
import Testing

@testable import StreamLensSigns

/// A ring seen at an angle, a small blurred faint ring, and red arcs with no circle in luma (which
/// the shape search must not turn into a ring).
struct RingShapeTests {
    /// A shaded grey disc (a neutral one: the bluish grey of FaintRingTests sits at the edge of the hue test).
    static let shadedDisc: (y: UInt8, u: UInt8, v: UInt8) = (140, 128, 127)

    static func locate(
        configure: (inout RedRingLocator) -> Void = { _ in }, draw: (YUVPlanes) -> Void
    ) -> [RingCandidate] {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: SyntheticSign.grey)
        var locator = RedRingLocator()
        configure(&locator)
        return image.withPlanes { planes in
            draw(planes)
            locator.locate(in: planes)
            return locator.candidates
        }
    }

    /// Box blur of every plane (radius in samples of that plane): a soft, out-of-focus sign.
    static func blur(_ planes: YUVPlanes, lumaRadius: Int) {
        BoxBlur.blur(planes.y, radius: lumaRadius)
        BoxBlur.blur(planes.u, radius: max(1, lumaRadius / 2))
        BoxBlur.blur(planes.v, radius: max(1, lumaRadius / 2))
    }

    @Test func redArcsWithoutALumaCircleAreNotARing() {
        // The same arcs, but the ring as bright as the scene and no disc: nothing round in luma.
        let found = Self.locate { planes in
            SyntheticSign.paint(planes, colour: (110, 125, 134)) { x, y in
                let distance = hypot(x - 160, y - 120)
                guard distance >= 0.74 * 26, distance <= 26 else { return false }
                let angle = atan2(y - 120, x - 160) + Double.pi
                let quarter = Double.pi / 2
                return abs(angle - (angle / quarter).rounded() * quarter) <= 0.45
            }
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test(arguments: [(26.0, 20.0), (20.0, 26.0)])
    func aRingSeenAtAnAngleIsFound(radiusX: Double, radiusY: Double) {
        // Mild perspective: an ellipse with axes 4:3.
        let found = Self.locate { planes in
            SyntheticSign.paint(planes, colour: FaintRingTests.bluishGrey) { x, y in
                hypot((x - 160) / radiusX, (y - 120) / radiusY) <= 1
            }
            SyntheticSign.paint(planes, colour: SyntheticSign.red) { x, y in
                let distance = hypot((x - 160) / radiusX, (y - 120) / radiusY)
                return distance >= 0.74 && distance <= 1
            }
        }
        #expect(found.count == 1, "\(found)")
        guard let ring = found.first else { return }
        #expect(abs(ring.centerX - 160) <= 2 && abs(ring.centerY - 120) <= 2, "\(ring)")
        #expect(abs(ring.radiusX - radiusX) <= 0.2 * radiusX + 1 && abs(ring.radiusY - radiusY) <= 0.2 * radiusY + 1,
            "\(ring)")
    }

    @Test(arguments: [1, 2])
    func aBlurred32PixelMaroonRingIsFound(blurRadius: Int) {
        let draw = { (planes: YUVPlanes) in
            FaintRingTests.drawFaintSign(planes, centerX: 160, centerY: 120, radius: 16, disc: Self.shadedDisc)
            Self.blur(planes, lumaRadius: blurRadius)
        }
        let found = Self.locate(draw: draw)
        #expect(found.count == 1, "\(found)")
        guard let ring = found.first else { return }
        #expect(abs(ring.centerX - 160) <= 3 && abs(ring.centerY - 120) <= 3, "\(ring)")
    }
}
