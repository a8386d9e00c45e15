import StreamLensCore
import Testing

@testable import StreamLensSigns

struct RedRingLocatorTests {
    static func locate(layout: PixelLayout = .i420, width: Int = 320, height: Int = 240, draw: (YUVPlanes) -> Void)
        -> [RingCandidate]
    {
        let image = OwnedYUVImage(layout: layout, width: width, height: height, fill: SyntheticSign.grey)
        var locator = RedRingLocator()
        return image.withPlanes { planes in
            draw(planes)
            locator.locate(in: planes)
            return locator.candidates
        }
    }

    @Test(arguments: [
        // centre x, centre y, outer radius, layout
        (160.0, 120.0, 12.0, PixelLayout.i420),  // 24 px across: the smallest sign the reader aims at
        (61.0, 47.0, 20.0, .i420),
        (200.0, 150.0, 48.0, .i420),
        (160.0, 120.0, 30.0, .nv12),  // the same code reads NV12's interleaved chroma
    ])
    func findsRingsWithTheirGeometry(centerX: Double, centerY: Double, radius: Double, layout: PixelLayout) {
        let found = Self.locate(layout: layout) {
            SyntheticSign.drawRingSign($0, centerX: centerX, centerY: centerY, radius: radius)
        }
        #expect(found.count == 1)
        guard let ring = found.first else { return }
        // Chroma resolution: within two luma pixels of the truth, radii within 15 %.
        #expect(abs(ring.centerX - centerX) <= 2 && abs(ring.centerY - centerY) <= 2, "\(ring)")
        #expect(abs(ring.radiusX - radius) <= 0.15 * radius + 1 && abs(ring.radiusY - radius) <= 0.15 * radius + 1)
        #expect(abs(ring.innerRadiusX - 0.74 * radius) <= 0.15 * radius + 1, "\(ring)")
        #expect(ring.ringCoverage >= 0.9)
    }

    @Test func aRedLightTouchingTheRingDoesNotMoveIt() {
        let found = Self.locate { planes in
            // A brake light behind the sign's upper left, merged with the ring in the red mask.
            SyntheticSign.paint(planes, colour: SyntheticSign.red) { x, y in x > 90 && x < 150 && y > 92 && y < 102 }
            SyntheticSign.drawRingSign(planes, centerX: 150, centerY: 120, radius: 24)
        }
        #expect(found.count == 1)
        #expect(found.first.map { abs($0.centerX - 150) <= 2 && abs($0.centerY - 120) <= 2 } == true, "\(found)")
    }

    @Test func aRingWithASmallGapIsStillARing() {
        let found = Self.locate { SyntheticSign.drawRingSign($0, centerX: 160, centerY: 120, radius: 30, gapAngle: 0.8) }
        #expect(found.count == 1)
    }

    @Test func rejectsWhatIsNotARing() {
        let filledDisc = Self.locate { planes in
            SyntheticSign.paint(planes, colour: SyntheticSign.red) { x, y in
                (x - 160) * (x - 160) + (y - 120) * (y - 120) <= 30 * 30
            }
        }
        #expect(filledDisc.isEmpty, "a filled red disc (no entry, a stop sign) has no hole")
        let orange = Self.locate {
            SyntheticSign.drawRingSign($0, centerX: 160, centerY: 120, radius: 30, ringColour: SyntheticSign.orange)
        }
        #expect(orange.isEmpty, "orange is not red")
        let bar = Self.locate { planes in
            SyntheticSign.paint(planes, colour: SyntheticSign.red) { x, y in x > 100 && x < 220 && y > 110 && y < 124 }
        }
        #expect(bar.isEmpty, "a red bar is not round")
        let tiny = Self.locate { SyntheticSign.drawRingSign($0, centerX: 160, centerY: 120, radius: 6) }
        #expect(tiny.isEmpty, "12 px is below the smallest readable sign")
    }

    @Test func keepsOnlyTheLargestCandidates() {
        var locator = RedRingLocator()
        locator.maximumCandidates = 2
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: SyntheticSign.grey)
        let radii = image.withPlanes { planes -> [Double] in
            SyntheticSign.drawRingSign(planes, centerX: 40, centerY: 40, radius: 14)
            SyntheticSign.drawRingSign(planes, centerX: 160, centerY: 60, radius: 30)
            SyntheticSign.drawRingSign(planes, centerX: 250, centerY: 170, radius: 22)
            locator.locate(in: planes)
            return locator.candidates.map(\.radiusX).sorted()
        }
        #expect(radii.count == 2)
        #expect(radii.first.map { $0 > 18 } == true, "the 14 px ring is dropped: \(radii)")
    }
}
