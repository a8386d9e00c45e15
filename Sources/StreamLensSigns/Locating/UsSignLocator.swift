import StreamLensCore

/// Finds white upright rectangles — US "SPEED LIMIT" signs (R2-1: a white plate about 0.8 as wide as high inside a
/// thin black border) — in a frame's native planes.
///
/// Works on a grid of luma samples with the chroma planes beside them (no colour conversion):
/// 1. Frames wider than ``fullResolutionMaximumWidth`` are searched at chroma resolution (luma averaged over each
///    2 × 2 block: a quarter of the pixels, and a 1080p sign's border is still a sample or two wide); smaller frames
///    at full resolution, where a blurred border would vanish in the averaging.
/// 2. Paper mask: a block is paper when its chroma is near neutral (white, grey in shade, slightly tinted by warm or
///    cool light) and its luma is ``minimumLocalBrightness`` above the scene's mean around it (a summed-area table
///    over ``localWindowRadius``): a plate is bright relative to its surroundings even when dim, and its own dark
///    letters keep the local mean below the paper even when the sign fills the window. Samples in a thin dark line
///    (``minimumValleyDepth``) are not paper, so the border separates the plate from a bright background even
///    when blur has washed it out.
/// 3. 4-connected regions of paper (``ComponentLabeler`` without diagonals) are the candidates. The black border cuts
///    the plate off from a bright sky behind it, so a plate is a region of its own: upright, ``aspectRange`` wide for
///    its height, its box mostly paper (letters leave holes, ``fillRange``), and — the rectangle test — paper spans
///    most of the width in most of its rows (``minimumRowSpan``): the margins beside the letters are paper, while
///    blobs, cars and windows narrow or break up. Thin strips of paper that leak out through a border broken by blur
///    are trimmed off the box first.
///
/// Whether the lower part holds a number is checked later, on luma, by ``UsDigitCropper``.
///
/// ## Thread Safety
/// Not synchronized: keeps scratch buffers between calls. Use one locator per analysis thread.
struct UsSignLocator {
    /// Largest |U − 128| and |V − 128| of paper: white under warm or cool light drifts by up to about 25.
    var maximumChroma = 30
    /// How much brighter than the scene's local mean paper must be, in luma levels.
    var minimumLocalBrightness = 10
    /// A sample this much darker than the brightest sample within three on both sides (across or down) lies on a thin
    /// dark line — a border or a stroke — and is not paper.
    var minimumValleyDepth = 12
    /// Darkest paper: below this even a white plate carries no readable contrast.
    var minimumPaperLuma = 70
    /// Half-size of the window for the scene's mean luma, in chroma samples (twice that in pixels at full resolution).
    var localWindowRadius = 12
    /// Smallest plate height in luma pixels (a 24 px sign has a plate about 22 px high).
    var minimumPlateHeight = 20.0
    /// Largest plate height as a share of the frame height.
    var maximumPlateHeightShare = 0.9
    /// Plate width over height: 0.8 upright, down to about 0.55 when seen at an angle, up to about 0.9 when tilted.
    var aspectRange = 0.5...0.95
    /// Share of the plate's box that is paper: letters and numerals take about a quarter.
    var fillRange = 0.35...0.95
    /// Share of the component's samples beyond which each side of its box is trimmed (leaks through the border).
    var trimShare = 0.02
    /// The rectangle test: at least ``minimumSpanningRows`` of the middle rows hold paper across this share of the
    /// plate's width.
    var minimumRowSpan = 0.8
    var minimumSpanningRows = 0.8
    /// Frames up to this wide are searched at full luma resolution, wider ones at chroma resolution (2 × 2 means).
    var fullResolutionMaximumWidth = 960
    /// At most this many candidates per frame (the largest first) go on to OCR.
    var maximumCandidates = 6

    private var luma: [UInt8] = []
    private var mask: [UInt8] = []
    private var lumaIntegral: [Int32] = []
    private var labeler = ComponentLabeler()
    private var columnCounts: [Int] = []
    private var rowCounts: [Int] = []
    /// Candidates of the last ``locate(in:)``, largest first.
    private(set) var candidates: [RectangularSignCandidate] = []

