/// Whether a glyph's ink has the shape of a "0", from where its ink lies in its box (no OCR).
///
/// Every European limit of two or three digits ends in "0", and the "0" is what soft real photos lose: Tesseract
/// reads a blurred or broken "0" as 9, 2 or 3 ("59", "72", "73"), so the whole read is not a speed. Its shape is still
/// plain: ink down both sides (upper and lower half), across the top and the bottom, and an empty middle. The digits
/// it is confused with fail at least one of these: 9 and 6 leave one side of one half empty, 2, 3, 5 and 7 a side of
/// their left or right half, 8 and 4 put ink in the middle. A "0" broken into two C halves (soft photos do that)
/// still passes, since only where the ink lies is checked, not whether it is closed.
enum ZeroShape {
    /// Share of the box that must be ink in each side zone; the middle zone must stay under ``middleInkShare``.
    static let sideInkShare = 0.15
    static let middleInkShare = 0.1
    /// Widths over heights a road-font "0" has (narrower is a 1, wider is touching digits).
    static let aspect: ClosedRange<Double> = 0.35...0.95

    /// `isInk(x, y)` for `x` in `0..<width`, `y` in `0..<height`: the glyph's box.
    static func matches(width: Int, height: Int, isInk: (Int, Int) -> Bool) -> Bool {
        guard height >= 8, width >= 3, aspect.contains(Double(width) / Double(height)) else { return false }
        func share(_ zone: Zone) -> Double {
            var ink = 0
            var total = 0
            for y in 0..<height {
                let v = (Double(y) + 0.5) / Double(height)
                guard zone.rows.contains(v) else { continue }
                for x in 0..<width {
                    let u = (Double(x) + 0.5) / Double(width)
                    guard zone.columns.contains(u) else { continue }
                    total += 1
                    if isInk(x, y) { ink += 1 }
                }
            }
            return total == 0 ? 0 : Double(ink) / Double(total)
        }
        for side in sides where share(side) < sideInkShare { return false }
        return share(middle) < middleInkShare
    }

    /// A part of the glyph's box, in shares of its width and height.
    private struct Zone {
        var columns: ClosedRange<Double>
        var rows: ClosedRange<Double>
    }

    /// Where a "0" has ink: both sides of both halves, the top and the bottom (made once, not per glyph).
    private static let sides = [
        Zone(columns: 0...0.3, rows: 0.2...0.5), Zone(columns: 0...0.3, rows: 0.5...0.8),
        Zone(columns: 0.7...1, rows: 0.2...0.5), Zone(columns: 0.7...1, rows: 0.5...0.8),
        Zone(columns: 0.3...0.7, rows: 0...0.25), Zone(columns: 0.3...0.7, rows: 0.75...1),
    ]
    /// Where a "0" has none.
    private static let middle = Zone(columns: 0.3...0.7, rows: 0.3...0.7)
}
