import Foundation
import StreamLensCore

/// Cuts the inside of a ring out of the frame and turns it into a clean picture of its digits for OCR — or rejects
/// it cheaply when the inside does not look like a speed-limit disc.
///
/// Steps, on a ``canvasSize``-square canvas (fixed work per candidate whatever the sign's size):
/// 1. Bilinear resampling of luma and chroma over the inner disc (a ``DiscVariant``'s share of the ring's inner radii).
///    Squeezing the ellipse back to a circle also undoes the squeeze of a sign seen at an angle.
/// 2. Red samples (the ring's inner edge, smeared inwards by blur) are never ink: digits are black, the ring is red.
///    Only red hues count, so a yellow disc (Nordic signs) stays paper.
/// 3. The disc's 3rd and 97th luma percentiles must differ by ``minimumContrast``: a bright disc with dark digits.
/// 4. Illumination is flattened: each pixel is divided by the local paper level (a grey-level closing that erases
///    the digit strokes), so a shadow across half the sign does not turn into ink.
///    Otsu's threshold then splits ink from paper, so dim and backlit signs binarize like bright ones.
/// 5. Dark blobs are sorted: arcs out at the rim are ring remains and dropped; tall blobs across the middle of one
///    height are digits; anything else of some size (a "t", an "m", a lorry) rejects the candidate before OCR, and
///    so does a row of digits that is not centred (a digit was lost).
/// 6. The digits, contrast-stretched grey (ink black, paper white), are copied side by side with even gaps into
///    ``ocrImage``: Tesseract's LSTM reads anti-aliased grey better than a hard binarization, and even spacing
///    keeps it from merging the two thin strokes of "110".
///
/// ## Thread Safety
/// Not synchronized: keeps scratch buffers between calls. Use one per analysis thread.
struct DigitCropper {
    static let canvasSize = 72
    /// Half-width of the closing window that estimates the paper level: wider than a digit stroke (about a sixth of
    /// the digit height, 6–7 samples here).
    private static let closingRadius = 6
    /// Radius of the cut-out disc as a share of the ring's inner radius, in ``DiscVariant/standard``: a little more
    /// than the disc, since red samples and rim arcs are removed later; touching the ring is better than clipping
    /// the digits.
    static let standardInnerRadiusShare = 1.03
    /// Smallest spread between the disc's dark and bright percentiles, in luma levels.
    var minimumContrast = 28

    private var luma = [UInt8](repeating: 255, count: canvasSize * canvasSize)
    private var redness = [UInt8](repeating: 0, count: canvasSize * canvasSize)
    /// Inside the disc and not red: may be paper or ink.
    private var usable = [Bool](repeating: false, count: canvasSize * canvasSize)
    private var radius = [Float](repeating: 0, count: canvasSize * canvasSize)
    private var ink = [UInt8](repeating: 0, count: canvasSize * canvasSize)
    private var flattener = IlluminationFlattener(width: canvasSize, height: canvasSize, radius: closingRadius)
    private var histogram = LumaHistogram()
    /// Summed-area tables of usable luma and of usable samples, (size + 1)² each, for the local-mean binarisation.
    private var lumaSums = [Int32](repeating: 0, count: (canvasSize + 1) * (canvasSize + 1))
    private var usableSums = [Int32](repeating: 0, count: (canvasSize + 1) * (canvasSize + 1))
    private var ringSamples = [Int](repeating: 0, count: 16)
    private var labeler = ComponentLabeler()
    private var blobInnermostRadius: [Float] = []
    /// Blobs grouped into glyphs (identical unless the variant joins stacked pieces), their innermost radius, and
    /// the glyph (1-based) of each blob (label − 1).
    private var glyphs: [MaskComponent] = []
    private var glyphInnermostRadius: [Float] = []
    private var glyphOfBlob: [Int32] = []
    private var isDigit: [Bool] = []
    private var digits: [(blob: MaskComponent, label: Int32)] = []
    /// Height of the tallest glyph standing across the middle of the last prepared disc, as a share of the canvas
    /// (nil when the disc was rejected before its glyphs were sorted, or held none).
    private(set) var lastLegendHeightShare: Double?
    /// The picture for OCR from the last accepted ``prepare(planes:candidate:)``: `ocrWidth` × `ocrHeight`,
    /// row-major, dark digits on white.
    private(set) var ocrImage = [UInt8](repeating: 255, count: 6 * canvasSize * canvasSize)
    private(set) var ocrWidth = 0
    /// The picture for ``SpeedDiscClassifier`` from the last successful ``prepareClassifierImage(planes:candidate:)``:
    /// ``canvasSize`` square, illumination flattened, the usable samples' 3rd…97th luma percentiles stretched to
    /// black…white, ring and outside white.
    private(set) var classifierImage = [UInt8](repeating: 255, count: canvasSize * canvasSize)
    private(set) var ocrHeight = 0

