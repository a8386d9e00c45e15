import StreamLensCore
import Synchronization

/// A small premultiplied YUVA 4:2:0 image, ready to blend onto I420 or NV12 frames without any colour conversion.
///
/// A tile owns its planes: premultiplied luma and alpha at full resolution, premultiplied U and V at chroma
/// resolution plus the 2×2-averaged alpha that chroma blends with. Premultiplied means each colour sample already
/// holds `value × alpha / 255`, so a blend is one multiply-add per sample (see ``TileBlender``).
///
/// Colour conversion happens here, once, when the tile is made (from Cairo's premultiplied ARGB32, from a decoded
/// A420 or AYUV frame); never per output frame. Tiles are immutable after `init` apart from the chroma of odd
/// placements (see ``TileChroma``), which is derived on first use and kept.
///
/// ## Thread Safety
/// Immutable planes; the lazily derived chroma phases sit behind a mutex. Safe to share between threads.
public final class OverlayTile: Sendable {
    /// Size in luma pixels.
    public let width: Int
    public let height: Int
    /// Premultiplied luma, `width` × `height`, row after row.
    let luma: [UInt8]
    /// Alpha, `width` × `height`, row after row: 0 transparent … 255 opaque.
    let alpha: [UInt8]
    let lumaRows: [TileRowSpan]
    /// Chroma for placements at even x and y.
    let evenChroma: TileChroma
    /// Chroma for the three odd placements, derived on first use: index `phaseY * 2 + phaseX - 1`.
    private let oddChroma = Mutex<[TileChroma?]>([nil, nil, nil])

    /// Makes a tile from planes that are already premultiplied (the designated initializer).
    init(width: Int, height: Int, luma: [UInt8], alpha: [UInt8], chroma: TileChroma) {
        precondition(width > 0 && height > 0, "a tile must be at least 1×1")
        precondition(luma.count == width * height && alpha.count == luma.count, "luma and alpha must be width × height")
        precondition(chroma.width == (width + 1) / 2 && chroma.height == (height + 1) / 2, "chroma must be (width+1)/2 × (height+1)/2")
        self.width = width
        self.height = height
        self.luma = luma
        self.alpha = alpha
        self.lumaRows = TileRowSpan.spans(ofAlpha: alpha, width: width, height: height)
        self.isFullyTransparent = lumaRows.allSatisfy { $0.start == $0.end }
        self.evenChroma = chroma
    }

    /// Bytes held by the tile's planes, including chroma phases derived so far.
    public var byteCount: Int {
        let derived = oddChroma.withLock { phases in phases.reduce(0) { $0 + ($1?.byteCount ?? 0) } }
        return 2 * luma.count + lumaRows.count * MemoryLayout<TileRowSpan>.stride + evenChroma.byteCount + derived
    }

    /// The bytes a `width` × `height` tile holds at the least (luma, alpha and one phase of chroma, as ``byteCount``
    /// counts them), known before anything is decoded: what a memory budget is checked against up front. In
    /// floating point, as a requested size may be absurd.
    public static func minimumByteCount(width: Int, height: Int) -> Double {
        2 * Double(width) * Double(height) + 3 * Double((width + 1) / 2) * Double((height + 1) / 2)
    }

    /// True when every pixel is transparent: nothing to draw (blending returns at once).
    public let isFullyTransparent: Bool

    /// The chroma to use for a placement whose x and y have parities `phaseX`, `phaseY` (0 or 1).
    func chroma(phaseX: Int, phaseY: Int) -> TileChroma {
        if phaseX == 0 && phaseY == 0 { return evenChroma }
        let slot = phaseY * 2 + phaseX - 1
        return oddChroma.withLock { phases in
            if let existing = phases[slot] { return existing }
            let derived = evenChroma.shifted(phaseX: phaseX, phaseY: phaseY, lumaWidth: width, lumaHeight: height)
            phases[slot] = derived
            return derived
        }
    }
}

// MARK: - Making tiles

extension OverlayTile {
    /// Makes a tile from premultiplied ARGB32 pixels, Cairo's `CAIRO_FORMAT_ARGB32`: one native-endian `UInt32` per
    /// pixel, alpha in the top byte, red, green, blue already multiplied by alpha.
    ///
    /// Each chroma sample is the alpha-weighted mean of its 2×2 block (pixels outside the image count as
    /// transparent), which is the premultiplied mean; its alpha is the plain mean of the four alphas.
    /// - Parameters:
    ///   - rowLength: pixels from one row to the next (Cairo's stride / 4); defaults to `width`.
    ///   - matrix: the colour matrix of the video the tile will be drawn on.
    public convenience init(
        premultipliedARGB pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int, rowLength: Int? = nil,
        matrix: ColorMatrix = .bt709
    ) {
        let planes = Self.planes(premultipliedARGB: pixels, width: width, height: height, rowLength: rowLength ?? width, matrix: matrix)
        self.init(width: width, height: height, luma: planes.luma, alpha: planes.alpha, chroma: planes.chroma)
    }

