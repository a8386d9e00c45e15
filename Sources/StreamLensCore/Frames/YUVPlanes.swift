/// How the chroma samples of a YUV 4:2:0 frame are laid out in memory.
public enum PixelLayout: String, Sendable, Equatable, CaseIterable {
    /// Three planes: Y, then U, then V, chroma at half width and half height.
    case i420
    /// Two planes: Y, then interleaved UV pairs at half width and half height.
    case nv12
}

/// A borrowed view of one image plane: rows `stride` bytes apart, samples `pixelStride` bytes apart.
///
/// A plane does not own its memory. It is valid only inside the scope that produced it (a mapped frame,
/// an ``OwnedYUVImage``); never store it.
public struct Plane: @unchecked Sendable {
    /// First byte of the first sample of the first row.
    public var base: UnsafeMutablePointer<UInt8>
    /// Bytes from one row to the next (may exceed `width * pixelStride` because of padding).
    public var stride: Int
    /// Bytes from one sample to the next in a row: 1 for planar data, 2 for one component of NV12's UV pairs.
    public var pixelStride: Int
    /// Samples per row.
    public var width: Int
    /// Rows.
    public var height: Int

    public init(base: UnsafeMutablePointer<UInt8>, stride: Int, pixelStride: Int = 1, width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "plane size must not be negative")
        precondition(stride >= width * pixelStride, "stride \(stride) is shorter than a row of \(width) samples")
        self.base = base
        self.stride = stride
        self.pixelStride = pixelStride
        self.width = width
        self.height = height
    }

    /// The sample at column `x`, row `y`.
    @inline(__always)
    public subscript(x: Int, y: Int) -> UInt8 {
        get { base[y * stride + x * pixelStride] }
        nonmutating set { base[y * stride + x * pixelStride] = newValue }
    }

    /// Pointer to the first sample of row `y`.
    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * stride }
}

/// A borrowed view of a YUV 4:2:0 frame in either native layout.
///
/// Both layouts present the chroma as two planes `u` and `v`; for NV12 they point into the same interleaved plane
/// with a pixel stride of 2 (V one byte after U). Code written against `u`/`v` therefore handles I420 and NV12
/// alike. Chroma planes are `(width + 1) / 2` × `(height + 1) / 2`.
public struct YUVPlanes: @unchecked Sendable {
    public var layout: PixelLayout
    public var width: Int
    public var height: Int
    public var y: Plane
    public var u: Plane
    public var v: Plane

    public init(layout: PixelLayout, width: Int, height: Int, y: Plane, u: Plane, v: Plane) {
        self.layout = layout
        self.width = width
        self.height = height
        self.y = y
        self.u = u
        self.v = v
    }

    /// Views raw planes as I420 or NV12. `chromaBase`/`chromaStride` are the U plane (I420) or the UV plane (NV12);
    /// `vBase`/`vStride` are used for I420 only.
    public init(
        layout: PixelLayout, width: Int, height: Int,
        lumaBase: UnsafeMutablePointer<UInt8>, lumaStride: Int,
        chromaBase: UnsafeMutablePointer<UInt8>, chromaStride: Int,
        vBase: UnsafeMutablePointer<UInt8>? = nil, vStride: Int = 0
    ) {
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        let luma = Plane(base: lumaBase, stride: lumaStride, width: width, height: height)
        switch layout {
        case .i420:
            guard let vBase else { preconditionFailure("I420 needs a V plane") }
            self.init(
                layout: layout, width: width, height: height, y: luma,
                u: Plane(base: chromaBase, stride: chromaStride, width: chromaWidth, height: chromaHeight),
                v: Plane(base: vBase, stride: vStride, width: chromaWidth, height: chromaHeight))
        case .nv12:
            self.init(
                layout: layout, width: width, height: height, y: luma,
                u: Plane(base: chromaBase, stride: chromaStride, pixelStride: 2, width: chromaWidth, height: chromaHeight),
                v: Plane(base: chromaBase + 1, stride: chromaStride, pixelStride: 2, width: chromaWidth, height: chromaHeight))
        }
    }
}