    init() {
        let size = Self.canvasSize
        for y in 0..<size {
            for x in 0..<size {
                let nx = (Double(x) + 0.5) / Double(size) * 2 - 1
                let ny = (Double(y) + 0.5) / Double(size) * 2 - 1
                radius[y * size + x] = Float((nx * nx + ny * ny).squareRoot())
            }
        }
        blobInnermostRadius.reserveCapacity(64)
        glyphs.reserveCapacity(64)
        glyphInnermostRadius.reserveCapacity(64)
        glyphOfBlob.reserveCapacity(64)
        isDigit.reserveCapacity(64)
        digits.reserveCapacity(8)
    }

    /// Prepares ``ocrImage`` for `candidate`, normalised as `variant` says, or says why the candidate holds no
    /// readable digits.
    mutating func prepare(
        planes: YUVPlanes, candidate: RingCandidate, variant: DiscVariant = .standard
    ) -> CropOutcome {
        let size = Self.canvasSize
        lastLegendHeightShare = nil
        let usableCount: Int
        switch cutOutDisc(planes: planes, candidate: candidate, innerRadiusShare: variant.innerRadiusShare) {
        case .success(let count): usableCount = count
        case .failure(let rejection): return .rejected(rejection)
        }
        fillHistogram()
        let rawSpread =
            histogram.percentile(total: usableCount, share: 0.97) - histogram.percentile(total: usableCount, share: 0.03)
        guard rawSpread >= minimumContrast else { return .rejected(.lowContrast) }

        flattenIllumination()
        fillHistogram()
        let dark = histogram.percentile(total: usableCount, share: 0.03)
        let bright = histogram.percentile(total: usableCount, share: 0.97)
        guard bright - dark >= minimumContrast / 2 else { return .rejected(.lowContrast) }
        let threshold = histogram.otsuThreshold(from: dark, to: bright)

        var inkCount = 0
        switch variant.binarisation {
        case .otsu:
            for index in 0..<(size * size) {
                let isInk = usable[index] && Int(luma[index]) <= threshold
                ink[index] = isInk ? 1 : 0
                if isInk { inkCount += 1 }
            }
        case .localMean(let window):
            // Ink is darker than its neighbourhood by a share of the disc's contrast: soft strokes that a single
            // threshold merges with the grey around them stay apart.
            inkCount = binariseByLocalMean(
                window: window, offset: max(4, (bright - dark) / 8), ceiling: threshold + (bright - threshold) / 2)
        }
        let inkShare = Double(inkCount) / Double(usableCount)
        guard inkShare > 0.05, inkShare < 0.5 else { return .rejected(.inkShare) }

        ink.withUnsafeBufferPointer { ink in
            labeler.label(mask: ink, width: size, height: size, gapTolerance: 1, minimumPixels: 4)
        }
        let outcome = classifyBlobs(joiningStackedPieces: variant.joinsStackedPieces)
        if case .digits = outcome {
            writeOCRImage(black: dark, white: max(histogram.paperWhite(above: threshold), threshold + 8))
        }
        return outcome
    }

    /// Prepares ``classifierImage`` for `candidate` (the whole disc, as in ``DiscVariant/standard``); false when the
    /// ring is too close to the frame edge or its inside is mostly red.
    mutating func prepareClassifierImage(planes: YUVPlanes, candidate: RingCandidate) -> Bool {
        guard let levels = flattenedStandardDisc(planes: planes, candidate: candidate) else { return false }
        for index in 0..<(Self.canvasSize * Self.canvasSize) {
            classifierImage[index] =
                usable[index] ? LumaHistogram.stretched(luma[index], dark: levels.dark, bright: levels.bright) : 255
        }
        return true
    }

