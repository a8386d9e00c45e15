import StreamLensCore
import Testing
@testable import StreamLensCompositing

/// One blend scenario: a tile of some size and alpha pattern, placed somewhere on an odd-sized frame.
struct BlendCase: Sendable, CustomTestStringConvertible {
    var layout: PixelLayout
    var tileWidth: Int
    var tileHeight: Int
    var x: Int
    var y: Int
    var alpha: AlphaPattern
    var opacity: Double

    var testDescription: String {
        "\(layout) \(tileWidth)×\(tileHeight) at (\(x), \(y)) alpha \(alpha) opacity \(opacity)"
    }

    static let frameWidth = 37
    static let frameHeight = 23

    /// Every layout × alpha pattern × placement × opacity, for an even- and an odd-sized tile.
    static let all: [BlendCase] = {
        let placements = [
            (0, 0), (4, 2),  // aligned
            (3, 5), (6, 1), (1, 4),  // odd x, odd y, both
            (-3, -2), (-4, 7),  // hanging off the top-left
            (frameWidth - 5, frameHeight - 3),  // hanging off the bottom-right
            (frameWidth - 1, frameHeight - 1),  // one corner pixel visible
            (frameWidth, 0), (-16, -16),  // wholly outside
        ]
        var cases: [BlendCase] = []
        for layout in PixelLayout.allCases {
            for (width, height) in [(16, 10), (7, 5)] {
                for alpha in AlphaPattern.allCases {
                    for (x, y) in placements {
                        for opacity in [1.0, 0.5, 0.0] {
                            cases.append(BlendCase(
                                layout: layout, tileWidth: width, tileHeight: height, x: x, y: y, alpha: alpha,
                                opacity: opacity))
                        }
                    }
                }
            }
        }
        return cases
    }()
}

@Suite struct TileBlenderTests {
    @Test func divideBy255RoundsEveryProductExactly() {
        for product in 0...(255 * 255) {
            #expect(divideBy255Rounded(product) == (product + 127) / 255, "x = \(product)")
        }
    }

    @Test(arguments: BlendCase.all)
    func blendMatchesTheReference(_ scenario: BlendCase) {
        let tile = TileFactory.randomTile(
            width: scenario.tileWidth, height: scenario.tileHeight, alpha: scenario.alpha, seed: 7)
        let actual = TestFrame(layout: scenario.layout, width: BlendCase.frameWidth, height: BlendCase.frameHeight)
        actual.fillPattern(seed: 11)
        actual.markPadding(0xA5)
        let expected = TestFrame(layout: scenario.layout, width: BlendCase.frameWidth, height: BlendCase.frameHeight)
        expected.set(y: actual.y, u: actual.u, v: actual.v)
        let original = (y: actual.y, u: actual.u, v: actual.v)

        actual.withPlanes { TileBlender.blend(tile, onto: $0, x: scenario.x, y: scenario.y, opacity: scenario.opacity) }
        ReferenceBlender.blend(tile, onto: expected, x: scenario.x, y: scenario.y, opacity: scenario.opacity)

        #expect(actual.y == expected.y)
        #expect(actual.u == expected.u)
        #expect(actual.v == expected.v)
        #expect(actual.paddingBytes.allSatisfy { $0 == 0xA5 }, "a blend wrote into row padding")
        if scenario.alpha == .transparent || scenario.opacity == 0 {
            #expect(actual.y == original.y && actual.u == original.u && actual.v == original.v)
        }
    }

    @Test(arguments: PixelLayout.allCases)
    func opaqueTileReplacesTheCoveredSamples(layout: PixelLayout) {
        let tile = TileFactory.randomTile(width: 8, height: 6, alpha: .opaque, seed: 3)
        let frame = TestFrame(layout: layout, width: 20, height: 12)
        frame.fillPattern(seed: 5)
        frame.withPlanes { TileBlender.blend(tile, onto: $0, x: 4, y: 2) }
        for row in 0..<6 {
            for column in 0..<8 {
                #expect(frame.y[(row + 2) * 20 + column + 4] == tile.luma[row * 8 + column])
            }
        }
        for row in 0..<3 {
            for column in 0..<4 {
                #expect(frame.u[(row + 1) * 10 + column + 2] == tile.evenChroma.u[row * 4 + column])
                #expect(frame.v[(row + 1) * 10 + column + 2] == tile.evenChroma.v[row * 4 + column])
            }
        }
    }

