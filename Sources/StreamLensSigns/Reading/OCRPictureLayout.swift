/// Where the digits go in the picture Tesseract reads: each digit's box plus one sample of edge, side by side on
/// white, with gaps of a fifth of the digit height and a margin of a third (Tesseract reads isolated glyphs with
/// margins best). Shared by both croppers, which differ only in which samples they copy.
struct OCRPictureLayout {
    /// Canvas rows copied: the digits' band plus one row of edge, inside `rows`.
    let sourceRows: ClosedRange<Int>
    let margin: Int
    let gap: Int
    let width: Int
    let height: Int
    private let canvasWidth: Int

    /// `digits` (at least one) are blobs of a canvas `canvasWidth` samples wide; `rows` bounds the rows that may be
    /// copied.
    init(digits: [(blob: MaskComponent, label: Int32)], canvasWidth: Int, rows: ClosedRange<Int>) {
        var top = rows.upperBound
        var bottom = rows.lowerBound
        for digit in digits {
            top = min(top, digit.blob.minY)
            bottom = max(bottom, digit.blob.maxY)
        }
        sourceRows = max(rows.lowerBound, top - 1)...min(rows.upperBound, bottom + 1)
        self.canvasWidth = canvasWidth
        margin = max(6, sourceRows.count / 3)
        gap = max(3, sourceRows.count / 5)
        var width = 2 * margin + gap * (digits.count - 1)
        for digit in digits { width += min(canvasWidth - 1, digit.blob.maxX + 1) - max(0, digit.blob.minX - 1) + 1 }
        self.width = width
        height = sourceRows.count + 2 * margin
    }

    /// Canvas columns copied for `blob`: its box plus one column of edge.
    func sourceColumns(of blob: MaskComponent) -> ClosedRange<Int> {
        max(0, blob.minX - 1)...min(canvasWidth - 1, blob.maxX + 1)
    }
}
