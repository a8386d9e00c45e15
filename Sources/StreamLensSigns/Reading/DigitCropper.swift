import StreamLensCore

/// Cuts the inside of a ring out of the luma plane and turns it into a clean, fixed-size picture of its digits for
/// OCR — or rejects it cheaply when the inside does not look like a speed-limit disc.
///
/// Steps (all on a ``canvasSize``-square canvas, so the work per candidate is fixed whatever the sign's size):
/// 1. Bilinear resampling of the inner disc (``innerRadiusShare`` of the ring's outer radii): squeezing an ellipse
///    back to a circle also undoes the horizontal squeeze of a sign seen at an angle.
/// 2. The disc's 3rd and 97th luma percentiles must differ by ``minimumContrast``; Otsu's threshold between them
///    splits ink (digits) from the disc, so dim and backlit signs binarize like bright ones.
/// 3. Dark blobs are sorted into digits (tall, across the middle, of one height) and other marks. A letter or unit
///    beside the digits ("5,5t", "3,8m") rejects the candidate before OCR.
/// 4. The digit band is copied, binarized (ink 0, paper 255) with a margin, into ``ocrImage``.
///
/// ## Thread Safety
/// Not synchronized: keeps scratch buffers between calls. Use one per analysis thread.
struct DigitCropper {
    static let canvasSize = 64
    /// Inner radius of the ring as a share of its outer radius (the josm artwork: 5.6 / 7.6; a little less keeps the
    /// ring's inner edge out of the crop).
    var innerRadiusShare = 0.70
    /// Smallest spread between the disc's dark and bright percentiles, in luma levels.
    var minimumContrast = 28

    private var canvas = [UInt8](repeating: 255, count: canvasSize * canvasSize)
    private var insideDisc = [Bool](repeating: false, count: canvasSize * canvasSize)
    private var ink = [UInt8](repeating: 0, count: canvasSize * canvasSize)
    private var histogram = [Int](repeating: 0, count: 256)
    private var labeler = ComponentLabeler()
    private var digits: [MaskComponent] = []
    /// The picture for OCR from the last accepted ``prepare(luma:candidate:)``: `ocrWidth` × `ocrHeight`, row-major.
    private(set) var ocrImage = [UInt8](repeating: 255, count: canvasSize * canvasSize)
    private(set) var ocrWidth = 0
    private(set) var ocrHeight = 0

    init() {
        let size = Self.canvasSize
        for y in 0..<size {
            for x in 0..<size {
                let nx = (Double(x) + 0.5) / Double(size) * 2 - 1
                let ny = (Double(y) + 0.5) / Double(size) * 2 - 1
                insideDisc[y * size + x] = nx * nx + ny * ny <= 0.95 * 0.95
            }
        }
    }

    /// Prepares ``ocrImage`` for `candidate`, or says why the candidate holds no readable digits.
    mutating func prepare(luma: Plane, candidate: RingCandidate) -> CropOutcome {
        let size = Self.canvasSize
        let radiusX = candidate.radiusX * innerRadiusShare
        let radiusY = candidate.radiusY * innerRadiusShare
        guard candidate.centerX - radiusX >= 0, candidate.centerY - radiusY >= 0,
            candidate.centerX + radiusX <= Double(luma.width - 1),
            candidate.centerY + radiusY <= Double(luma.height - 1)
        else { return .rejected(.outsideFrame) }
        resample(luma: luma, centerX: candidate.centerX, centerY: candidate.centerY, radiusX: radiusX, radiusY: radiusY)

        // Percentiles and Otsu's threshold over the disc only.
        for level in 0..<256 { histogram[level] = 0 }
        var discCount = 0
        for index in 0..<(size * size) where insideDisc[index] {
            histogram[Int(canvas[index])] += 1
            discCount += 1
        }
        let dark = percentile(histogram, total: discCount, share: 0.03)
        let bright = percentile(histogram, total: discCount, share: 0.97)
        guard bright - dark >= minimumContrast else { return .rejected(.lowContrast) }
        let threshold = otsuThreshold(histogram, from: dark, to: bright)

        var inkCount = 0
        for index in 0..<(size * size) {
            let isInk = insideDisc[index] && Int(canvas[index]) <= threshold
            ink[index] = isInk ? 1 : 0
            if isInk { inkCount += 1 }
        }
        let inkShare = Double(inkCount) / Double(discCount)
        guard inkShare > 0.05, inkShare < 0.5 else { return .rejected(.inkShare) }

        ink.withUnsafeBufferPointer { ink in
            labeler.label(mask: ink, width: size, height: size, gapTolerance: 1, minimumPixels: 4)
        }
        return classifyBlobs()
    }

    // MARK: - Steps

    private mutating func resample(luma: Plane, centerX: Double, centerY: Double, radiusX: Double, radiusY: Double) {
        let size = Self.canvasSize
        let stepX = 2 * radiusX / Double(size)
        let stepY = 2 * radiusY / Double(size)
        for y in 0..<size {
            let sourceY = centerY - radiusY + (Double(y) + 0.5) * stepY - 0.5
            let row0 = Int(sourceY)
            let weightY = sourceY - Double(row0)
            let upper = luma.row(row0)
            let lower = luma.row(min(row0 + 1, luma.height - 1))
            for x in 0..<size {
                let sourceX = centerX - radiusX + (Double(x) + 0.5) * stepX - 0.5
                let column0 = Int(sourceX)
                let column1 = min(column0 + 1, luma.width - 1)
                let weightX = sourceX - Double(column0)
                let top = Double(upper[column0]) * (1 - weightX) + Double(upper[column1]) * weightX
                let bottom = Double(lower[column0]) * (1 - weightX) + Double(lower[column1]) * weightX
                canvas[y * size + x] = UInt8((top * (1 - weightY) + bottom * weightY).rounded())
            }
        }
    }

