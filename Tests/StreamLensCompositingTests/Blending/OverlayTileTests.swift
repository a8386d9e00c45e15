import StreamLensCore
import Testing
@testable import StreamLensCompositing

/// A uniform 2×2 premultiplied ARGB32 pixel and the premultiplied Y, U, V, A it must become.
struct ARGBConversion: Sendable, CustomTestStringConvertible {
    var pixel: UInt32
    var matrix: ColorMatrix
    var y: UInt8, u: UInt8, v: UInt8, alpha: UInt8
    var testDescription: String { "0x\(String(pixel, radix: 16)) \(matrix)" }
}

@Suite struct OverlayTileTests {
    /// Expected values worked from the limited-range formulas: Y = 16 + 219·Y', U = 128 + 224·(B − Y')/(2(1 − Kb)),
    /// V = 128 + 224·(R − Y')/(2(1 − Kr)); premultiplied = value × alpha / 255.
    static let conversions: [ARGBConversion] = [
        ARGBConversion(pixel: 0xFFFF_0000, matrix: .bt709, y: 63, u: 102, v: 240, alpha: 255),  // red
        ARGBConversion(pixel: 0xFFFF_0000, matrix: .bt601, y: 81, u: 90, v: 240, alpha: 255),
        ARGBConversion(pixel: 0xFF00_00FF, matrix: .bt709, y: 32, u: 240, v: 118, alpha: 255),  // blue
        ARGBConversion(pixel: 0xFFFF_FFFF, matrix: .bt709, y: 235, u: 128, v: 128, alpha: 255),  // white
        ARGBConversion(pixel: 0xFF00_0000, matrix: .bt709, y: 16, u: 128, v: 128, alpha: 255),  // black
        ARGBConversion(pixel: 0x0000_0000, matrix: .bt709, y: 0, u: 0, v: 0, alpha: 0),  // transparent
        // White at alpha 128: 235 × 128 / 255 = 117.96, 128 × 128 / 255 = 64.25.
        ARGBConversion(pixel: 0x8080_8080, matrix: .bt709, y: 118, u: 64, v: 64, alpha: 128),
    ]

    @Test(arguments: conversions)
    func premultipliedARGBConvertsOnce(_ conversion: ARGBConversion) {
        let tile = OverlayTile(
            premultipliedARGB: [UInt32](repeating: conversion.pixel, count: 4), width: 2, height: 2, matrix: conversion.matrix)
        #expect(tile.luma == [UInt8](repeating: conversion.y, count: 4))
        #expect(tile.alpha == [UInt8](repeating: conversion.alpha, count: 4))
        #expect(tile.evenChroma.u == [conversion.u])
        #expect(tile.evenChroma.v == [conversion.v])
        #expect(tile.evenChroma.alpha == [conversion.alpha])
    }

    @Test func chromaOfAPartlyCoveredBlockIsTheAlphaWeightedMean() {
        // Left column opaque red, right column transparent: the block is half covered by red.
        let tile = OverlayTile(premultipliedARGB: [0xFFFF_0000, 0, 0xFFFF_0000, 0], width: 2, height: 2)
        #expect(tile.evenChroma.alpha == [128])  // (255 + 255 + 2) / 4
        #expect(tile.evenChroma.u == [51])  // 102.34 / 2 = 51.2
        #expect(tile.evenChroma.v == [120])  // 240 / 2
    }

    @Test func rowStrideOfACairoSurfaceIsHonoured() {
        // Two rows of one opaque white pixel, each row padded to three pixels with garbage.
        let pixels: [UInt32] = [0xFFFF_FFFF, 0xDEAD_BEEF, 0xDEAD_BEEF, 0xFF00_0000, 0xDEAD_BEEF, 0xDEAD_BEEF]
        let tile = pixels.withUnsafeBufferPointer {
            OverlayTile(premultipliedARGB: $0, width: 1, height: 2, rowLength: 3)
        }
        #expect(tile.luma == [235, 16])
        #expect(tile.alpha == [255, 255])
    }

    @Test func a420IsPremultipliedWithItsBlockAlpha() {
        // Alpha 255 on the top row and 0 on the bottom: block alpha (255 + 255 + 0 + 0 + 2) / 4 = 128.
        let tile = TileFactory.a420Tile(width: 2, height: 2, y: [200, 200, 90, 90], u: [60], v: [240], alpha: [255, 255, 0, 0])
        #expect(tile.luma == [200, 200, 0, 0])
        #expect(tile.evenChroma.alpha == [128])
        #expect(tile.evenChroma.u == [30])  // 60 × 128 / 255 = 30.1
        #expect(tile.evenChroma.v == [120])  // 240 × 128 / 255 = 120.5 → 120 (rounded-half-up of 30720/255 = 120.47)
    }

    @Test func a420AlreadyPremultipliedIsKeptButClampedToAlpha() {
        let tile = TileFactory.a420Tile(
            width: 2, height: 2, y: [100, 200, 0, 0], u: [60], v: [90], alpha: [128, 128, 0, 0], isPremultiplied: true)
        #expect(tile.luma == [100, 128, 0, 0])
        #expect(tile.evenChroma.alpha == [64])
        #expect(tile.evenChroma.u == [60] && tile.evenChroma.v == [64])
    }

    @Test func ayuvDownsamplesChromaWithAlphaWeights() {
        // Two pixels: opaque (Y 100, U 50, V 200) and half-transparent (Y 200, U 250, V 100), over a 2×1 tile.
        let bytes: [UInt8] = [255, 100, 50, 200, 128, 200, 250, 100]
        let tile = bytes.withUnsafeBufferPointer { OverlayTile(ayuv: $0.baseAddress!, stride: 8, width: 2, height: 1) }
        #expect(tile.luma == [100, 100])  // 200 × 128 / 255 = 100.4
        #expect(tile.alpha == [255, 128])
        #expect(tile.evenChroma.alpha == [96])  // (255 + 128 + 2) / 4
        #expect(tile.evenChroma.u == [44])  // (50·255 + 250·128) / 1020 = 43.9
        #expect(tile.evenChroma.v == [63])  // (200·255 + 100·128) / 1020 = 62.5 → rounds half up
    }

    @Test func rowSpansSkipTransparentMarginsAndFlagOpaqueRows() {
        let tile = TileFactory.a420Tile(
            width: 4, height: 3, y: [UInt8](repeating: 100, count: 12), u: [0, 0, 0, 0], v: [0, 0, 0, 0],
            alpha: [0, 255, 255, 0, 0, 0, 0, 0, 10, 255, 0, 0])
        #expect(tile.lumaRows == [
            TileRowSpan(start: 1, end: 3, isOpaque: true),
            TileRowSpan(start: 0, end: 0, isOpaque: false),
            TileRowSpan(start: 0, end: 2, isOpaque: false),
        ])
        #expect(!tile.isFullyTransparent)
    }

    @Test func derivedChromaPhasesAreCountedInBytes() {
        let tile = TileFactory.randomTile(width: 8, height: 8, alpha: .mixed, seed: 1)
        let before = tile.byteCount
        _ = tile.chroma(phaseX: 1, phaseY: 1)
        #expect(tile.chroma(phaseX: 1, phaseY: 1).width == 5)
        #expect(tile.byteCount == before + 3 * 25 + 5 * MemoryLayout<TileRowSpan>.stride)
    }
}
