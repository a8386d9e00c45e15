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
        let text = "#\(context.frameIndex) \(Self.timecode(context.pts))"
        let scale = max(1, cell / 6)
        drawText(text, x: 0, y: cell, scale: scale, on: frame)
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

    /// `HH:MM:SS.mmm` of a presentation time.
    public static func timecode(_ pts: Duration) -> String {
        let totalMilliseconds = Int(pts.milliseconds.rounded(.down))
        let milliseconds = totalMilliseconds % 1000
        let totalSeconds = totalMilliseconds / 1000
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millisecondsText = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(twoDigits(totalSeconds / 3600)):\(twoDigits(totalSeconds / 60 % 60)):\(twoDigits(totalSeconds % 60)).\(millisecondsText)"
    }

    private func drawStrip(index: Int, cell: Int, on frame: YUVPlanes) {
        let wrapped = index & ((1 << Self.stripBits) - 1)
        for bit in 0..<Self.stripBits {
            let isSet = (wrapped >> (Self.stripBits - 1 - bit)) & 1 == 1
            fillRect(x: bit * cell, y: 0, width: cell, height: cell, luma: isSet ? 235 : 16, on: frame)
        }
    }

    private func drawText(_ text: String, x originX: Int, y originY: Int, scale: Int, on frame: YUVPlanes) {
        let glyphAdvance = (PixelFont.glyphWidth + 1) * scale
        let boxWidth = text.count * glyphAdvance + scale
        let boxHeight = (PixelFont.glyphHeight + 2) * scale
        fillRect(x: originX, y: originY, width: boxWidth, height: boxHeight, luma: 16, on: frame)
        var penX = originX + scale
        for character in text {
            if let rows = PixelFont.rows(for: character) {
                for (rowIndex, bits) in rows.enumerated() {
                    for column in 0..<PixelFont.glyphWidth where (bits >> (PixelFont.glyphWidth - 1 - column)) & 1 == 1 {
                        let x = penX + column * scale
                        let y = originY + scale + rowIndex * scale
                        fillLuma(x: x, y: y, width: scale, height: scale, value: 235, on: frame)
                    }
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

/// A 5×7 bitmap font for digits and the few symbols of a timecode: each glyph is seven rows of five bits.
enum PixelFont {
    static let glyphWidth = 5
    static let glyphHeight = 7

    static func rows(for character: Character) -> [UInt8]? {
        switch character {
        case "0": [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110]
        case "1": [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110]
        case "2": [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111]
        case "3": [0b11110, 0b00001, 0b00001, 0b01110, 0b00001, 0b00001, 0b11110]
        case "4": [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010]
        case "5": [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110]
        case "6": [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110]
        case "7": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000]
        case "8": [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110]
        case "9": [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100]
        case ":": [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b01100, 0b00000]
        case ".": [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b01100]
        case "#": [0b01010, 0b01010, 0b11111, 0b01010, 0b11111, 0b01010, 0b01010]
        case " ": [0, 0, 0, 0, 0, 0, 0]
        default: nil
        }
    }
}
