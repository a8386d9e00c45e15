import StreamLensCore

/// Cuts the number out of a US "SPEED LIMIT" plate and turns it into a clean picture of its digits for OCR — or
/// rejects the plate cheaply when its lower part does not hold a lone number.
///
/// Steps, on a ``canvasWidth`` × ``canvasHeight`` canvas of the plate (fixed work per candidate):
/// 1. Bilinear resampling of the plate's luma; only the number zone — the lower part, from ``numberZoneTop`` of the
///    plate down, below "SPEED LIMIT" — is used.
/// 2. A shadow across the number leaves its shaded paper half as bright as the rest, which a single threshold would
///    call ink: when the zone's paper level (``IlluminationFlattener``'s estimate) varies by ``shadowPaperContrast``
///    or more, the plate's luma is divided by it. Under even light the picture is left as it is.
///    The zone's 3rd and 97th luma percentiles must differ by ``minimumContrast``; Otsu's threshold splits ink from
///    paper, so dim and backlit plates binarize like bright ones.
/// 3. Dark blobs are sorted: blobs touching the zone's sides are border remains; tall blobs in one row are digits;
///    any other mark of some size (a unit such as "TONS", a second row such as "6 PM") rejects the plate, and so
///    does a row that is not centred or holds more than two digits (US limits are 5…85). A single digit is read
///    only in the very middle of a plate of full width: a plate cut by a shadow leaves the "5" of a "15".
/// 4. The digits, contrast-stretched grey, are copied side by side with even gaps into ``ocrImage`` — the same
///    picture shape the EU path gives Tesseract.
///
/// ## Thread Safety
/// Not synchronized: keeps scratch buffers between calls. Use one per analysis thread.
struct UsDigitCropper {
    static let canvasWidth = 80
    static let canvasHeight = 100
    /// Top of the number zone as a share of the plate's height: R2-1's numerals start just over half-way down.
    static let numberZoneTop = 0.47
    /// Narrowest plate (width over height) on which a single digit is read: R2-1 is 0.8.
    static let minimumLoneDigitAspect = 0.7
    /// Smallest spread between the zone's dark and bright percentiles, in luma levels.
    var minimumContrast = 40
    /// Step 2's flattening (off: the plate's luma as resampled).
    var flattensIllumination = true
    /// Half-width of the flattening window: the closing erases dark strokes up to 19 samples wide, a bold or blurred
    /// numeral's (a thin one's are 5–7 on the canvas), and keeps a shadow's edge where it is.
    private static let closingRadius = 9
    private static let wholeCanvas = [Bool](repeating: true, count: canvasWidth * canvasHeight)
    /// Brightest over darkest paper in the number zone from which it is flattened: the generated set's shadows keep
    /// 0.4–0.6 of the light (1.7–2.5); uneven light on a plate without shadow stays well under.
    static let shadowPaperContrast = 1.5
    private var flattener = IlluminationFlattener(width: canvasWidth, height: canvasHeight, radius: closingRadius)

    private static let zoneTopRow = Int(Double(canvasHeight) * numberZoneTop)
    private static let zoneHeight = canvasHeight - zoneTopRow - 1
    private var luma = [UInt8](repeating: 255, count: canvasWidth * canvasHeight)
    private var ink = [UInt8](repeating: 0, count: canvasWidth * canvasHeight)
    private var histogram = LumaHistogram()
    private var labeler = ComponentLabeler()
    private var digits: [(blob: MaskComponent, label: Int32)] = []
    /// The picture for OCR from the last accepted ``prepare(planes:candidate:)``: `ocrWidth` × `ocrHeight`,
    /// row-major, dark digits on white.
    private(set) var ocrImage = [UInt8](repeating: 255, count: 4 * canvasWidth * canvasHeight)
    private(set) var ocrWidth = 0
    private(set) var ocrHeight = 0

    init() { digits.reserveCapacity(8) }