    /// Sorts the ink blobs into digits and other marks and builds ``ocrImage`` from the digits.
    private mutating func classifyBlobs() -> CropOutcome {
        let size = Double(Self.canvasSize)
        func centre(_ c: MaskComponent) -> (x: Double, y: Double) {
            ((Double(c.minX + c.maxX) + 1) / size - 1, (Double(c.minY + c.maxY) + 1) / size - 1)
        }
        // Digits stand across the middle: tall, centred vertically, not out at the ring.
        var tallest = 0
        for blob in labeler.components {
            let (x, y) = centre(blob)
            if Double(blob.height) >= 0.30 * size, Double(blob.height) <= 0.85 * size, abs(y) <= 0.3, abs(x) <= 0.8 {
                tallest = max(tallest, blob.height)
            }
        }
        guard tallest > 0 else { return .rejected(.noDigits) }
        digits.removeAll(keepingCapacity: true)
        var bandCentre = 0.0
        for blob in labeler.components {
            let (x, y) = centre(blob)
            if Double(blob.height) >= 0.8 * Double(tallest), abs(y) <= 0.3, abs(x) <= 0.8 {
                digits.append(blob)
                bandCentre += y
            }
        }
        bandCentre /= Double(digits.count)
        // Anything else of some size that is not the ring's remains out at the rim is a mark that is not a digit.
        let markArea = Int(0.012 * size * size)
        for blob in labeler.components where !digits.contains(blob) && blob.pixelCount >= markArea {
            let (x, y) = centre(blob)
            if x * x + y * y < 0.7 * 0.7 { return .rejected(.extraMarks) }
        }
        guard digits.count <= 3, digits.allSatisfy({ abs(centre($0).y - bandCentre) <= 0.15 }) else {
            return .rejected(.extraMarks)
        }
        digits.sort { $0.minX < $1.minX }
        var estimated = 0
        for digit in digits {
            // A digit is about 0.6 of its height wide; wider blobs are touching digits.
            estimated += max(1, Int((Double(digit.width) / (0.62 * Double(digit.height))).rounded()))
        }
        guard estimated <= 3 else { return .rejected(.extraMarks) }
        let first = digits[0]
        let layout = DigitLayout(
            glyphCount: digits.count, estimatedDigitCount: estimated,
            leadingGlyphIsNarrow: Double(first.width) < 0.4 * Double(first.height))
        writeOCRImage()
        return .digits(layout)
    }

    /// Copies the digit band, binarized, with a white margin of a quarter of its height into ``ocrImage``.
    private mutating func writeOCRImage() {
        let size = Self.canvasSize
        let minX = digits.map(\.minX).min()!
        let maxX = digits.map(\.maxX).max()!
        let minY = digits.map(\.minY).min()!
        let maxY = digits.map(\.maxY).max()!
        let margin = max(6, (maxY - minY + 1) / 4)
        ocrWidth = maxX - minX + 1 + 2 * margin
        ocrHeight = maxY - minY + 1 + 2 * margin
        if ocrImage.count < ocrWidth * ocrHeight {
            ocrImage = [UInt8](repeating: 255, count: ocrWidth * ocrHeight)
        }
        for y in 0..<ocrHeight {
            for x in 0..<ocrWidth {
                let sourceX = x - margin + minX
                let sourceY = y - margin + minY
                let isInk = sourceX >= minX && sourceX <= maxX && sourceY >= minY && sourceY <= maxY
                    && ink[sourceY * size + sourceX] != 0
                ocrImage[y * ocrWidth + x] = isInk ? 0 : 255
            }
        }
    }

    private func percentile(_ histogram: [Int], total: Int, share: Double) -> Int {
        let target = Int(Double(total) * share)
        var running = 0
        for level in 0..<256 {
            running += histogram[level]
            if running > target { return level }
        }
        return 255
    }

    /// Otsu's threshold over `from...to`: the level that best separates ink from paper (maximal between-class
    /// variance). Pixels at or below it are ink.
    private func otsuThreshold(_ histogram: [Int], from low: Int, to high: Int) -> Int {
        var total = 0
        var weightedTotal = 0.0
        for level in low...high {
            total += histogram[level]
            weightedTotal += Double(level * histogram[level])
        }
        var best = (low + high) / 2
        var bestVariance = -1.0
        var backgroundCount = 0
        var backgroundSum = 0.0
        for level in low..<high {
            backgroundCount += histogram[level]
            backgroundSum += Double(level * histogram[level])
            let foregroundCount = total - backgroundCount
            guard backgroundCount > 0, foregroundCount > 0 else { continue }
            let meanDark = backgroundSum / Double(backgroundCount)
            let meanBright = (weightedTotal - backgroundSum) / Double(foregroundCount)
            let variance = Double(backgroundCount) * Double(foregroundCount) * (meanBright - meanDark) * (meanBright - meanDark)
            if variance > bestVariance {
                bestVariance = variance
                best = level
            }
        }
        return best
    }
}
