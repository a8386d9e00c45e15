import StreamLensCore

/// A frame for tests: owns its bytes, has padded rows (stride > width) so stride bugs show, and reads back as
/// plain arrays. NV12 chroma is one interleaved plane, exactly as a decoder lays it out.
final class TestFrame {
    let layout: PixelLayout
    let width: Int
    let height: Int
    let lumaStride: Int
    let chromaStride: Int
    private var bytes: [UInt8]
    private let lumaCount: Int
    private let chromaPlaneBytes: Int

    var chromaWidth: Int { (width + 1) / 2 }
    var chromaHeight: Int { (height + 1) / 2 }

    init(layout: PixelLayout, width: Int, height: Int, padding: Int = 3) {
        self.layout = layout
        self.width = width
        self.height = height
        lumaStride = width + padding
        chromaStride = (layout == .nv12 ? 2 * ((width + 1) / 2) : (width + 1) / 2) + padding
        lumaCount = lumaStride * height
        chromaPlaneBytes = chromaStride * ((height + 1) / 2)
        // I420: U plane then V plane; NV12: one UV plane.
        bytes = [UInt8](repeating: 0, count: lumaCount + (layout == .nv12 ? 1 : 2) * chromaPlaneBytes)
    }

    /// Lends the frame as `YUVPlanes`.
    func withPlanes<Result>(_ body: (YUVPlanes) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            switch layout {
            case .i420:
                return try body(YUVPlanes(
                    layout: .i420, width: width, height: height, lumaBase: base, lumaStride: lumaStride,
                    chromaBase: base + lumaCount, chromaStride: chromaStride,
                    vBase: base + lumaCount + chromaPlaneBytes, vStride: chromaStride))
            case .nv12:
                return try body(YUVPlanes(
                    layout: .nv12, width: width, height: height, lumaBase: base, lumaStride: lumaStride,
                    chromaBase: base + lumaCount, chromaStride: chromaStride))
            }
        }
    }

    /// Visible samples only (padding excluded), row after row.
    var y: [UInt8] { withPlanes { Self.samples(of: $0.y) } }
    var u: [UInt8] { withPlanes { Self.samples(of: $0.u) } }
    var v: [UInt8] { withPlanes { Self.samples(of: $0.v) } }

    /// Sets every visible sample; padding keeps a marker value that must survive any drawing.
    func set(y lumaValues: [UInt8], u uValues: [UInt8], v vValues: [UInt8]) {
        withPlanes { planes in
            Self.write(lumaValues, to: planes.y)
            Self.write(uValues, to: planes.u)
            Self.write(vValues, to: planes.v)
        }
    }

    /// Fills with a deterministic pseudo-random pattern.
    func fillPattern(seed: UInt64) {
        var generator = SplitMix(seed: seed)
        set(y: generator.bytes(width * height), u: generator.bytes(chromaWidth * chromaHeight),
            v: generator.bytes(chromaWidth * chromaHeight))
    }

    /// Bytes outside the visible samples (row padding), to check that nothing writes past a row.
    var paddingBytes: [UInt8] {
        var padding: [UInt8] = []
        for row in 0..<height { padding += bytes[(row * lumaStride + width)..<((row + 1) * lumaStride)] }
        let chromaRowBytes = layout == .nv12 ? 2 * chromaWidth : chromaWidth
        for plane in 0..<(layout == .nv12 ? 1 : 2) {
            let base = lumaCount + plane * chromaPlaneBytes
            for row in 0..<chromaHeight {
                padding += bytes[(base + row * chromaStride + chromaRowBytes)..<(base + (row + 1) * chromaStride)]
            }
        }
        return padding
    }

    func markPadding(_ value: UInt8) {
        let lumaValues = y, uValues = u, vValues = v
        for index in bytes.indices { bytes[index] = value }
        set(y: lumaValues, u: uValues, v: vValues)
    }

    private static func samples(of plane: Plane) -> [UInt8] {
        var values: [UInt8] = []
        values.reserveCapacity(plane.width * plane.height)
        for row in 0..<plane.height {
            for column in 0..<plane.width { values.append(plane[column, row]) }
        }
        return values
    }

    private static func write(_ values: [UInt8], to plane: Plane) {
        precondition(values.count == plane.width * plane.height)
        for row in 0..<plane.height {
            for column in 0..<plane.width { plane[column, row] = values[row * plane.width + column] }
        }
    }
}

/// A small deterministic generator (SplitMix64) so test patterns are the same on every run.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
}

extension TestFrame {
    /// A frame of one colour.
    static func uniform(_ layout: PixelLayout = .i420, width: Int, height: Int, y: UInt8, u: UInt8, v: UInt8) -> TestFrame {
        let frame = TestFrame(layout: layout, width: width, height: height)
        let chromaCount = frame.chromaWidth * frame.chromaHeight
        frame.set(
            y: [UInt8](repeating: y, count: width * height), u: [UInt8](repeating: u, count: chromaCount),
            v: [UInt8](repeating: v, count: chromaCount))
        return frame
    }

    /// One sample, read in place (the array properties copy a whole plane).
    func luma(_ x: Int, _ y: Int) -> UInt8 { withPlanes { $0.y[x, y] } }
    func chroma(_ x: Int, _ y: Int) -> (u: UInt8, v: UInt8) { withPlanes { ($0.u[x, y], $0.v[x, y]) } }
}