    /// Finds the plates in `planes` and stores them in ``candidates``.
    mutating func locate(in planes: YUVPlanes) {
        candidates.removeAll(keepingCapacity: true)
        // Small frames are searched at full resolution: there a sign's border is only a pixel or two wide.
        let factor = planes.width <= fullResolutionMaximumWidth ? 1 : 2
        let width = factor == 1 ? planes.width : planes.v.width
        let height = factor == 1 ? planes.height : planes.v.height
        guard width > 8, height > 8 else { return }
        buildPaperMask(planes: planes, width: width, height: height, factor: factor)
        let minimumHeight = minimumPlateHeight / Double(factor)
        mask.withUnsafeBufferPointer { mask in
            labeler.label(
                mask: mask, width: width, height: height, joinsDiagonals: false,
                minimumPixels: Int(minimumHeight * minimumHeight * aspectRange.lowerBound * fillRange.lowerBound))
        }
        let maximumHeight = Double(height) * maximumPlateHeightShare
        for (index, component) in labeler.components.enumerated() {
            guard Double(component.height) >= minimumHeight,
                Double(component.width) >= minimumHeight * aspectRange.lowerBound
            else { continue }
            let plate = trimmedBounds(of: component, label: Int32(index + 1), width: width)
            let plateWidth = Double(plate.width)
            let plateHeight = Double(plate.height)
            let paperShare = Double(paperCount(in: plate, label: Int32(index + 1), width: width)) / (plateWidth * plateHeight)
            guard plateHeight >= minimumHeight, plateHeight <= maximumHeight,
                aspectRange.contains(plateWidth / plateHeight),
                fillRange.contains(paperShare),
                rowsSpanThePlate(plate, of: component, label: Int32(index + 1), width: width)
            else { continue }
            // At half resolution sample i covers luma pixels 2i and 2i + 1.
            let scale = Double(factor)
            candidates.append(RectangularSignCandidate(
                plate: BoundingBox(
                    x: scale * Double(plate.minX), y: scale * Double(plate.minY), width: scale * plateWidth,
                    height: scale * plateHeight),
                paperLevel: paperLevel(of: plate, width: width)))
        }
        candidates.sort { $0.plate.height > $1.plate.height }
        if candidates.count > maximumCandidates { candidates.removeLast(candidates.count - maximumCandidates) }
    }

    /// Paper where chroma is near neutral and luma (the 2 × 2 mean when `factor` is 2) is bright, and brighter than
    /// the scene around it.
    private mutating func buildPaperMask(planes: YUVPlanes, width: Int, height: Int, factor: Int) {
        if mask.count < width * height {
            mask = [UInt8](repeating: 0, count: width * height)
            luma = [UInt8](repeating: 0, count: width * height)
            lumaIntegral = [Int32](repeating: 0, count: (width + 1) * (height + 1))
        }
        let lastColumn = planes.y.width - 1
        let lastRow = planes.y.height - 1
        let stride = width + 1
        luma.withUnsafeMutableBufferPointer { luma in
            lumaIntegral.withUnsafeMutableBufferPointer { sums in
                for y in 0..<height {
                    let top = planes.y.row(min(factor * y, lastRow))
                    let bottom = planes.y.row(min(factor * y + factor - 1, lastRow))
                    let step = planes.y.pixelStride
                    var rowSum: Int32 = 0
                    for x in 0..<width {
                        // (No min/max in these per-pixel loops: unoptimized builds call them through generics.)
                        let mean: Int
                        if factor == 1 {
                            mean = Int(top[x * step])
                        } else {
                            let left = (2 * x < lastColumn ? 2 * x : lastColumn) * step
                            let right = (2 * x + 1 < lastColumn ? 2 * x + 1 : lastColumn) * step
                            mean = (Int(top[left]) + Int(top[right]) + Int(bottom[left]) + Int(bottom[right]) + 2) / 4
                        }
                        luma[y * width + x] = UInt8(mean)
                        rowSum += Int32(mean)
                        sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + rowSum
                    }
                }
            }
        }
        let radius = localWindowRadius * 2 / factor
        let chromaLimit = maximumChroma
        let margin = minimumLocalBrightness
        let darkest = minimumPaperLuma
        let valleyDepth = minimumValleyDepth
        mask.withUnsafeMutableBufferPointer { mask in
            luma.withUnsafeBufferPointer { luma in
                lumaIntegral.withUnsafeBufferPointer { sums in
                    func lumaAt(_ column: Int, _ row: Int) -> Int {
                        let x = column < 0 ? 0 : column >= width ? width - 1 : column
                        let y = row < 0 ? 0 : row >= height ? height - 1 : row
                        return Int(luma[y * width + x])
                    }
                    func peak(_ a: Int, _ b: Int, _ c: Int) -> Int {
                        let ab = a > b ? a : b
                        return ab > c ? ab : c
                    }
                    for y in 0..<height {
                        let vRow = planes.v.row(y * factor / 2)
                        let uRow = planes.u.row(y * factor / 2)
                        let vStep = planes.v.pixelStride
                        let uStep = planes.u.pixelStride
                        let top = y - radius > 0 ? y - radius : 0
                        let bottom = y + radius + 1 < height ? y + radius + 1 : height
                        for x in 0..<width {
                            let index = y * width + x
                            let level = Int(luma[index])
                            let chromaX = x * factor / 2
                            guard level >= darkest, abs(Int(vRow[chromaX * vStep]) - 128) <= chromaLimit,
                                abs(Int(uRow[chromaX * uStep]) - 128) <= chromaLimit
                            else {
                                mask[index] = 0
                                continue
                            }
                            let left = x - radius > 0 ? x - radius : 0
                            let right = x + radius + 1 < width ? x + radius + 1 : width
                            let sum = Int(sums[bottom * stride + right]) - Int(sums[top * stride + right])
                                - Int(sums[bottom * stride + left]) + Int(sums[top * stride + left])
                            let mean = sum / ((bottom - top) * (right - left))
                            guard level - mean >= margin else {
                                mask[index] = 0
                                continue
                            }
                            // A thin dark line (the border, however blurred) is never paper: it must cut the plate
                            // off from a bright background even where the mean says bright. (Checked last: few
                            // samples get this far.)
                            let leftPeak = peak(lumaAt(x - 1, y), lumaAt(x - 2, y), lumaAt(x - 3, y))
                            let rightPeak = peak(lumaAt(x + 1, y), lumaAt(x + 2, y), lumaAt(x + 3, y))
                            let upPeak = peak(lumaAt(x, y - 1), lumaAt(x, y - 2), lumaAt(x, y - 3))
                            let downPeak = peak(lumaAt(x, y + 1), lumaAt(x, y + 2), lumaAt(x, y + 3))
                            let isValley = (leftPeak < rightPeak ? leftPeak : rightPeak) - level >= valleyDepth
                                || (upPeak < downPeak ? upPeak : downPeak) - level >= valleyDepth
                            mask[index] = isValley ? 0 : 1
                        }
                    }
                }
            }
        }
    }

