import StreamLensCore

/// Burns the frame index and presentation time into each frame, plus a machine-readable strip.
///
/// The strip is a row of 16 black/white cells across the top-left corner holding the frame index in binary (most
/// significant bit first). Cells are large and saturated so the index survives lossy encoding: a test, or
/// ``readFrameIndex(from:)``, re-decodes an output file and checks that every frame arrived once and in order.
/// Below it a text line shows `#INDEX HH:MM:SS.mmm` in a built-in 5×7 pixel font, drawn in luma only on a
/// neutral-grey box so it needs no colour conversion.
public final class FrameStampStage: CompositingStage {
    public let name = "frame-stamp"
    /// Bits in the strip: indices wrap at 65 536.
    public static let stripBits = 16

    public init() {}

    public func composite(onto frame: YUVPlanes, context: CompositeContext) {
        let cell = Self.cellSize(frameWidth: frame.width, frameHeight: frame.height)
        drawStrip(index: context.frameIndex, cell: cell, on: frame)
        let scale = max(1, cell / 6)
        // "#INDEX HH:MM:SS.mmm" composed on the stack: no per-frame allocation.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { text in
            let count = Self.writeLabel(index: context.frameIndex, pts: context.pts, into: text)
            drawText(UnsafeBufferPointer(rebasing: text[..<count]), x: 0, y: cell, scale: scale, on: frame)
        }
    }

    /// Cell edge in pixels: even (so chroma cells align), at most 16, small enough for 16 cells to fit.
    public static func cellSize(frameWidth: Int, frameHeight: Int) -> Int {
        let fitting = min(frameWidth / stripBits, frameHeight / 4)
        return max(2, min(16, fitting) & ~1)
    }

    /// Reads back the index written by the strip, or nil when a cell is ambiguous (mid-grey).
    public static func readFrameIndex(from frame: YUVPlanes) -> Int? {
        let cell = cellSize(frameWidth: frame.width, frameHeight: frame.height)
        var index = 0
        for bit in 0..<stripBits {
            // Sample the middle half of the cell, away from edges that compression blurs.
            var sum = 0
            var count = 0
            for y in (cell / 4)..<(cell * 3 / 4) {
                for x in (bit * cell + cell / 4)..<(bit * cell + cell * 3 / 4) {
                    sum += Int(frame.y[x, y])
                    count += 1
                }
            }
            let mean = sum / max(1, count)
            if mean > 160 {
                index |= 1 << (stripBits - 1 - bit)
            } else if mean > 90 {
                return nil
            }
        }
        return index
    }

    /// Writes `#INDEX HH:MM:SS.mmm` as ASCII into `buffer` (at least 32 bytes); returns the length.
    static func writeLabel(index: Int, pts: Duration, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var length = 0
        func put(_ byte: UInt8) {
            buffer[length] = byte
            length += 1
        }
        func putNumber(_ value: Int, digits minimum: Int) {
            var divisor = 1
            var width = 1
            while divisor <= value / 10 || width < minimum {
                divisor *= 10
                width += 1
            }
            while divisor > 0 {
                put(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        let totalMilliseconds = max(0, Int(pts.nanoseconds / 1_000_000))
        let totalSeconds = totalMilliseconds / 1000
        put(UInt8(ascii: "#"))
        putNumber(max(0, index) % 1_000_000_000, digits: 1)
        put(UInt8(ascii: " "))
        putNumber(totalSeconds / 3600 % 100, digits: 2)
        put(UInt8(ascii: ":"))
        putNumber(totalSeconds / 60 % 60, digits: 2)
        put(UInt8(ascii: ":"))
        putNumber(totalSeconds % 60, digits: 2)
        put(UInt8(ascii: "."))
        putNumber(totalMilliseconds % 1000, digits: 3)
        return length
    }

    private func drawStrip(index: Int, cell: Int, on frame: YUVPlanes) {
        let wrapped = index & ((1 << Self.stripBits) - 1)
        for bit in 0..<Self.stripBits {
            let isSet = (wrapped >> (Self.stripBits - 1 - bit)) & 1 == 1
            fillRect(x: bit * cell, y: 0, width: cell, height: cell, luma: isSet ? 235 : 16, on: frame)
        }
    }

    private func drawText(_ text: UnsafeBufferPointer<UInt8>, x originX: Int, y originY: Int, scale: Int, on frame: YUVPlanes) {
        let glyphAdvance = (PixelFont.glyphWidth + 1) * scale
        let boxWidth = text.count * glyphAdvance + scale
        let boxHeight = (PixelFont.glyphHeight + 2) * scale
        fillRect(x: originX, y: originY, width: boxWidth, height: boxHeight, luma: 16, on: frame)
        var penX = originX + scale
        for character in text {
            let glyph = PixelFont.glyph(for: character)
            for row in 0..<PixelFont.glyphHeight {
                let bits = PixelFont.row(row, of: glyph)
                for column in 0..<PixelFont.glyphWidth where (bits >> (PixelFont.glyphWidth - 1 - column)) & 1 == 1 {
                    let x = penX + column * scale
                    let y = originY + scale + row * scale
                    fillLuma(x: x, y: y, width: scale, height: scale, value: 235, on: frame)
                }
            }
            penX += glyphAdvance
        }
    }

    /// Fills a rectangle with a grey level: luma `luma`, neutral chroma. Clipped to the frame.
    private func fillRect(x: Int, y: Int, width: Int, height: Int, luma: UInt8, on frame: YUVPlanes) {
        fillLuma(x: x, y: y, width: width, height: height, value: luma, on: frame)
        let chromaX0 = max(0, x / 2), chromaY0 = max(0, y / 2)
        let chromaX1 = min(frame.u.width, (x + width + 1) / 2), chromaY1 = min(frame.u.height, (y + height + 1) / 2)
        guard chromaX0 < chromaX1, chromaY0 < chromaY1 else { return }
        for row in chromaY0..<chromaY1 {
            for column in chromaX0..<chromaX1 {
                frame.u[column, row] = 128
                frame.v[column, row] = 128
            }
        }
    }

    private func fillLuma(x: Int, y: Int, width: Int, height: Int, value: UInt8, on frame: YUVPlanes) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(frame.width, x + width), y1 = min(frame.height, y + height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            (frame.y.row(row) + x0).update(repeating: value, count: x1 - x0)
        }
    }
}

/// A 5×7 bitmap font for digits and the few symbols of a timecode. Each glyph is seven rows of five bits packed
/// into one integer, first row in the highest bits, so drawing allocates nothing.
enum PixelFont {
    static let glyphWidth = 5
    static let glyphHeight = 7

    /// Packs seven 5-bit rows.
    private static func pack(_ rows: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) -> UInt64 {
        rows.0 << 30 | rows.1 << 25 | rows.2 << 20 | rows.3 << 15 | rows.4 << 10 | rows.5 << 5 | rows.6
    }

    private static let digits: [UInt64] = [
        pack((0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110)),  // 0
        pack((0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110)),  // 1
        pack((0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111)),  // 2
        pack((0b11110, 0b00001, 0b00001, 0b01110, 0b00001, 0b00001, 0b11110)),  // 3
        pack((0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010)),  // 4
        pack((0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110)),  // 5
        pack((0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110)),  // 6
        pack((0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000)),  // 7
        pack((0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110)),  // 8
        pack((0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100)),  // 9
    ]
    private static let colon = pack((0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b01100, 0b00000))
    private static let period = pack((0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b01100))
    private static let hash = pack((0b01010, 0b01010, 0b11111, 0b01010, 0b11111, 0b01010, 0b01010))

    /// The packed glyph of an ASCII character; blank for characters the font lacks.
    static func glyph(for character: UInt8) -> UInt64 {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digits[Int(character - UInt8(ascii: "0"))]
        case UInt8(ascii: ":"): colon
        case UInt8(ascii: "."): period
        case UInt8(ascii: "#"): hash
        default: 0
        }
    }

    /// Row `row` (0 = top) of a packed glyph, as five bits.
    static func row(_ row: Int, of glyph: UInt64) -> UInt64 {
        (glyph >> UInt64(5 * (glyphHeight - 1 - row))) & 0b11111
    }
}