    /// Prepares ``ocrImage`` for `candidate`, or says why the plate holds no readable number.
    mutating func prepare(planes: YUVPlanes, candidate: RectangularSignCandidate) -> CropOutcome {
        let plate = candidate.plate
        guard plate.x >= 0, plate.y >= 0, plate.x + plate.width <= Double(planes.width),
            plate.y + plate.height <= Double(planes.height)
        else { return .rejected(.outsideFrame) }
        resample(planes.y, plate: plate)
        if flattensIllumination {
            // The number zone only: the digits are all that is binarised and read from this canvas.
            let zoneRows = Self.zoneTopRow..<Self.canvasHeight
            flattener.estimatePaper(luma, usable: Self.wholeCanvas, rows: zoneRows)
            if flattener.paperContrast(rows: zoneRows) >= Self.shadowPaperContrast {
                flattener.divideByPaper(&luma, rows: zoneRows)
            }
        }
        let zone = Self.zoneTopRow * Self.canvasWidth..<(Self.canvasHeight * Self.canvasWidth)
        histogram.removeAll()
        for index in zone { histogram.add(luma[index]) }
        let total = zone.count
        let dark = histogram.percentile(total: total, share: 0.03)
        let bright = histogram.percentile(total: total, share: 0.97)
        guard bright - dark >= minimumContrast else { return .rejected(.lowContrast) }
        let threshold = histogram.otsuThreshold(from: dark, to: bright)

        var inkCount = 0
        for index in 0..<ink.count {
            let isInk = zone.contains(index) && Int(luma[index]) <= threshold
            ink[index] = isInk ? 1 : 0
            if isInk { inkCount += 1 }
        }
        let inkShare = Double(inkCount) / Double(total)
        guard inkShare > 0.05, inkShare < 0.5 else { return .rejected(.inkShare) }
        ink.withUnsafeBufferPointer { ink in
            labeler.label(mask: ink, width: Self.canvasWidth, height: Self.canvasHeight, gapTolerance: 1, minimumPixels: 4)
        }
        let outcome = classifyBlobs(plateAspect: plate.width / plate.height)
        if case .digits = outcome {
            writeOCRImage(black: dark, white: max(histogram.paperWhite(above: threshold), threshold + 8))
        }
        return outcome
    }

    // MARK: - Steps

    private mutating func resample(_ plane: Plane, plate: BoundingBox) {
        let stepX = plate.width / Double(Self.canvasWidth)
        let stepY = plate.height / Double(Self.canvasHeight)
        for y in 0..<Self.canvasHeight {
            let sourceY = plate.y + (Double(y) + 0.5) * stepY - 0.5
            for x in 0..<Self.canvasWidth {
                let sourceX = plate.x + (Double(x) + 0.5) * stepX - 0.5
                luma[y * Self.canvasWidth + x] = UInt8(plane.bilinear(x: sourceX, y: sourceY).rounded())
            }
        }
    }