    /// Prepares ``ocrImage`` as the disc's middle band in grey — illumination flattened, the usable samples' 3rd…97th
    /// luma percentiles stretched to black…white, the ring and the outside white — without cutting out digits: for a
    /// soft disc whose strokes no threshold separates (the blobs merge with each other or with the grey around
    /// them), Tesseract's line recogniser still reads the anti-aliased grey. False when the ring is too close to
    /// the frame edge, the inside is mostly red, or the disc shows no contrast at all.
    mutating func prepareWholeDisc(planes: YUVPlanes, candidate: RingCandidate) -> Bool {
        let size = Self.canvasSize
        guard let levels = flattenedStandardDisc(planes: planes, candidate: candidate),
            levels.bright - levels.dark >= Self.wholeDiscMinimumContrast
        else { return false }
        // Digits stand across the middle (``classifyBlobs``: centred within 0.3 of the radius, at most 0.9 tall).
        let rows = (size * 15 / 100)..<(size * 85 / 100)
        let columns = (size * 5 / 100)..<(size * 95 / 100)
        let margin = size / 6
        ocrWidth = columns.count + 2 * margin
        ocrHeight = rows.count + 2 * margin
        ocrImage.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 255, count: ocrWidth * ocrHeight) }
        for (outY, sourceY) in rows.enumerated() {
            for (outX, sourceX) in columns.enumerated() {
                let index = sourceY * size + sourceX
                guard usable[index] else { continue }
                ocrImage[(margin + outY) * ocrWidth + margin + outX] =
                    LumaHistogram.stretched(luma[index], dark: levels.dark, bright: levels.bright)
            }
        }
        return true
    }

    /// Cuts out the disc as ``DiscVariant/standard`` does and flattens its illumination: the usable samples' 3rd and
    /// 97th luma percentiles, or nil when the ring is too close to the frame edge or its inside is mostly red.
    private mutating func flattenedStandardDisc(
        planes: YUVPlanes, candidate: RingCandidate
    ) -> (dark: Int, bright: Int)? {
        guard
            case .success(let usableCount) = cutOutDisc(
                planes: planes, candidate: candidate, innerRadiusShare: Self.standardInnerRadiusShare)
        else { return nil }
        flattenIllumination()
        fillHistogram()
        return (
            histogram.percentile(total: usableCount, share: 0.03), histogram.percentile(total: usableCount, share: 0.97)
        )
    }

    /// Smallest 3rd…97th percentile spread (after flattening) of a disc read whole: below it there is nothing to read.
    static let wholeDiscMinimumContrast = 12

    // MARK: - Steps

    /// The disc inside `innerRadiusShare` of `candidate`'s ring, cut out into the canvas: how many of its samples are
    /// usable (not ring red), or why it cannot be read — too close to the frame edge, or mostly red.
    private mutating func cutOutDisc(
        planes: YUVPlanes, candidate: RingCandidate, innerRadiusShare: Double
    ) -> Result<Int, CropRejection> {
        let radiusX = candidate.innerRadiusX * innerRadiusShare
        let radiusY = candidate.innerRadiusY * innerRadiusShare
        guard candidate.centerX - radiusX >= 0, candidate.centerY - radiusY >= 0,
            candidate.centerX + radiusX <= Double(planes.width - 2),
            candidate.centerY + radiusY <= Double(planes.height - 2)
        else { return .failure(.outsideFrame) }
        let usableCount = cutOut(planes: planes, candidate: candidate, radiusX: radiusX, radiusY: radiusY)
        guard usableCount > Self.canvasSize * Self.canvasSize / 3 else { return .failure(.mostlyRed) }
        return .success(usableCount)
    }

    /// Resamples the disc onto the canvas and marks the usable samples; returns how many there are.
    private mutating func cutOut(planes: YUVPlanes, candidate: RingCandidate, radiusX: Double, radiusY: Double) -> Int {
        let size = Self.canvasSize
        resample(
            planes: planes, centerX: candidate.centerX, centerY: candidate.centerY, radiusX: radiusX, radiusY: radiusY)
        // Red samples belong to the ring. "Red" is relative to this ring: dim rings are only faintly red.
        let redCutoff = UInt8(max(6, min(40, ringRedness(planes: planes, candidate: candidate) * 2 / 5)))
        var usableCount = 0
        for index in 0..<(size * size) {
            usable[index] = radius[index] <= 0.97 && redness[index] < redCutoff
            if usable[index] { usableCount += 1 }
        }
        return usableCount
    }

    private mutating func resample(
        planes: YUVPlanes, centerX: Double, centerY: Double, radiusX: Double, radiusY: Double
    ) {
        let size = Self.canvasSize
        let stepX = 2 * radiusX / Double(size)
        let stepY = 2 * radiusY / Double(size)
        for y in 0..<size {
            let sourceY = centerY - radiusY + (Double(y) + 0.5) * stepY
            for x in 0..<size {
                let sourceX = centerX - radiusX + (Double(x) + 0.5) * stepX
                luma[y * size + x] = UInt8(planes.y.bilinear(x: sourceX - 0.5, y: sourceY - 0.5).rounded())
                // Chroma sample i is centred on luma x = 2i + 1 (MPEG-2 siting is close enough here).
                let v = planes.v.bilinear(x: sourceX / 2 - 0.5, y: sourceY / 2 - 0.5) - 128
                let u = planes.u.bilinear(x: sourceX / 2 - 0.5, y: sourceY / 2 - 0.5) - 128
                // Redness counts only for red hues (|U| ≤ V / 2, as in the locator).
                redness[y * size + x] = 2 * abs(u) <= v ? UInt8(max(0, min(255, v))) : 0
            }
        }
    }

    /// Median V − 128 along the middle of the ring (87 % of its outer radius), 16 directions.
    private mutating func ringRedness(planes: YUVPlanes, candidate: RingCandidate) -> Int {
        for ray in 0..<ringSamples.count {
            let angle = Double(ray) * 2 * Double.pi / Double(ringSamples.count)
            let x = candidate.centerX + 0.87 * candidate.radiusX * cos(angle)
            let y = candidate.centerY + 0.87 * candidate.radiusY * sin(angle)
            ringSamples[ray] = Int(planes.v.bilinear(x: x / 2 - 0.5, y: y / 2 - 0.5)) - 128
        }
        ringSamples.sort()
        return ringSamples[ringSamples.count / 2]
    }

    /// Divides luma by the local paper level (``IlluminationFlattener``); samples that are not usable (the ring,
    /// outside the disc) take no part.
    private mutating func flattenIllumination() {
        flattener.flatten(&luma, usable: usable)
    }

    /// Marks as ink every usable sample darker than the mean of the usable samples in the `window`-wide square around
    /// it by `offset`, and not brighter than `ceiling` (paper speckles stay paper). Returns the ink count.
    private mutating func binariseByLocalMean(window: Int, offset: Int, ceiling: Int) -> Int {
        let size = Self.canvasSize
        let stride = size + 1
        for x in 0...size {
            lumaSums[x] = 0
            usableSums[x] = 0
        }
        for y in 0..<size {
            var rowLuma: Int32 = 0
            var rowUsable: Int32 = 0
            lumaSums[(y + 1) * stride] = 0
            usableSums[(y + 1) * stride] = 0
            for x in 0..<size {
                let index = y * size + x
                if usable[index] {
                    rowLuma += Int32(luma[index])
                    rowUsable += 1
                }
                lumaSums[(y + 1) * stride + x + 1] = lumaSums[y * stride + x + 1] + rowLuma
                usableSums[(y + 1) * stride + x + 1] = usableSums[y * stride + x + 1] + rowUsable
            }
        }
        let half = window / 2
        var inkCount = 0
        for y in 0..<size {
            let top = max(0, y - half)
            let bottom = min(size, y + half + 1)
            for x in 0..<size {
                let index = y * size + x
                ink[index] = 0
                guard usable[index], Int(luma[index]) <= ceiling else { continue }
                let left = max(0, x - half)
                let right = min(size, x + half + 1)
                let sum = lumaSums[bottom * stride + right] - lumaSums[top * stride + right]
                    - lumaSums[bottom * stride + left] + lumaSums[top * stride + left]
                let count = usableSums[bottom * stride + right] - usableSums[top * stride + right]
                    - usableSums[bottom * stride + left] + usableSums[top * stride + left]
                // luma < mean − offset, in integers: luma·count < sum − offset·count.
                if (Int32(luma[index]) + Int32(offset)) * count < sum {
                    ink[index] = 1
                    inkCount += 1
                }
            }
        }
        return inkCount
    }

    /// Groups the blobs into ``glyphs``. Joining, a blob that is not a ring remain and lies mostly under or over a
    /// glyph's columns joins it: digits stand side by side, so pieces above each other are one digit that a soft
    /// photo broke (the flag and the bowl of a "5").
    private mutating func groupGlyphs(joiningStackedPieces: Bool) {
        glyphs.removeAll(keepingCapacity: true)
        glyphInnermostRadius.removeAll(keepingCapacity: true)
        glyphOfBlob.removeAll(keepingCapacity: true)
        for (index, blob) in labeler.components.enumerated() {
            let innermost = blobInnermostRadius[index]
            var joined: Int?
            if joiningStackedPieces && innermost <= Self.ringRemainRadius {
                for glyph in glyphs.indices where glyphInnermostRadius[glyph] <= Self.ringRemainRadius {
                    let other = glyphs[glyph]
                    let overlap = min(other.maxX, blob.maxX) - max(other.minX, blob.minX) + 1
                    let height = max(other.maxY, blob.maxY) - min(other.minY, blob.minY) + 1
                    if Double(overlap) >= 0.6 * Double(min(other.width, blob.width)),
                        Double(height) <= 0.9 * Double(Self.canvasSize)
                    {
                        joined = glyph
                        break
                    }
                }
            }
            if let joined {
                glyphs[joined].minX = min(glyphs[joined].minX, blob.minX)
                glyphs[joined].maxX = max(glyphs[joined].maxX, blob.maxX)
                glyphs[joined].minY = min(glyphs[joined].minY, blob.minY)
                glyphs[joined].maxY = max(glyphs[joined].maxY, blob.maxY)
                glyphs[joined].pixelCount += blob.pixelCount
                glyphInnermostRadius[joined] = min(glyphInnermostRadius[joined], innermost)
                glyphOfBlob.append(Int32(joined + 1))
            } else {
                glyphs.append(blob)
                glyphInnermostRadius.append(innermost)
                glyphOfBlob.append(Int32(glyphs.count))
            }
        }
    }

    /// Glyph (1-based) of the canvas sample at `index`, or ≤ 0 when the sample is no blob's.
    private func glyph(at index: Int) -> Int32 {
        let label = labeler.labels[index]
        return label > 0 ? glyphOfBlob[Int(label) - 1] : label
    }

    /// Blobs reaching no nearer to the centre than this (a share of the canvas radius) are ring remains: out at the
    /// rim, while even the outer digits of "130" reach in to about 0.6.
    private static let ringRemainRadius: Float = 0.75

    /// Sorts the ink blobs into ring remains, digits and other marks; keeps the digits in ``digits``.
    private mutating func classifyBlobs(joiningStackedPieces: Bool) -> CropOutcome {
        let size = Self.canvasSize
        // Nearest distance from the centre of each blob's pixels.
        blobInnermostRadius.removeAll(keepingCapacity: true)
        blobInnermostRadius.append(contentsOf: repeatElement(2, count: labeler.components.count))
        for index in 0..<(size * size) {
            let label = Int(labeler.labels[index])
            if label > 0 { blobInnermostRadius[label - 1] = min(blobInnermostRadius[label - 1], radius[index]) }
        }
        groupGlyphs(joiningStackedPieces: joiningStackedPieces)
        let components = glyphs
        func centre(_ blob: MaskComponent) -> (x: Double, y: Double) {
            let scale = Double(size)
            return ((Double(blob.minX + blob.maxX) + 1) / scale - 1, (Double(blob.minY + blob.maxY) + 1) / scale - 1)
        }
        func isRingRemain(_ index: Int) -> Bool { glyphInnermostRadius[index] > Self.ringRemainRadius }
        func standsAcross(_ blob: MaskComponent) -> Bool {
            let (x, y) = centre(blob)
            return abs(y) <= 0.3 && abs(x) <= 0.8
        }
        // Digits stand across the middle: tall, centred vertically.
        var tallest = 0
        for (index, blob) in components.enumerated() where !isRingRemain(index) && standsAcross(blob) {
            if Double(blob.height) >= 0.3 * Double(size), Double(blob.height) <= 0.9 * Double(size) {
                tallest = max(tallest, blob.height)
            }
        }
        guard tallest > 0 else { return .rejected(.noDigits) }
        lastLegendHeightShare = Double(tallest) / Double(size)
        digits.removeAll(keepingCapacity: true)
        isDigit.removeAll(keepingCapacity: true)
        var bandCentre = 0.0
        for (index, blob) in components.enumerated() {
            let digit = !isRingRemain(index) && Double(blob.height) >= 0.8 * Double(tallest) && standsAcross(blob)
            isDigit.append(digit)
            if digit {
                digits.append((blob, Int32(index + 1)))
                bandCentre += centre(blob).y
            }
        }
        bandCentre /= Double(digits.count)
        // Anything else of some size that is not a ring remain is a mark that is not a digit.
        let markArea = Int(0.012 * Double(size * size))
        for (index, blob) in components.enumerated()
        where !isDigit[index] && !isRingRemain(index) && blob.pixelCount >= markArea {
            return .rejected(.extraMarks)
        }
        guard digits.count <= 3, digits.allSatisfy({ abs(centre($0.blob).y - bandCentre) <= 0.15 }) else {
            return .rejected(.extraMarks)
        }
        digits.sort { $0.blob.minX < $1.blob.minX }
        var rowRight = 0
        var widest = 0
        for digit in digits {
            rowRight = max(rowRight, digit.blob.maxX)
            widest = max(widest, digit.blob.width)
        }
        // Speed digits are centred on the disc; a row off to one side has lost a digit (often the thin 1 of "130").
        let rowMiddle = Double(digits[0].blob.minX + rowRight + 1) / Double(size) - 1
        guard abs(rowMiddle) <= 0.14 else { return .rejected(.offCentre) }
        var estimated = 0
        for digit in digits {
            // A digit is about 0.6 of its height wide; wider blobs are touching digits.
            estimated += max(1, Int((Double(digit.blob.width) / (0.62 * Double(digit.blob.height))).rounded()))
        }
        guard estimated <= 3 else { return .rejected(.extraMarks) }
        // A "1" is a narrow stroke beside wider digits; condensed fonts make every digit slim, so narrowness is
        // judged against the widest glyph of the sign.
        var layout = DigitLayout(estimatedDigitCount: estimated)
        for digit in digits {
            let width = Double(digit.blob.width)
            layout.appendGlyph(
                narrow: digits.count > 1 && width < 0.6 * Double(widest) && width < 0.45 * Double(digit.blob.height))
        }
        if digits.count >= 2, let last = digits.last {
            layout.lastGlyphLooksLikeZero = ZeroShape.matches(width: last.blob.width, height: last.blob.height) {
                glyph(at: (last.blob.minY + $1) * size + last.blob.minX + $0) == last.label
            }
        }
        return .digits(layout)
    }

    /// Copies each digit (its box plus one sample of anti-aliased edge, other blobs whitened) into ``ocrImage``, left
    /// to right with gaps of a fifth of the digit height and a margin of a third, luma stretched from `black` to
    /// `white`.
    private mutating func writeOCRImage(black: Int, white: Int) {
        let size = Self.canvasSize
        let layout = OCRPictureLayout(digits: digits, canvasWidth: size, rows: 0...(size - 1))
        ocrWidth = layout.width
        ocrHeight = layout.height
        ocrImage.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 255, count: ocrWidth * ocrHeight) }
        let span = Double(max(1, white - black))
        var column = layout.margin
        for digit in digits {
            let columns = layout.sourceColumns(of: digit.blob)
            for sourceY in layout.sourceRows {
                for sourceX in columns {
                    let index = sourceY * size + sourceX
                    let label = glyph(at: index)
                    guard label <= 0 || label == digit.label, usable[index] else { continue }
                    // An edge sample beside another digit's ink is that digit's anti-aliasing, not this one's.
                    if label <= 0 && bordersOtherDigit(index, digit.label) { continue }
                    let stretched = (Double(luma[index]) - Double(black)) * 255 / span
                    ocrImage[(layout.margin + sourceY - layout.sourceRows.lowerBound) * ocrWidth + column + sourceX
                        - columns.lowerBound] = UInt8(max(0, min(255, stretched)).rounded())
                }
            }
            column += columns.count + layout.gap
        }
    }

    /// Whether a background sample touches ink of a digit blob other than `label` and none of `label`'s.
    private func bordersOtherDigit(_ index: Int, _ label: Int32) -> Bool {
        let size = Self.canvasSize
        let x = index % size
        let y = index / size
        var other = false
        for neighbourY in max(0, y - 1)...min(size - 1, y + 1) {
            for neighbourX in max(0, x - 1)...min(size - 1, x + 1) {
                let neighbour = glyph(at: neighbourY * size + neighbourX)
                if neighbour == label { return false }
                if neighbour > 0 && isDigit[Int(neighbour) - 1] { other = true }
            }
        }
        return other
    }

    /// Histogram of the usable samples' luma.
    private mutating func fillHistogram() {
        histogram.removeAll()
        for index in 0..<(Self.canvasSize * Self.canvasSize) where usable[index] { histogram.add(luma[index]) }
    }
}
