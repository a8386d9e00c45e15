/// The part of one tile row worth visiting: columns `start..<end` hold every non-zero alpha of the row.
///
/// Logos and text are mostly transparent margin; skipping it is the cheapest blend. `isOpaque` says every alpha in
/// the span is 255, so the span can be copied instead of blended.
struct TileRowSpan: Sendable, Equatable {
    var start: Int
    var end: Int
    var isOpaque: Bool

    /// Spans of each row of a `width` × `height` alpha plane stored row after row.
    static func spans(ofAlpha alpha: [UInt8], width: Int, height: Int) -> [TileRowSpan] {
        var spans: [TileRowSpan] = []
        spans.reserveCapacity(height)
        alpha.withUnsafeBufferPointer { samples in
            for row in 0..<height {
                let rowStart = row * width
                var start = 0
                while start < width && samples[rowStart + start] == 0 { start += 1 }
                if start == width {
                    spans.append(TileRowSpan(start: 0, end: 0, isOpaque: false))
                    continue
                }
                var end = width
                while end > start && samples[rowStart + end - 1] == 0 { end -= 1 }
                var isOpaque = start < end
                var column = start
                while isOpaque && column < end {
                    isOpaque = samples[rowStart + column] == 255
                    column += 1
                }
                spans.append(TileRowSpan(start: start, end: end, isOpaque: isOpaque))
            }
        }
        return spans
    }
}
