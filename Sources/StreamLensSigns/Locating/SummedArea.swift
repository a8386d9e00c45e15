import StreamLensCore

/// A summed-area table of one plane: the sum over any box in four lookups, for local means at many sizes.
///
/// Built from a plane sampled every `step` samples (a luma plane sampled at chroma resolution is `step` 2), with
/// `bias` subtracted from every sample (128 for chroma: sums of V − 128 stay small and signed). Keeps its table
/// between builds: no allocation once the frame size is steady.
struct SummedArea {
    /// Size of the sampled grid.
    private(set) var width = 0
    private(set) var height = 0
    /// (width + 1) × (height + 1) running sums; row 0 and column 0 are zero.
    private var sums: [Int32] = []

    /// Sums `plane` sampled every `step` samples into a `width` × `height` grid (sample (x, y) of the grid is the
    /// plane's (step·x, step·y)).
    ///
    /// Running sums use wrapping arithmetic (no overflow check per sample, which kept the loop scalar): the
    /// precondition bounds every sum of the grid, so none can wrap.
    mutating func build(from plane: Plane, width: Int, height: Int, step: Int = 1, bias: Int32 = 0) {
        precondition((width - 1) * step < plane.width && (height - 1) * step < plane.height, "grid outside the plane")
        let largestSample = max(abs(Int(bias)), abs(255 - Int(bias)))
        precondition(width * height * largestSample <= Int(Int32.max), "grid too large for 32-bit sums")
        self.width = width
        self.height = height
        let stride = width + 1
        if sums.count < stride * (height + 1) { sums = [Int32](repeating: 0, count: stride * (height + 1)) }
        sums.withUnsafeMutableBufferPointer { buffer in
            let sums = buffer.baseAddress!
            sums.update(repeating: 0, count: stride)
            let sampleStep = step * plane.pixelStride
            // Two rows at a time: their running sums are two independent chains of additions, which the processor
            // overlaps (one row's chain alone waits on each addition).
            var y = 0
            while y < height {
                let row = plane.row(y * step)
                // Column 0 of each row is zero; `above` and `current` start at column 1.
                let above = UnsafePointer(sums + y * stride + 1)
                let current = sums + (y + 1) * stride + 1
                current[-1] = 0
                if y + 1 < height {
                    let nextRow = plane.row((y + 1) * step)
                    let next = current + stride
                    next[-1] = 0
                    if sampleStep == 1 {
                        Self.sumRows(
                            row, nextRow, sampleStep: 1, width: width, bias: bias, above: above, into: current, next)
                    } else {
                        Self.sumRows(
                            row, nextRow, sampleStep: sampleStep, width: width, bias: bias, above: above,
                            into: current, next)
                    }
                    y += 2
                } else {
                    Self.sumRow(row, sampleStep: sampleStep, width: width, bias: bias, above: above, into: current)
                    y += 1
                }
            }
        }
    }

    /// Two rows of the table: each row's running sum plus the table row above it. Inlined twice so the common
    /// `sampleStep` 1 reads the rows with unit stride.
    @inline(__always)
    private static func sumRows(
        _ row: UnsafeMutablePointer<UInt8>, _ nextRow: UnsafeMutablePointer<UInt8>, sampleStep: Int, width: Int,
        bias: Int32, above: UnsafePointer<Int32>, into current: UnsafeMutablePointer<Int32>,
        _ next: UnsafeMutablePointer<Int32>
    ) {
        var rowSum: Int32 = 0
        var nextSum: Int32 = 0
        for x in 0..<width {
            rowSum &+= Int32(row[x * sampleStep]) &- bias
            nextSum &+= Int32(nextRow[x * sampleStep]) &- bias
            let sum = above[x] &+ rowSum
            current[x] = sum
            next[x] = sum &+ nextSum
        }
    }

    /// One row of the table: the row's running sum plus the table row above (the last row of an odd height).
    private static func sumRow(
        _ row: UnsafeMutablePointer<UInt8>, sampleStep: Int, width: Int, bias: Int32, above: UnsafePointer<Int32>,
        into current: UnsafeMutablePointer<Int32>
    ) {
        var rowSum: Int32 = 0
        for x in 0..<width {
            rowSum &+= Int32(row[x * sampleStep]) &- bias
            current[x] = above[x] &+ rowSum
        }
    }

    /// Sum over columns `left..<right` and rows `top..<bottom` (clamped to the grid).
    @inline(__always)
    func sum(left: Int, top: Int, right: Int, bottom: Int) -> Int {
        let left = max(0, left)
        let top = max(0, top)
        let right = min(width, right)
        let bottom = min(height, bottom)
        guard right > left, bottom > top else { return 0 }
        let stride = width + 1
        return sums.withUnsafeBufferPointer { sums in
            Int(sums[bottom * stride + right]) - Int(sums[top * stride + right]) - Int(sums[bottom * stride + left])
                + Int(sums[top * stride + left])
        }
    }

    /// Calls `body` with the table (row `y` of sums starts at `y × (width + 1)`) and its row stride, for loops that
    /// precompute corner offsets and stay inside the grid.
    func withUnsafeSums<Result>(_ body: (UnsafePointer<Int32>, Int) -> Result) -> Result {
        sums.withUnsafeBufferPointer { body($0.baseAddress!, width + 1) }
    }

    /// Mean over the box (clamped to the grid), or 0 when it is empty.
    @inline(__always)
    func mean(left: Int, top: Int, right: Int, bottom: Int) -> Int {
        let area = (min(width, right) - max(0, left)) * (min(height, bottom) - max(0, top))
        guard area > 0 else { return 0 }
        return sum(left: left, top: top, right: right, bottom: bottom) / area
    }
}
