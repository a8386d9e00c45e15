import Testing

@testable import StreamLensSigns

/// The run-by-run labelling of four-connected regions against the flood fill it replaced for them: the same labels,
/// components and order on masks of every density, with diagonal touches, holes, single pixels and regions too small.
struct ComponentLabelerTests {
    /// A deterministic pseudo-random mask: blobs of `density` grown from seeds, so that regions of every size occur.
    static func mask(width: Int, height: Int, density: Double, seed: UInt64) -> [UInt8] {
        var state = seed
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var mask = [UInt8](repeating: 0, count: width * height)
        for index in mask.indices where next() < density { mask[index] = 1 }
        // Smear rows now and then: long runs beside short ones.
        for y in 0..<height where next() < 0.2 {
            let start = Int(next() * Double(width))
            for x in start..<min(width, start + Int(next() * Double(width) / 2)) { mask[y * width + x] = 1 }
        }
        return mask
    }

    @Test(arguments: [0.05, 0.3, 0.5, 0.6, 0.9])
    func runsAndFloodFillAgree(density: Double) {
        for (seed, size) in [(1, (37, 23)), (2, (64, 48)), (3, (1, 40)), (4, (40, 1)), (5, (131, 77))] {
            let (width, height) = size
            let mask = Self.mask(width: width, height: height, density: density, seed: UInt64(seed))
            for minimumPixels in [1, 4] {
                var byRuns = ComponentLabeler()
                var byFlooding = ComponentLabeler()
                mask.withUnsafeBufferPointer { mask in
                    byRuns.labelRuns(mask: mask, width: width, height: height, minimumPixels: minimumPixels)
                    byFlooding.labelByFlooding(
                        mask: mask, width: width, height: height, gapTolerance: 1, joinsDiagonals: false,
                        minimumPixels: minimumPixels)
                }
                #expect(byRuns.components == byFlooding.components, "seed \(seed), \(width)×\(height)")
                #expect(
                    Array(byRuns.labels.prefix(width * height)) == Array(byFlooding.labels.prefix(width * height)),
                    "seed \(seed), \(width)×\(height)")
            }
        }
    }

    /// The red-ring locator's labeler keeps no labels: its flood fill marks visited pixels in a byte plane and must
    /// find the same components, in the same order, as with labels — also past 127 components, where a byte's label
    /// would wrap.
    @Test(arguments: [0.05, 0.3, 0.6])
    func floodFillWithoutLabelsFindsTheSameComponents(density: Double) {
        for (seed, size) in [(11, (37, 23)), (12, (131, 77)), (13, (320, 180))] {
            let (width, height) = size
            let mask = Self.mask(width: width, height: height, density: density, seed: UInt64(seed))
            for (gapTolerance, minimumPixels) in [(1, 1), (1, 6), (2, 3)] {
                var withLabels = ComponentLabeler()
                var withoutLabels = ComponentLabeler(keepsLabels: false)
                mask.withUnsafeBufferPointer { mask in
                    withLabels.label(
                        mask: mask, width: width, height: height, gapTolerance: gapTolerance,
                        minimumPixels: minimumPixels)
                    withoutLabels.label(
                        mask: mask, width: width, height: height, gapTolerance: gapTolerance,
                        minimumPixels: minimumPixels)
                }
                #expect(!withLabels.components.isEmpty)
                #expect(
                    withLabels.components == withoutLabels.components,
                    "seed \(seed), \(width)×\(height), gap \(gapTolerance)")
                #expect(withoutLabels.labels.isEmpty)
            }
        }
        // Enough pairs of pixels that the count passes a byte's range: a pair whose mark wrapped to 0 (unvisited)
        // would be found again from its second pixel.
        let (width, height) = (120, 60)
        var pairs = [UInt8](repeating: 0, count: width * height)
        for y in stride(from: 0, to: height, by: 3) {
            for x in stride(from: 0, to: width, by: 3) {
                pairs[y * width + x] = 1
                pairs[y * width + x + 1] = 1
            }
        }
        var withoutLabels = ComponentLabeler(keepsLabels: false)
        pairs.withUnsafeBufferPointer { withoutLabels.label(mask: $0, width: width, height: height) }
        #expect(withoutLabels.components.count == 40 * 20)
        #expect(withoutLabels.components.allSatisfy { $0.pixelCount == 2 })
    }

    /// Diagonal neighbours are separate regions; a ring around a hole is one, its hole's pixel another.
    @Test func fourConnectedRegionsOnASmallMask() {
        let rows = [
            "1.1....",
            ".1..111",
            "....1.1",
            "11..111",
        ]
        let mask = rows.flatMap { $0.map { $0 == "1" ? UInt8(1) : 0 } }
        var labeler = ComponentLabeler()
        mask.withUnsafeBufferPointer {
            labeler.label(mask: $0, width: 7, height: 4, joinsDiagonals: false)
        }
        #expect(labeler.components.map(\.pixelCount) == [1, 1, 1, 8, 2])
        #expect(labeler.components[3] == MaskComponent(minX: 4, minY: 1, maxX: 6, maxY: 3, pixelCount: 8))
        #expect(labeler.labels[2 * 7 + 5] == 0, "the ring's hole")
    }
}