    /// The component's box without thin strips that leak out of it (paper beyond a border broken by blur or a
    /// slanted edge): each side moves in past the outermost ``trimShare`` of the component's samples.
    private mutating func trimmedBounds(of component: MaskComponent, label: Int32, width: Int) -> MaskComponent {
        columnCounts.removeAll(keepingCapacity: true)
        columnCounts.append(contentsOf: repeatElement(0, count: component.width))
        rowCounts.removeAll(keepingCapacity: true)
        rowCounts.append(contentsOf: repeatElement(0, count: component.height))
        labeler.labels.withUnsafeBufferPointer { labels in
            for y in component.minY...component.maxY {
                for x in component.minX...component.maxX where labels[y * width + x] == label {
                    columnCounts[x - component.minX] += 1
                    rowCounts[y - component.minY] += 1
                }
            }
        }
        let cut = Int(Double(component.pixelCount) * trimShare)
        func inner(_ counts: [Int]) -> (first: Int, last: Int) {
            var first = 0
            var running = 0
            while first < counts.count - 1, running + counts[first] <= cut {
                running += counts[first]
                first += 1
            }
            var last = counts.count - 1
            running = 0
            while last > first, running + counts[last] <= cut {
                running += counts[last]
                last -= 1
            }
            return (first, last)
        }
        let columns = inner(columnCounts)
        let rows = inner(rowCounts)
        return MaskComponent(
            minX: component.minX + columns.first, minY: component.minY + rows.first,
            maxX: component.minX + columns.last, maxY: component.minY + rows.last, pixelCount: component.pixelCount)
    }

    /// Samples of the component inside `plate`.
    private func paperCount(in plate: MaskComponent, label: Int32, width: Int) -> Int {
        var count = 0
        for y in plate.minY...plate.maxY {
            for x in plate.minX...plate.maxX where labeler.labels[y * width + x] == label { count += 1 }
        }
        return count
    }

    /// The rectangle test: in the rows of the plate, paper reaches from near the left edge to near the right one
    /// (the margins beside the letters are paper), so most rows span ``minimumRowSpan`` of the width. Blobs, discs,
    /// cars and windows narrow towards their top and bottom or break up. The rows are the component's own (not the
    /// trimmed plate's), so that the thin caps of an ellipse count against it.
    private func rowsSpanThePlate(
        _ plate: MaskComponent, of component: MaskComponent, label: Int32, width: Int
    ) -> Bool {
        let firstRow = component.minY + component.height / 20
        let lastRow = component.maxY - component.height / 20
        guard lastRow > firstRow else { return false }
        var spanning = 0
        for y in firstRow...lastRow {
            var left = -1
            var right = -1
            for x in plate.minX...plate.maxX where labeler.labels[y * width + x] == label {
                if left < 0 { left = x }
                right = x
            }
            if left >= 0, Double(right - left + 1) >= minimumRowSpan * Double(plate.width) { spanning += 1 }
        }
        return Double(spanning) >= minimumSpanningRows * Double(lastRow - firstRow + 1)
    }

    /// Mean luma of the component's paper samples.
    private func paperLevel(of component: MaskComponent, width: Int) -> Double {
        var sum = 0
        var count = 0
        for y in component.minY...component.maxY {
            for x in component.minX...component.maxX where mask[y * width + x] != 0 {
                sum += Int(luma[y * width + x])
                count += 1
            }
        }
        return Double(sum) / Double(max(1, count))
    }
}
