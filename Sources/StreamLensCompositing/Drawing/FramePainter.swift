import StreamLensCore

/// Opaque rectangle fills on I420/NV12 frames: the primitive behind box outlines.
///
/// A rectangle whose edges sit on even coordinates covers whole chroma blocks, so its colour is exact in 4:2:0;
/// odd edges colour the straddled chroma sample too (the luma stays exact). Everything is clipped to the frame.
///
/// ## Thread Safety
/// Stateless.
public enum FramePainter {
    /// Fills luma pixels `x..<x+width`, `y..<y+height` with `colour`, and the chroma samples they touch.
    public static func fillRectangle(x: Int, y: Int, width: Int, height: Int, colour: YUVColor, on frame: YUVPlanes) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(frame.y.width, x + width), y1 = min(frame.y.height, y + height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            let line = frame.y.row(row)
            if frame.y.pixelStride == 1 {
                (line + x0).update(repeating: colour.y, count: x1 - x0)
            } else {
                for column in x0..<x1 { line[column * frame.y.pixelStride] = colour.y }
            }
        }
        // Chroma samples whose 2×2 block overlaps the rectangle.
        let chromaX1 = min(frame.u.width, (x1 + 1) / 2), chromaY1 = min(frame.u.height, (y1 + 1) / 2)
        for row in (y0 / 2)..<chromaY1 {
            let uLine = frame.u.row(row), vLine = frame.v.row(row)
            for column in (x0 / 2)..<chromaX1 {
                uLine[column * frame.u.pixelStride] = colour.u
                vLine[column * frame.v.pixelStride] = colour.v
            }
        }
    }
}
