import StreamLensCore
import Testing
@testable import StreamLensCompositing

/// The privacy kernels against a plain reference written from their documented definitions: every sample of the
/// frame equal, on I420 and NV12, odd sizes, regions at and beyond the border.
@Suite struct PrivacyBlurTests {
    /// A frame of a fixed pseudo-random texture (every sample differs from its neighbours).
    static func texturedFrame(_ layout: PixelLayout, width: Int, height: Int) -> OwnedYUVImage {
        let image = OwnedYUVImage(layout: layout, width: width, height: height)
        var state: UInt32 = 12345
        func next() -> UInt8 {
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        image.withPlanes { planes in
            for plane in [planes.y, planes.u, planes.v] {
                for y in 0..<plane.height { for x in 0..<plane.width { plane[x, y] = next() } }
            }
        }
        return image
    }

    /// The frame's samples, plane by plane (Y, U, V), row by row.
    static func samples(_ image: OwnedYUVImage) -> [[UInt8]] {
        image.withPlanes { planes in
            [planes.y, planes.u, planes.v].map { plane in
                var values: [UInt8] = []
                for y in 0..<plane.height { for x in 0..<plane.width { values.append(plane[x, y]) } }
                return values
            }
        }
    }

    /// The reference: one plane (`width` × `height` samples, row-major) hidden inside `rect` of a plane subsampled
    /// by `s`, the ellipse inscribed in the luma rectangle `luma`.
    static func reference(
        _ plane: [UInt8], width: Int, height: Int, rect: PrivacyRect, luma: PrivacyRect, s: Int,
        shape: PrivacyBlurShape, style: PrivacyBlurStyle
    ) -> [UInt8] {
        let w = rect.right - rect.left
        let h = rect.bottom - rect.top
        guard w > 0, h > 0 else { return plane }
        let shorter = min(luma.right - luma.left, luma.bottom - luma.top)
        let lumaRadius = max(1, shorter / 5)
        let radius = s == 1 ? lumaRadius : max(1, (lumaRadius + 1) / 2)
        let lumaBlock = max(2, shorter / 4)
        let block = s == 1 ? lumaBlock : max(1, lumaBlock / 2)
        var region = [[Int]](repeating: [Int](repeating: 0, count: w), count: h)
        for r in 0..<h { for c in 0..<w { region[r][c] = Int(plane[(rect.top + r) * width + rect.left + c]) } }
        var result = region
        switch style {
        case .solid:
            result = region.map { $0.map { _ in s == 1 ? 16 : 128 } }
        case .pixelate:
            for top in stride(from: 0, to: h, by: block) {
                for left in stride(from: 0, to: w, by: block) {
                    var sum = 0, n = 0
                    for r in top..<min(h, top + block) { for c in left..<min(w, left + block) { sum += region[r][c]; n += 1 } }
                    for r in top..<min(h, top + block) { for c in left..<min(w, left + block) { result[r][c] = (sum + n / 2) / n } }
                }
            }
        case .gaussian:
            let n = 2 * radius + 1
            for _ in 0..<3 {
                var rows = result
                for r in 0..<h {
                    for c in 0..<w {
                        var sum = 0
                        for k in -radius...radius { sum += result[r][min(max(c + k, 0), w - 1)] }
                        rows[r][c] = (sum + n / 2) / n
                    }
                }
                for r in 0..<h {
                    for c in 0..<w {
                        var sum = 0
                        for k in -radius...radius { sum += rows[min(max(r + k, 0), h - 1)][c] }
                        result[r][c] = (sum + n / 2) / n
                    }
                }
            }
        }
        var out = plane
        let centreX = Double(luma.left + luma.right) / 2, centreY = Double(luma.top + luma.bottom) / 2
        let radiusX = Double(luma.right - luma.left) / 2, radiusY = Double(luma.bottom - luma.top) / 2
        for r in 0..<h {
            for c in 0..<w {
                let x = rect.left + c, y = rect.top + r
                if shape == .ellipse {
                    let dx = ((Double(x) + 0.5) * Double(s) - centreX) / radiusX
                    let dy = ((Double(y) + 0.5) * Double(s) - centreY) / radiusY
                    if dx * dx + dy * dy > 1 { continue }
                }
                out[y * width + x] = UInt8(result[r][c])
            }
        }
        return out
    }

    static let cases: [(PixelLayout, Int, Int, PrivacyRect)] = [
        (.i420, 37, 23, PrivacyRect(left: 5, top: 3, right: 30, bottom: 20)),
        (.nv12, 37, 23, PrivacyRect(left: 5, top: 3, right: 30, bottom: 20)),
        (.i420, 37, 23, PrivacyRect(left: -6, top: -4, right: 13, bottom: 11)),  // beyond the top-left corner
        (.nv12, 37, 23, PrivacyRect(left: 21, top: 10, right: 50, bottom: 40)),  // beyond the bottom-right corner
        (.i420, 64, 48, PrivacyRect(left: 0, top: 0, right: 64, bottom: 48)),  // the whole frame
        (.nv12, 65, 33, PrivacyRect(left: 3, top: 7, right: 64, bottom: 33)),  // odd edges, up to the border
    ]

    @Test(arguments: cases.indices, PrivacyBlurStyle.allCases)
    func theKernelsEqualTheReference(index: Int, style: PrivacyBlurStyle) {
        let (layout, width, height, rect) = Self.cases[index]
        for shape in [PrivacyBlurShape.rectangle, .ellipse] {
            let image = Self.texturedFrame(layout, width: width, height: height)
            let before = Self.samples(image)
            image.withPlanes { PrivacyBlurrer().hide(rect, shape: shape, style: style, in: $0) }
            let after = Self.samples(image)
            let luma = PrivacyRect(
                left: max(0, rect.left), top: max(0, rect.top), right: min(width, rect.right),
                bottom: min(height, rect.bottom))
            let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
            let chroma = PrivacyRect(
                left: luma.left / 2, top: luma.top / 2, right: min(chromaWidth, (luma.right + 1) / 2),
                bottom: min(chromaHeight, (luma.bottom + 1) / 2))
            let expected = [
                Self.reference(before[0], width: width, height: height, rect: luma, luma: luma, s: 1, shape: shape, style: style),
                Self.reference(before[1], width: chromaWidth, height: chromaHeight, rect: chroma, luma: luma, s: 2, shape: shape, style: style),
                Self.reference(before[2], width: chromaWidth, height: chromaHeight, rect: chroma, luma: luma, s: 2, shape: shape, style: style),
            ]
            for plane in 0..<3 {
                let differing = zip(after[plane], expected[plane]).filter { $0 != $1 }.count
                #expect(differing == 0, "\(layout) \(width)x\(height) \(rect) \(style) \(shape) plane \(plane): \(differing) samples differ")
            }
            // Something was hidden: the texture inside changed.
            #expect(after[0] != before[0], "\(style) \(shape) left the luma as it was")
        }
    }

    @Test func aRegionOutsideTheFrameChangesNothing() {
        let image = Self.texturedFrame(.i420, width: 21, height: 15)
        let before = Self.samples(image)
        image.withPlanes {
            PrivacyBlurrer().hide(PrivacyRect(left: 30, top: 2, right: 40, bottom: 9), shape: .ellipse, style: .solid, in: $0)
        }
        #expect(Self.samples(image) == before)
    }

    @Test func theMarginGrowsEachSideAndTheFrameClipsIt() {
        // 20 % of 50 × 30 on each side: 10 px left and right, 6 px top and bottom.
        let inside = PrivacyRect(box: BoundingBox(x: 100, y: 50, width: 50, height: 30), margin: 0.2, width: 640, height: 360)
        #expect(inside == PrivacyRect(left: 90, top: 44, right: 160, bottom: 86))
        let atTheEdge = PrivacyRect(box: BoundingBox(x: 600.5, y: 2, width: 50, height: 30), margin: 0.2, width: 640, height: 360)
        #expect(atTheEdge == PrivacyRect(left: 590, top: 0, right: 640, bottom: 38))
        #expect(PrivacyRect(box: BoundingBox(x: 700, y: 2, width: 50, height: 30), margin: 0.2, width: 640, height: 360) == nil)
    }

    @Test func theStageHidesTheSourcesBoxesAndCountsFramesPerKind() {
        let stage = PrivacyBlurStage()
        let image = Self.texturedFrame(.nv12, width: 64, height: 48)
        let before = Self.samples(image)
        let face = Detection(box: BoundingBox(x: 20, y: 10, width: 16, height: 20), className: "face", confidence: 0.9)
        let other = Detections(pts: .zero, source: "objects", items: [face])
        #expect(!stage.willDraw(CompositeContext(pts: .zero, frameIndex: 0, latestDetections: ["objects": other])))
        let context = CompositeContext(
            pts: .zero, frameIndex: 0, latestDetections: ["privacy": Detections(pts: .zero, source: "privacy", items: [face])])
        #expect(stage.willDraw(context))
        image.withPlanes { stage.composite(onto: $0, context: context) }
        // The same as hiding the ellipse in the box grown by 20 %.
        let expected = Self.texturedFrame(.nv12, width: 64, height: 48)
        expected.withPlanes {
            PrivacyBlurrer().hide(PrivacyRect(left: 16, top: 6, right: 40, bottom: 34), shape: .ellipse, style: .gaussian, in: $0)
        }
        #expect(Self.samples(image) == Self.samples(expected))
        #expect(Self.samples(image) != before)
        #expect(stage.framesBlurred == ["face": 1])
    }

    @Test func aPlateIsHiddenAsItsWholeRectangle() {
        let stage = PrivacyBlurStage()
        let image = Self.texturedFrame(.i420, width: 64, height: 48)
        let plate = Detection(box: BoundingBox(x: 21, y: 11, width: 30, height: 10), className: "plate", confidence: 0.6)
        let context = CompositeContext(
            pts: .zero, frameIndex: 0, latestDetections: ["privacy": Detections(pts: .zero, source: "privacy", items: [plate])])
        image.withPlanes { stage.composite(onto: $0, context: context) }
        // The box grown by 20 % (6 px left and right, 2 px above and below), corners included.
        let expected = Self.texturedFrame(.i420, width: 64, height: 48)
        expected.withPlanes {
            PrivacyBlurrer().hide(PrivacyRect(left: 15, top: 9, right: 57, bottom: 23), shape: .rectangle, style: .gaussian, in: $0)
        }
        #expect(Self.samples(image) == Self.samples(expected))
        let asEllipse = Self.texturedFrame(.i420, width: 64, height: 48)
        asEllipse.withPlanes {
            PrivacyBlurrer().hide(PrivacyRect(left: 15, top: 9, right: 57, bottom: 23), shape: .ellipse, style: .gaussian, in: $0)
        }
        #expect(Self.samples(image) != Self.samples(asEllipse))
        #expect(stage.framesBlurred == ["plate": 1])
    }
}
