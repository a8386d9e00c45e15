/// A tile's premultiplied chroma for one placement parity ("phase"), at chroma resolution.
///
/// A 4:2:0 chroma sample covers a 2×2 block of luma pixels that starts on even coordinates. A tile placed at an
/// odd x (or y) therefore straddles the destination's blocks: its own blocks are half a chroma sample off. Phase
/// (`phaseX`, `phaseY`) = (x & 1, y & 1) holds the tile's chroma resampled onto blocks that start at tile column
/// `2i − phaseX` and row `2j − phaseY`, so that sample (i, j) lands exactly on destination chroma sample
/// (⌊x / 2⌋ + i, ⌊y / 2⌋ + j). The size follows from the phase: `(width + phaseX + 1) / 2` samples per row, so a
/// tile touches exactly the destination chroma columns ⌊x / 2⌋ … ⌊(x + width − 1) / 2⌋.
struct TileChroma: Sendable {
    let width: Int
    let height: Int
    /// Premultiplied U and V (value × alpha / 255) and the block-averaged alpha, row after row.
    let u: [UInt8]
    let v: [UInt8]
    let alpha: [UInt8]
    let rows: [TileRowSpan]

    init(width: Int, height: Int, u: [UInt8], v: [UInt8], alpha: [UInt8]) {
        precondition(u.count == width * height && v.count == u.count && alpha.count == u.count, "chroma plane sizes differ")
        self.width = width
        self.height = height
        self.u = u
        self.v = v
        self.alpha = alpha
        rows = TileRowSpan.spans(ofAlpha: alpha, width: width, height: height)
    }

    var byteCount: Int { 3 * u.count + rows.count * MemoryLayout<TileRowSpan>.stride }

    /// Resamples phase-(0, 0) chroma to another phase, for a tile of `lumaWidth` × `lumaHeight`.
    ///
    /// Each shifted block overlaps two (or four) phase-0 blocks by equal areas, so its value is their rounded mean,
    /// with samples outside the tile counting as transparent (0). Premultiplied values average correctly; the
    /// result keeps chroma ≤ alpha, which blending relies on.
    func shifted(phaseX: Int, phaseY: Int, lumaWidth: Int, lumaHeight: Int) -> TileChroma {
        let shiftedWidth = (lumaWidth + phaseX + 1) / 2
        let shiftedHeight = (lumaHeight + phaseY + 1) / 2
        let sampleCount = (phaseX + 1) * (phaseY + 1)
        let count = shiftedWidth * shiftedHeight
        var shiftedU = [UInt8](repeating: 0, count: count)
        var shiftedV = shiftedU
        var shiftedAlpha = shiftedU
        func sample(_ plane: [UInt8], _ column: Int, _ row: Int) -> Int {
            column >= 0 && column < width && row >= 0 && row < height ? Int(plane[row * width + column]) : 0
        }
        for row in 0..<shiftedHeight {
            for column in 0..<shiftedWidth {
                var sums = (u: 0, v: 0, alpha: 0)
                for rowBack in 0...phaseY {
                    for columnBack in 0...phaseX {
                        sums.u += sample(u, column - columnBack, row - rowBack)
                        sums.v += sample(v, column - columnBack, row - rowBack)
                        sums.alpha += sample(alpha, column - columnBack, row - rowBack)
                    }
                }
                let index = row * shiftedWidth + column
                shiftedU[index] = UInt8((sums.u + sampleCount / 2) / sampleCount)
                shiftedV[index] = UInt8((sums.v + sampleCount / 2) / sampleCount)
                shiftedAlpha[index] = UInt8((sums.alpha + sampleCount / 2) / sampleCount)
            }
        }
        return TileChroma(width: shiftedWidth, height: shiftedHeight, u: shiftedU, v: shiftedV, alpha: shiftedAlpha)
    }
}
