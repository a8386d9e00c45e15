internal import COpenCVSigns

/// Divides a small canvas's luma by its local paper level, so that a shadow across half a sign does not turn into ink.
///
/// The paper level is a grey-level closing: a maximum filter, then a minimum filter, each over ``radius`` samples in
/// every direction (rows, then columns). It erases dark strokes narrower than the window and keeps larger steps —
/// a shadow's edge — in place. Samples that are not usable (a ring's red, outside a disc) count as black in the
/// maximum filter and are divided like the rest.
///
/// ## Thread Safety
/// Not synchronized: keeps its scratch buffers between calls. One per cropper.
struct IlluminationFlattener {
    let width: Int
    let height: Int
    /// Half-width of the window: wider than half a digit stroke.
    let radius: Int
    /// The paper level of the last ``estimatePaper(_:usable:rows:)``, row-major (rows it did not cover keep older
    /// values).
    private(set) var paper: [UInt8]
    private var scratch: [UInt8]

    init(width: Int, height: Int, radius: Int) {
        self.width = width
        self.height = height
        self.radius = radius
        paper = [UInt8](repeating: 0, count: width * height)
        scratch = [UInt8](repeating: 0, count: width * height)
    }

    /// Flattens `luma` (`width` × `height`, row-major) in place; `usable` (same shape) marks the samples that may be
    /// paper.
    mutating func flatten(_ luma: inout [UInt8], usable: [Bool]) {
        estimatePaper(luma, usable: usable, rows: 0..<height)
        divideByPaper(&luma, rows: 0..<height)
    }

    /// Brightest over darkest paper level in `rows` after ``estimatePaper(_:usable:rows:)`` (of those rows or more):
    /// about 1 under even light, 1.7–2.5 across a shadow's edge.
    func paperContrast(rows: Range<Int>) -> Double {
        var darkest: UInt8 = 255
        var brightest: UInt8 = 0
        for index in rows.lowerBound * width..<rows.upperBound * width {
            darkest = min(darkest, paper[index])
            brightest = max(brightest, paper[index])
        }
        return Double(brightest) / Double(max(8, darkest))
    }

    /// Estimates the local paper level of `luma` (the closing) in `rows`, from those rows alone, for
    /// ``paperContrast(rows:)`` and ``divideByPaper(_:rows:)``. The closing is OpenCV's (`slcv_grey_closing`), on the
    /// rows with their unusable samples made black.
    mutating func estimatePaper(_ luma: [UInt8], usable: [Bool], rows: Range<Int>) {
        guard !rows.isEmpty else { return }
        let samples = rows.lowerBound * width..<rows.upperBound * width
        for index in samples { scratch[index] = usable[index] ? luma[index] : 0 }
        let (columns, window) = (Int32(width), Int32(radius))
        let status = scratch.withUnsafeBufferPointer { source in
            paper.withUnsafeMutableBufferPointer { destination in
                slcv_grey_closing(
                    source.baseAddress! + samples.lowerBound, destination.baseAddress! + samples.lowerBound, columns,
                    Int32(rows.count), window, nil, 0)
            }
        }
        // OpenCV fails here only when out of memory: white paper leaves the rows as they are.
        if status != SLCV_OK { for index in samples { paper[index] = 255 } }
    }

    /// Divides `luma` in `rows` by the paper level of the last ``estimatePaper(_:usable:rows:)``.
    func divideByPaper(_ luma: inout [UInt8], rows: Range<Int>) {
        for index in rows.lowerBound * width..<rows.upperBound * width {
            let divisor = Double(max(8, paper[index]))
            luma[index] = UInt8(min(255, (Double(luma[index]) * 255 / divisor).rounded()))
        }
    }
}
