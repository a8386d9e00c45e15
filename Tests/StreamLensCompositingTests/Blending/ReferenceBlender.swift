@testable import StreamLensCompositing

/// The blend written the obvious way, sample by sample in floating point, to check ``TileBlender`` against.
///
/// Chroma is defined from first principles: a destination chroma sample is touched when any of its four luma
/// pixels lies on the tile; its premultiplied value and alpha are the mean, over those four pixels, of the tile's
/// (even-phase) chroma block that each pixel falls in, 0 outside the tile's blocks.
enum ReferenceBlender {
    static func round255(_ numerator: Int) -> Int { Int((Double(numerator) / 255).rounded()) }

    /// One sample: fade the premultiplied source and its alpha by `level`, then source-over.
    static func blendSample(destination: Int, source: Int, alpha: Int, level: Int) -> Int {
        let fadedSource = round255(source * level)
        let fadedAlpha = round255(alpha * level)
        return fadedSource + round255(destination * (255 - fadedAlpha))
    }

    static func blend(_ tile: OverlayTile, onto frame: TestFrame, x: Int, y: Int, opacity: Double) {
        let level = Int((max(0, min(1, opacity)) * 255).rounded())
        var lumaValues = frame.y, uValues = frame.u, vValues = frame.v
        for row in 0..<frame.height {
            for column in 0..<frame.width {
                let tileColumn = column - x, tileRow = row - y
                guard tileColumn >= 0, tileColumn < tile.width, tileRow >= 0, tileRow < tile.height else { continue }
                let index = tileRow * tile.width + tileColumn
                let out = blendSample(
                    destination: Int(lumaValues[row * frame.width + column]), source: Int(tile.luma[index]),
                    alpha: Int(tile.alpha[index]), level: level)
                lumaValues[row * frame.width + column] = UInt8(out)
            }
        }
        let chroma = tile.evenChroma
        for chromaRow in 0..<frame.chromaHeight {
            for chromaColumn in 0..<frame.chromaWidth {
                var touched = false
                var sums = (u: 0, v: 0, alpha: 0)
                for lumaRow in (chromaRow * 2)...(chromaRow * 2 + 1) {
                    for lumaColumn in (chromaColumn * 2)...(chromaColumn * 2 + 1) {
                        let tileColumn = lumaColumn - x, tileRow = lumaRow - y
                        let onTile = tileColumn >= 0 && tileColumn < tile.width && tileRow >= 0 && tileRow < tile.height
                        // A frame of odd size has chroma samples whose second column or row lies past its edge.
                        if onTile && lumaColumn < frame.width && lumaRow < frame.height { touched = true }
                        // Floor division: the block a (possibly negative) tile coordinate falls in.
                        let blockColumn = Int((Double(tileColumn) / 2).rounded(.down))
                        let blockRow = Int((Double(tileRow) / 2).rounded(.down))
                        guard blockColumn >= 0, blockColumn < chroma.width, blockRow >= 0, blockRow < chroma.height else { continue }
                        let block = blockRow * chroma.width + blockColumn
                        sums.u += Int(chroma.u[block])
                        sums.v += Int(chroma.v[block])
                        sums.alpha += Int(chroma.alpha[block])
                    }
                }
                guard touched else { continue }
                // Rounded mean of four: half-up, like the tile's own block averages.
                let meanU = Int((Double(sums.u) / 4 + 0.5).rounded(.down))
                let meanV = Int((Double(sums.v) / 4 + 0.5).rounded(.down))
                let meanAlpha = Int((Double(sums.alpha) / 4 + 0.5).rounded(.down))
                let index = chromaRow * frame.chromaWidth + chromaColumn
                uValues[index] = UInt8(blendSample(destination: Int(uValues[index]), source: meanU, alpha: meanAlpha, level: level))
                vValues[index] = UInt8(blendSample(destination: Int(vValues[index]), source: meanV, alpha: meanAlpha, level: level))
            }
        }
        frame.set(y: lumaValues, u: uValues, v: vValues)
    }
}
