import Testing

@testable import StreamLensSigns

/// The paper level is a grey-level closing over the rows asked for, unusable samples counting as black: OpenCV's
/// filters must give exactly what the definition gives, window by window.
struct IlluminationFlattenerTests {
    /// The definition: the maximum over the window (cut at the picture's and the rows' edges) of the usable samples,
    /// then the minimum of those maxima over the same window.
    private func closing(_ luma: [UInt8], usable: [Bool], width: Int, rows: Range<Int>, radius: Int) -> [UInt8] {
        func filtered(_ values: [UInt8], usable: [Bool]?, keep: (UInt8, UInt8) -> UInt8, start: UInt8) -> [UInt8] {
            var result = values
            for y in rows {
                for x in 0..<width {
                    var level = start
                    for row in max(rows.lowerBound, y - radius)...min(rows.upperBound - 1, y + radius) {
                        for column in max(0, x - radius)...min(width - 1, x + radius) {
                            let index = row * width + column
                            level = keep(level, usable?[index] == false ? 0 : values[index])
                        }
                    }
                    result[y * width + x] = level
                }
            }
            return result
        }
        let dilated = filtered(luma, usable: usable, keep: max, start: 0)
        return filtered(dilated, usable: nil, keep: min, start: 255)
    }

    @Test func thePaperLevelIsTheClosingOfTheUsableSamplesInTheRowsAsked() {
        for (width, height, radius) in [(96, 96, 6), (37, 23, 3), (5, 4, 4)] {
            var flattener = IlluminationFlattener(width: width, height: height, radius: radius)
            // Dark strokes on paper under a shadow, with noise; one sample in ten or so unusable.
            let luma = (0..<width * height).map { index -> UInt8 in
                let (x, y) = (index % width, index / width)
                let paper = x < width / 2 ? 200 : 120
                let stroke = (x / 3 + y / 5) % 4 == 0 ? 90 : 0
                return UInt8(clamping: paper - stroke + Int(scrambled(index) % 41) - 20)
            }
            let usable = (0..<width * height).map { scrambled($0 &+ 1_000_003) % 10 > 0 }
            for rows in [0..<height, (height / 3)..<height, 1..<2] {
                flattener.estimatePaper(luma, usable: usable, rows: rows)
                let expected = closing(luma, usable: usable, width: width, rows: rows, radius: radius)
                let covered = rows.lowerBound * width..<rows.upperBound * width
                #expect(
                    Array(flattener.paper[covered]) == Array(expected[covered]),
                    "\(width) × \(height), radius \(radius), rows \(rows)")
            }
        }
    }
}