    /// Makes a tile from premultiplied ARGB32 pixels held in an array, `width` per row (see the pointer variant).
    public convenience init(premultipliedARGB pixels: [UInt32], width: Int, height: Int, matrix: ColorMatrix = .bt709) {
        let planes = pixels.withUnsafeBufferPointer {
            Self.planes(premultipliedARGB: $0, width: width, height: height, rowLength: width, matrix: matrix)
        }
        self.init(width: width, height: height, luma: planes.luma, alpha: planes.alpha, chroma: planes.chroma)
    }

    private static func planes(
        premultipliedARGB pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int, rowLength: Int, matrix: ColorMatrix
    ) -> (luma: [UInt8], alpha: [UInt8], chroma: TileChroma) {
        precondition(width > 0 && height > 0, "a tile must be at least 1×1")
        precondition(rowLength >= width && pixels.count >= rowLength * (height - 1) + width, "ARGB buffer too small")
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        var luma = [UInt8](repeating: 0, count: width * height)
        var alpha = luma
        // Premultiplied chroma summed over each 2×2 block, in 0…255 × coverage units; divided by 4 below.
        var uSums = [Double](repeating: 0, count: chromaWidth * chromaHeight)
        var vSums = uSums
        var alphaSums = [Int](repeating: 0, count: chromaWidth * chromaHeight)
        for row in 0..<height {
            for column in 0..<width {
                let pixel = pixels[row * rowLength + column]
                let a = Int(pixel >> 24)
                // Cairo guarantees colour ≤ alpha; clamp anyway so a malformed buffer cannot overflow a blend.
                let red = Double(min(a, Int(pixel >> 16) & 0xFF)) / 255
                let green = Double(min(a, Int(pixel >> 8) & 0xFF)) / 255
                let blue = Double(min(a, Int(pixel) & 0xFF)) / 255
                let converted = matrix.yuv(red: red, green: green, blue: blue, coverage: Double(a) / 255)
                luma[row * width + column] = UInt8(min(Double(a), max(0, converted.y.rounded())))
                alpha[row * width + column] = UInt8(a)
                let block = (row / 2) * chromaWidth + column / 2
                uSums[block] += converted.u
                vSums[block] += converted.v
                alphaSums[block] += a
            }
        }
        var u = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
        var v = u
        var chromaAlpha = u
        for block in 0..<u.count {
            let blockAlpha = (alphaSums[block] + 2) / 4
            chromaAlpha[block] = UInt8(blockAlpha)
            u[block] = UInt8(min(Double(blockAlpha), max(0, (uSums[block] / 4).rounded())))
            v[block] = UInt8(min(Double(blockAlpha), max(0, (vSums[block] / 4).rounded())))
        }
        return (luma, alpha, TileChroma(width: chromaWidth, height: chromaHeight, u: u, v: v, alpha: chromaAlpha))
    }

    /// Makes a tile from a decoded A420 frame (GStreamer's `A420`: I420 plus a full-resolution alpha plane).
    ///
    /// - Parameters:
    ///   - luma: Y, `width` × `height`; `alphaPlane` the same size; `u`, `v` at `(width+1)/2` × `(height+1)/2`.
    ///   - isPremultiplied: true when the decoder already multiplied colour by alpha; GStreamer's decoders and
    ///     `videoconvert` produce straight (unmultiplied) alpha, the default.
    public convenience init(a420 luma: Plane, u: Plane, v: Plane, alpha alphaPlane: Plane, isPremultiplied: Bool = false) {
        let width = luma.width
        let height = luma.height
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        precondition(alphaPlane.width == width && alphaPlane.height == height, "alpha plane must match luma")
        precondition(u.width >= chromaWidth && u.height >= chromaHeight && v.width >= chromaWidth && v.height >= chromaHeight,
                     "chroma planes too small")
        var premultipliedLuma = [UInt8](repeating: 0, count: width * height)
        var alpha = premultipliedLuma
        for row in 0..<height {
            for column in 0..<width {
                let a = Int(alphaPlane[column, row])
                let y = Int(luma[column, row])
                alpha[row * width + column] = UInt8(a)
                premultipliedLuma[row * width + column] = UInt8(isPremultiplied ? min(y, a) : divideBy255Rounded(y * a))
            }
        }
        var premultipliedU = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
        var premultipliedV = premultipliedU
        var chromaAlpha = premultipliedU
        for row in 0..<chromaHeight {
            for column in 0..<chromaWidth {
                // Mean alpha of the 2×2 block; pixels past an odd edge are outside the tile, so transparent.
                var sum = 0
                for y in (row * 2)..<min(height, row * 2 + 2) {
                    for x in (column * 2)..<min(width, column * 2 + 2) { sum += Int(alphaPlane[x, y]) }
                }
                let blockAlpha = (sum + 2) / 4
                let index = row * chromaWidth + column
                chromaAlpha[index] = UInt8(blockAlpha)
                let uValue = Int(u[column, row]), vValue = Int(v[column, row])
                premultipliedU[index] = UInt8(isPremultiplied ? min(uValue, blockAlpha) : divideBy255Rounded(uValue * blockAlpha))
                premultipliedV[index] = UInt8(isPremultiplied ? min(vValue, blockAlpha) : divideBy255Rounded(vValue * blockAlpha))
            }
        }
        self.init(
            width: width, height: height, luma: premultipliedLuma, alpha: alpha,
            chroma: TileChroma(width: chromaWidth, height: chromaHeight, u: premultipliedU, v: premultipliedV, alpha: chromaAlpha))
    }

