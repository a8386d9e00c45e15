import StreamLensCore

/// Blends ``OverlayTile``s onto I420 or NV12 frames in place, in the frame's own YUV.
///
/// Premultiplied "source over": for every sample, `dst = src + dst × (255 − alpha) / 255`, the division rounded to
/// nearest. Luma blends at full resolution with the per-pixel alpha; U and V blend at chroma resolution with the
/// tile's 2×2-averaged alpha, using the chroma phase that matches the placement's parity (see ``TileChroma``), so
/// a tile at an odd position still lands on the right chroma samples. NV12 works through
/// ``Plane/pixelStride``: U and V are the two interleaved halves of one plane.
///
/// Cost is proportional to the visible, non-transparent part of the tile: the tile is clipped to the frame first,
/// each row visits only the span between its first and last non-transparent pixel, fully opaque spans are copied,
/// and nothing is allocated.
///
/// ## Thread Safety
/// Stateless. Concurrent blends onto different frames are safe; onto the same frame they race like any writes.
public enum TileBlender {
    /// Blends `tile` with its top-left corner at luma pixel (`x`, `y`) of `frame`, which may be negative or past the
    /// edge: the tile is clipped.
    /// - Parameter opacity: 0…1, multiplies the tile's alpha (fades). Scales the premultiplied values, so colour
    ///   and alpha fade together. Opacity 0 and a fully transparent tile return at once.
    public static func blend(_ tile: OverlayTile, onto frame: YUVPlanes, x: Int, y: Int, opacity: Double = 1) {
        let level = opacityLevel(opacity)
        guard level > 0, !tile.isFullyTransparent else { return }
        // Clip against the luma plane; if nothing of the tile's box is visible, nothing of its chroma is either.
        guard x < frame.y.width, y < frame.y.height, x + tile.width > 0, y + tile.height > 0 else { return }
        tile.luma.withUnsafeBufferPointer { values in
            tile.alpha.withUnsafeBufferPointer { alpha in
                tile.lumaRows.withUnsafeBufferPointer { rows in
                    blendLuma(
                        values: values.baseAddress!, alpha: alpha.baseAddress!, rows: rows.baseAddress!,
                        width: tile.width, height: tile.height, onto: frame.y, x: x, y: y, level: level)
                }
            }
        }
        // Arithmetic shift floors negative coordinates too (−3 >> 1 == −2), and & 1 is the parity in two's complement.
        let chroma = tile.chroma(phaseX: x & 1, phaseY: y & 1)
        chroma.u.withUnsafeBufferPointer { u in
            chroma.v.withUnsafeBufferPointer { v in
                chroma.alpha.withUnsafeBufferPointer { alpha in
                    chroma.rows.withUnsafeBufferPointer { rows in
                        blendChroma(
                            u: u.baseAddress!, v: v.baseAddress!, alpha: alpha.baseAddress!, rows: rows.baseAddress!,
                            width: chroma.width, height: chroma.height, onto: frame.u, frame.v, x: x >> 1, y: y >> 1,
                            level: level)
                    }
                }
            }
        }
    }

    /// Opacity 0…1 as an 8-bit level, rounded.
    static func opacityLevel(_ opacity: Double) -> Int {
        guard opacity.isFinite else { return 0 }
        return Int((max(0, min(1, opacity)) * 255).rounded())
    }

    /// The visible part of a `width` × `height` tile placed at (`x`, `y`) on a `planeWidth` × `planeHeight` plane, in
    /// tile coordinates; nil when none of it is visible.
    @inline(__always)
    static func visibleRegion(
        width: Int, height: Int, x: Int, y: Int, planeWidth: Int, planeHeight: Int
    ) -> (columns: Range<Int>, rows: Range<Int>)? {
        let firstColumn = max(0, -x), endColumn = min(width, planeWidth - x)
        let firstRow = max(0, -y), endRow = min(height, planeHeight - y)
        guard firstColumn < endColumn, firstRow < endRow else { return nil }
        return (firstColumn..<endColumn, firstRow..<endRow)
    }

