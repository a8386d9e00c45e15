/// A YUV 4:2:0 image that owns its memory: overlays, analysis copies, test frames.
///
/// Memory is allocated once in `init` and freed in `deinit`; ``withPlanes(_:)`` lends a ``YUVPlanes`` view.
///
/// ## Thread Safety
/// Not synchronized. One owner at a time; hand it between threads only with a happens-before edge (a queue, a lock).
public final class OwnedYUVImage: @unchecked Sendable {
    public let layout: PixelLayout
    public let width: Int
    public let height: Int
    /// Bytes per luma row.
    public let lumaStride: Int
    private let storage: UnsafeMutablePointer<UInt8>
    private let byteCount: Int

    /// Allocates a `width` × `height` image filled with `fill` (Y, U, V); default is black (16, 128, 128).
    public init(layout: PixelLayout, width: Int, height: Int, fill: (y: UInt8, u: UInt8, v: UInt8) = (16, 128, 128)) {
        precondition(width > 0 && height > 0, "image must be at least 1×1")
        self.layout = layout
        self.width = width
        self.height = height
        self.lumaStride = width
        let chromaBytes = ((width + 1) / 2) * ((height + 1) / 2)
        byteCount = width * height + 2 * chromaBytes
        storage = .allocate(capacity: byteCount)
        withPlanes { planes in
            planes.fill(y: fill.y, u: fill.u, v: fill.v)
        }
    }

    deinit { storage.deallocate() }

    /// Lends the planes for the duration of `body`.
    public func withPlanes<Result>(_ body: (YUVPlanes) throws -> Result) rethrows -> Result {
        let chromaWidth = (width + 1) / 2
        let chromaBase = storage + width * height
        switch layout {
        case .i420:
            let vBase = chromaBase + chromaWidth * ((height + 1) / 2)
            return try body(YUVPlanes(
                layout: .i420, width: width, height: height, lumaBase: storage, lumaStride: width,
                chromaBase: chromaBase, chromaStride: chromaWidth, vBase: vBase, vStride: chromaWidth))
        case .nv12:
            return try body(YUVPlanes(
                layout: .nv12, width: width, height: height, lumaBase: storage, lumaStride: width,
                chromaBase: chromaBase, chromaStride: chromaWidth * 2))
        }
    }
}

extension YUVPlanes {
    /// Sets every sample of the frame to one colour.
    public func fill(y lumaValue: UInt8, u uValue: UInt8, v vValue: UInt8) {
        y.fill(lumaValue)
        u.fill(uValue)
        v.fill(vValue)
    }
}

extension Plane {
    /// Sets every sample of the plane to `value`.
    public func fill(_ value: UInt8) {
        for row in 0..<height {
            let start = self.row(row)
            if pixelStride == 1 {
                start.update(repeating: value, count: width)
            } else {
                for column in 0..<width { start[column * pixelStride] = value }
            }
        }
    }
}