    /// Makes a tile from a decoded AYUV frame (GStreamer's `AYUV`: 4:4:4, bytes A, Y, U, V per pixel, straight alpha).
    ///
    /// Chroma is downsampled to 4:2:0 once, here, as the alpha-weighted mean of each 2×2 block.
    public convenience init(ayuv base: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int) {
        precondition(width > 0 && height > 0 && stride >= width * 4, "bad AYUV geometry")
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        var luma = [UInt8](repeating: 0, count: width * height)
        var alpha = luma
        var uSums = [Int](repeating: 0, count: chromaWidth * chromaHeight)
        var vSums = uSums
        var alphaSums = uSums
        for row in 0..<height {
            let pixels = base + row * stride
            for column in 0..<width {
                let a = Int(pixels[column * 4])
                luma[row * width + column] = UInt8(divideBy255Rounded(Int(pixels[column * 4 + 1]) * a))
                alpha[row * width + column] = UInt8(a)
                let block = (row / 2) * chromaWidth + column / 2
                uSums[block] += Int(pixels[column * 4 + 2]) * a
                vSums[block] += Int(pixels[column * 4 + 3]) * a
                alphaSums[block] += a
            }
        }
        var u = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
        var v = u
        var chromaAlpha = u
        for block in 0..<u.count {
            chromaAlpha[block] = UInt8((alphaSums[block] + 2) / 4)
            // Σ(value × alpha) / (4 × 255), rounded: the premultiplied mean of the block.
            u[block] = UInt8((uSums[block] + 510) / 1020)
            v[block] = UInt8((vSums[block] + 510) / 1020)
        }
        self.init(
            width: width, height: height, luma: luma, alpha: alpha,
            chroma: TileChroma(width: chromaWidth, height: chromaHeight, u: u, v: v, alpha: chromaAlpha))
    }

    /// A tile of one straight (unpremultiplied) colour and alpha: backgrounds, tests.
    public convenience init(width: Int, height: Int, color: YUVColor, alpha: UInt8) {
        let a = Int(alpha)
        let chromaCount = ((width + 1) / 2) * ((height + 1) / 2)
        let luma = [UInt8](repeating: UInt8(divideBy255Rounded(Int(color.y) * a)), count: width * height)
        let alphaPlane = [UInt8](repeating: alpha, count: width * height)
        // Blocks that hang over an odd edge are partly covered; give them the coverage-weighted alpha.
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        var u = [UInt8](repeating: 0, count: chromaCount), v = u, chromaAlpha = u
        for row in 0..<chromaHeight {
            let rowsCovered = min(2, height - row * 2)
            for column in 0..<chromaWidth {
                let covered = rowsCovered * min(2, width - column * 2)
                let blockAlpha = (a * covered + 2) / 4
                let index = row * chromaWidth + column
                chromaAlpha[index] = UInt8(blockAlpha)
                u[index] = UInt8(divideBy255Rounded(Int(color.u) * blockAlpha))
                v[index] = UInt8(divideBy255Rounded(Int(color.v) * blockAlpha))
            }
        }
        self.init(
            width: width, height: height, luma: luma, alpha: alphaPlane,
            chroma: TileChroma(width: chromaWidth, height: chromaHeight, u: u, v: v, alpha: chromaAlpha))
    }
}