    /// Worked by hand: an opaque 4×2 tile (U 200, V 60) at x = 1 straddles chroma columns 0…2. Columns 0 and 2 are
    /// half covered: chroma alpha (255 + 1) / 2 = 128, premultiplied U 100, so U = 100 + round(128 × 127 / 255)
    /// = 164 and V = 30 + 64 = 94. Column 1 is fully covered; column 3 is untouched.
    @Test(arguments: PixelLayout.allCases)
    func tileAtOddXCoversTheStraddledChromaColumns(layout: PixelLayout) {
        let tile = OverlayTile(width: 4, height: 2, color: YUVColor(y: 100, u: 200, v: 60), alpha: 255)
        let frame = TestFrame(layout: layout, width: 8, height: 2)
        frame.set(y: [UInt8](repeating: 50, count: 16), u: [UInt8](repeating: 128, count: 4), v: [UInt8](repeating: 128, count: 4))
        frame.withPlanes { TileBlender.blend(tile, onto: $0, x: 1, y: 0) }
        #expect(frame.y == [50, 100, 100, 100, 100, 50, 50, 50, 50, 100, 100, 100, 100, 50, 50, 50])
        #expect(frame.u == [164, 200, 164, 128])
        #expect(frame.v == [94, 60, 94, 128])
    }

    /// A 3-pixel-wide tile at x = 1 covers luma 1…3, so chroma columns 0 and 1 (each half), never column 2.
    @Test func oddWidthTileAtOddXTouchesOnlyItsOwnChromaColumns() {
        let tile = OverlayTile(width: 3, height: 2, color: YUVColor(y: 100, u: 200, v: 60), alpha: 255)
        let frame = TestFrame(layout: .i420, width: 6, height: 2)
        frame.set(y: [UInt8](repeating: 50, count: 12), u: [128, 128, 128], v: [128, 128, 128])
        frame.withPlanes { TileBlender.blend(tile, onto: $0, x: 1, y: 0) }
        #expect(frame.y == [50, 100, 100, 100, 50, 50, 50, 100, 100, 100, 50, 50])
        // Column 0: half of the first block. Column 1: the first block's right half (opaque) and the second
        // block's covered half (premultiplied 100 at alpha 128), mean U (200 + 100 + 1) / 2 = 150, alpha 192.
        #expect(frame.u[0] == 164)
        #expect(frame.u[1] == 150 + Int(((128.0 * 63) / 255).rounded()))
        #expect(frame.u[2] == 128)
    }

    @Test func fadeScalesPremultipliedColourAndAlphaTogether() {
        // Opaque white at opacity 0.5 (level 128) over black: Y = round(235 × 128 / 255) + round(16 × 127 / 255).
        let tile = OverlayTile(width: 2, height: 2, color: .white, alpha: 255)
        let frame = TestFrame(layout: .i420, width: 2, height: 2)
        frame.set(y: [16, 16, 16, 16], u: [128], v: [128])
        frame.withPlanes { TileBlender.blend(tile, onto: $0, x: 0, y: 0, opacity: 0.5) }
        #expect(frame.y == [UInt8](repeating: 118 + 8, count: 4))
        #expect(frame.u == [128] && frame.v == [128])
    }

    @Test func bothLayoutsGiveTheSameSamples() {
        let tile = TileFactory.randomTile(width: 13, height: 9, alpha: .mixed, seed: 21)
        let i420 = TestFrame(layout: .i420, width: 30, height: 20)
        let nv12 = TestFrame(layout: .nv12, width: 30, height: 20)
        i420.fillPattern(seed: 2)
        nv12.set(y: i420.y, u: i420.u, v: i420.v)
        for (x, y, opacity) in [(3, 1, 1.0), (-2, 5, 0.7), (20, 15, 0.3)] {
            i420.withPlanes { TileBlender.blend(tile, onto: $0, x: x, y: y, opacity: opacity) }
            nv12.withPlanes { TileBlender.blend(tile, onto: $0, x: x, y: y, opacity: opacity) }
        }
        #expect(i420.y == nv12.y && i420.u == nv12.u && i420.v == nv12.v)
    }

    @Test(arguments: [(-0.5, 0), (0.0, 0), (0.001, 0), (0.5, 128), (1.0, 255), (3.0, 255), (Double.nan, 0)])
    func opacityBecomesAnEightBitLevel(opacity: Double, level: Int) {
        #expect(TileBlender.opacityLevel(opacity) == level)
    }
}