    /// Sorts the ink blobs of the number zone into border remains, digits and other marks; keeps the digits.
    private mutating func classifyBlobs(plateAspect: Double) -> CropOutcome {
        let width = Self.canvasWidth
        let zoneTop = Self.zoneTopRow
        let zoneHeight = Double(Self.zoneHeight)
        // The black border (or what lies beyond the plate) shows as ink along the canvas's sides and bottom; the
        // foot of "LIMIT" may reach into the zone's top row.
        func isBorderRemain(_ blob: MaskComponent) -> Bool {
            blob.minX <= 1 || blob.maxX >= width - 2 || blob.minY >= Self.canvasHeight - 4 || blob.minY <= zoneTop
        }
        var tallest = 0
        for blob in labeler.components where !isBorderRemain(blob) {
            if Double(blob.height) >= 0.4 * zoneHeight { tallest = max(tallest, blob.height) }
        }
        guard tallest > 0 else { return .rejected(.noDigits) }
        digits.removeAll(keepingCapacity: true)
        var bandCentre = 0.0
        for (index, blob) in labeler.components.enumerated()
        where !isBorderRemain(blob) && Double(blob.height) >= 0.8 * Double(tallest) {
            digits.append((blob, Int32(index + 1)))
            bandCentre += Double(blob.minY + blob.maxY) / 2
        }
        bandCentre /= Double(digits.count)
        // Other marks of some size are letters or a second row: this plate is not a lone number.
        let markArea = Int(0.012 * zoneHeight * Double(width))
        for (index, blob) in labeler.components.enumerated()
        where !isBorderRemain(blob) && blob.pixelCount >= markArea && !digits.contains(where: { $0.label == index + 1 })
        {
            return .rejected(.extraMarks)
        }
        guard digits.count <= 2,
            digits.allSatisfy({ abs(Double($0.blob.minY + $0.blob.maxY) / 2 - bandCentre) <= 0.12 * zoneHeight })
        else { return .rejected(.extraMarks) }
        digits.sort { $0.blob.minX < $1.blob.minX }
        var rowLeft = width
        var rowRight = 0
        var widest = 0
        for digit in digits {
            rowLeft = min(rowLeft, digit.blob.minX)
            rowRight = max(rowRight, digit.blob.maxX)
            widest = max(widest, digit.blob.width)
        }
        // Numerals are centred on the plate; a row off to one side has lost a digit.
        let rowMiddle = Double(rowLeft + rowRight + 1) / Double(width) - 1
        guard abs(rowMiddle) <= 0.16 else { return .rejected(.offCentre) }
        // A lone digit must sit in the middle of a plate of full width: a shadow or a frame edge that cuts a plate
        // in two leaves the "5" of a "15" or "25" — a wrong limit that the profile allows.
        if digits.count == 1 {
            guard abs(rowMiddle) <= 0.08, plateAspect >= Self.minimumLoneDigitAspect else { return .rejected(.offCentre) }
        }
        // The canvas is R2-1's 0.8 wide for its height: a plate seen narrower (at an angle, or a narrower plate) is
        // stretched across it, and so are its digits. Measured back at the plate's own proportions, a digit is
        // about 0.6 of its height wide and wider blobs are touching digits — but the wide "4" of the US road font,
        // stretched, looked like two (real photographs: "40" rejected on 15 of 50 missed plates).
        let stretch = plateAspect / (Double(width) / Double(Self.canvasHeight))
        var estimated = 0
        for digit in digits {
            let plateWidth = Double(digit.blob.width) * stretch
            estimated += max(1, Int((plateWidth / (0.62 * Double(digit.blob.height))).rounded()))
        }
        guard estimated <= 2 else { return .rejected(.extraMarks) }
        var layout = DigitLayout(estimatedDigitCount: estimated)
        for digit in digits {
            let blobWidth = Double(digit.blob.width)
            layout.appendGlyph(
                narrow: digits.count > 1 && blobWidth < 0.6 * Double(widest)
                    && blobWidth < 0.45 * Double(digit.blob.height))
        }
        return .digits(layout)
    }

    /// Copies each digit (its box plus one sample of edge, other blobs whitened) into ``ocrImage``, left to right
    /// with gaps of a fifth of the digit height and a margin of a third, luma stretched from `black` to `white`.
    private mutating func writeOCRImage(black: Int, white: Int) {
        let width = Self.canvasWidth
        let layout = OCRPictureLayout(
            digits: digits, canvasWidth: width, rows: Self.zoneTopRow...(Self.canvasHeight - 1))
        ocrWidth = layout.width
        ocrHeight = layout.height
        ocrImage.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 255, count: ocrWidth * ocrHeight) }
        let span = Double(max(1, white - black))
        var column = layout.margin
        for digit in digits {
            let columns = layout.sourceColumns(of: digit.blob)
            for sourceY in layout.sourceRows {
                for sourceX in columns {
                    let index = sourceY * width + sourceX
                    let label = labeler.labels[index]
                    guard label <= 0 || label == digit.label else { continue }
                    let stretched = (Double(luma[index]) - Double(black)) * 255 / span
                    ocrImage[(layout.margin + sourceY - layout.sourceRows.lowerBound) * ocrWidth + column + sourceX
                        - columns.lowerBound] = UInt8(max(0, min(255, stretched)).rounded())
                }
            }
            column += columns.count + layout.gap
        }
    }
}
