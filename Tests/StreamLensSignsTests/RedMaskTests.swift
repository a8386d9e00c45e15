import StreamLensCore
import Testing

@testable import StreamLensSigns

/// The red mask (``RedRingLocator`` step 1) and the summed-area table under it, sample by sample against their
/// definitions computed here the plain way: the scene's mean V by adding up the window and dividing (rounding toward
/// zero), every box sum by adding up its samples. The planes are noisy chroma around neutral with a slow V gradient,
/// so every branch of the mask is taken (not red hue, red on its own, faint and above or not above the scene, scene
/// means of both signs), on unit-stride (I420) and interleaved (NV12) planes, with windows clamped at every edge.
struct RedMaskTests {
    /// A small deterministic generator (64-bit LCG, top bits): the same planes on every run.
    struct Noise {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
    }

    /// Fills the chroma planes: V from about 112 (left) to 148 (right) plus noise, U around neutral, with some
    /// strongly red and some orange samples.
    static func fillChroma(_ planes: YUVPlanes, seed: UInt64) {
        var noise = Noise(state: seed)
        let width = planes.v.width
        for y in 0..<planes.v.height {
            for x in 0..<width {
                let gradient = 112 + 36 * x / max(1, width - 1)
                var v = gradient + noise.next(-8...8)
                var u = 128 + noise.next(-7...7)
                switch noise.next(0...19) {
                case 0: v = 128 + noise.next(12...60)  // red on its own
                case 1: u = 128 - noise.next(20...40)  // orange-ish hue
                default: break
                }
                planes.v[x, y] = UInt8(v)
                planes.u[x, y] = UInt8(u)
            }
        }
    }

    /// The mask by its definition: 0, 1 (faintly red and redder than the scene) or 2 (red on its own).
    static func expectedMask(_ planes: YUVPlanes, locator: RedRingLocator) -> (mask: [UInt8], negativeScenes: Int) {
        let width = planes.v.width
        let height = planes.v.height
        let radius = locator.localWindowRadius
        var mask = [UInt8](repeating: 0, count: width * height)
        var negativeScenes = 0
        for y in 0..<height {
            for x in 0..<width {
                let v = Int(planes.v[x, y]) - 128
                let u = Int(planes.u[x, y]) - 128
                guard 2 * abs(u) <= v else { continue }
                if v >= locator.minimumRedness {
                    mask[y * width + x] = 2
                } else if v >= locator.minimumFaintRedness {
                    var sum = 0
                    var count = 0
                    for wy in max(0, y - radius)...min(height - 1, y + radius) {
                        for wx in max(0, x - radius)...min(width - 1, x + radius) {
                            sum += Int(planes.v[wx, wy]) - 128
                            count += 1
                        }
                    }
                    if sum < 0 { negativeScenes += 1 }
                    if v - sum / count >= locator.minimumLocalRedness { mask[y * width + x] = 1 }
                }
            }
        }
        return (mask, negativeScenes)
    }

    @Test(arguments: [
        // Unit stride; a window wider than half the grid (clamped on both sides at once).
        (PixelLayout.i420, 120, 70, 24),
        // Interleaved chroma, the default window.
        (PixelLayout.nv12, 200, 120, 24),
        // Unit stride, a small window (most samples unclamped), odd sizes.
        (PixelLayout.i420, 193, 91, 5),
    ])
    func redMaskMatchesItsDefinition(layout: PixelLayout, width: Int, height: Int, radius: Int) {
        let image = OwnedYUVImage(layout: layout, width: width, height: height, fill: (120, 128, 128))
        image.withPlanes { planes in
            Self.fillChroma(planes, seed: UInt64(width * height + radius))
            var locator = RedRingLocator()
            locator.localWindowRadius = radius
            let expected = Self.expectedMask(planes, locator: locator)
            locator.buildRedMask(planes: planes, width: planes.v.width, height: planes.v.height)
            let built = Array(locator.mask.prefix(planes.v.width * planes.v.height))
            #expect(built == expected.mask)
            // Every kind of sample occurs, and faint ones against scenes with negative sums too.
            for value: UInt8 in [0, 1, 2] { #expect(expected.mask.contains(value)) }
            #expect(expected.negativeScenes > 0)
        }
    }

    @Test(arguments: [
        // V − 128 of unit-stride chroma.
        (PixelLayout.i420, 1, Int32(128)),
        // V − 128 of interleaved chroma.
        (PixelLayout.nv12, 1, Int32(128)),
        // Luma at chroma resolution (every second sample of every second row).
        (PixelLayout.i420, 2, Int32(0)),
    ])
    func summedAreaMatchesBoxSums(layout: PixelLayout, step: Int, bias: Int32) {
        let image = OwnedYUVImage(layout: layout, width: 86, height: 50, fill: (120, 128, 128))
        image.withPlanes { planes in
            Self.fillChroma(planes, seed: 7)
            var noise = Noise(state: 11)
            for y in 0..<planes.y.height {
                for x in 0..<planes.y.width { planes.y[x, y] = UInt8(noise.next(0...255)) }
            }
            let plane = step == 1 ? planes.v : planes.y
            let width = planes.v.width
            let height = planes.v.height
            var sums = SummedArea()
            sums.build(from: plane, width: width, height: height, step: step, bias: bias)
            for _ in 0..<300 {
                let left = noise.next(-3...width)
                let top = noise.next(-3...height)
                let right = noise.next(left...width + 3)
                let bottom = noise.next(top...height + 3)
                var expected = 0
                for y in max(0, top)..<max(max(0, top), min(height, bottom)) {
                    for x in max(0, left)..<max(max(0, left), min(width, right)) {
                        expected += Int(plane[step * x, step * y]) - Int(bias)
                    }
                }
                #expect(sums.sum(left: left, top: top, right: right, bottom: bottom) == expected)
            }
        }
    }
}