    private static func blendLuma(
        values: UnsafePointer<UInt8>, alpha: UnsafePointer<UInt8>, rows: UnsafePointer<TileRowSpan>,
        width: Int, height: Int, onto plane: Plane, x: Int, y: Int, level: Int
    ) {
        guard let visible = visibleRegion(
            width: width, height: height, x: x, y: y, planeWidth: plane.width, planeHeight: plane.height)
        else { return }
        let step = plane.pixelStride
        for row in visible.rows {
            let span = rows[row]
            let start = max(span.start, visible.columns.lowerBound)
            let end = min(span.end, visible.columns.upperBound)
            guard start < end else { continue }
            let source = values + row * width
            let sourceAlpha = alpha + row * width
            // Destination pointer of tile column `start`; columns below are reached as offsets from it.
            let destination = plane.row(y + row) + (x + start) * step
            if level == 255 && span.isOpaque && step == 1 {
                destination.update(from: source + start, count: end - start)
                continue
            }
            for column in start..<end {
                let target = destination + (column - start) * step
                // Fade: src' = src × level / 255, a' = a × level / 255 (both rounded); level 255 leaves them as is.
                let a = level == 255 ? Int(sourceAlpha[column]) : divideBy255Rounded(Int(sourceAlpha[column]) * level)
                if a == 0 { continue }
                let premultiplied = level == 255 ? Int(source[column]) : divideBy255Rounded(Int(source[column]) * level)
                if a == 255 {
                    target.pointee = UInt8(truncatingIfNeeded: premultiplied)
                    continue
                }
                // dst = src + dst × (255 − a) / 255, rounded. src ≤ a, so the sum never exceeds 255.
                target.pointee = UInt8(truncatingIfNeeded: premultiplied + divideBy255Rounded(Int(target.pointee) * (255 - a)))
            }
        }
    }

    /// Blends U and V in one pass over the shared alpha (one pass over NV12's interleaved plane, too).
    private static func blendChroma(
        u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, alpha: UnsafePointer<UInt8>, rows: UnsafePointer<TileRowSpan>,
        width: Int, height: Int, onto uPlane: Plane, _ vPlane: Plane, x: Int, y: Int, level: Int
    ) {
        guard let visible = visibleRegion(
            width: width, height: height, x: x, y: y, planeWidth: uPlane.width, planeHeight: uPlane.height)
        else { return }
        let uStep = uPlane.pixelStride
        let vStep = vPlane.pixelStride
        for row in visible.rows {
            let span = rows[row]
            let start = max(span.start, visible.columns.lowerBound)
            let end = min(span.end, visible.columns.upperBound)
            guard start < end else { continue }
            let sourceU = u + row * width
            let sourceV = v + row * width
            let sourceAlpha = alpha + row * width
            let destinationU = uPlane.row(y + row) + (x + start) * uStep
            let destinationV = vPlane.row(y + row) + (x + start) * vStep
            for column in start..<end {
                let a = level == 255 ? Int(sourceAlpha[column]) : divideBy255Rounded(Int(sourceAlpha[column]) * level)
                if a == 0 { continue }
                let premultipliedU = level == 255 ? Int(sourceU[column]) : divideBy255Rounded(Int(sourceU[column]) * level)
                let premultipliedV = level == 255 ? Int(sourceV[column]) : divideBy255Rounded(Int(sourceV[column]) * level)
                let targetU = destinationU + (column - start) * uStep
                let targetV = destinationV + (column - start) * vStep
                if a == 255 {
                    targetU.pointee = UInt8(truncatingIfNeeded: premultipliedU)
                    targetV.pointee = UInt8(truncatingIfNeeded: premultipliedV)
                    continue
                }
                // dst = src + dst × (255 − a) / 255, rounded, with a the block's averaged alpha.
                let keep = 255 - a
                targetU.pointee = UInt8(truncatingIfNeeded: premultipliedU + divideBy255Rounded(Int(targetU.pointee) * keep))
                targetV.pointee = UInt8(truncatingIfNeeded: premultipliedV + divideBy255Rounded(Int(targetV.pointee) * keep))
            }
        }
    }
}
