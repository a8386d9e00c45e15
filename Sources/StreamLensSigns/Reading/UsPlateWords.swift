import StreamLensCore

/// What the words above a US plate's number say: R2-1 reads "SPEED LIMIT"; R2-4 ("MINIMUM SPEED 40") is laid out
/// the same way with a valid value in the same place, and only its words tell it apart.
enum UsPlateWords: Equatable, Sendable {
    /// Something like "LIMIT" is there and nothing else but "SPEED".
    case speedLimit
    /// Other words were read: "MINIMUM SPEED", "WEIGHT LIMIT", "TRUCKS"… — not a speed limit.
    case otherWords(String)
    /// Too small, blurred or faint to tell.
    case unreadable

    /// Letters left over after "SPEED" and "LIMIT" that make another word rather than misread pieces of those two
    /// (Tesseract reads a soft "LIMIT" as "LMT", "LUT", "LINTT", a soft "SPEED" as "SPEEC", "SPEEE"). Thin letters
    /// (I, L, J) do not count: the plate's border and a pole beside it read as them.
    static let otherWordLetters = 4
    /// Tesseract's mean confidence over a block of sign words is low even when it reads them right (0.45–0.5 for a
    /// clean "SPEED LIMIT"); a blurred band reads as a few letters under 0.2.
    static let minimumConfidence = 0.25

    /// Judges Tesseract's read of the words band: `text` (whitespace removed) at `confidence` (0…1).
    static func judge(text: String, confidence: Double) -> UsPlateWords {
        var letters = Array(text.uppercased().filter { $0.isLetter })
        // Up to two edits: a thin I or M of "LIMIT" lost or changed, a soft "SPEED" read "SFELD" or "SPFEC" (one
        // edit vetoed a generated 15 and 40 whose words read so; other words keep their own letters either way).
        let hasLimit = removeNearMatch(of: "LIMIT", maximumEdits: 2, from: &letters) != nil
        let speed = removeNearMatch(of: "SPEED", maximumEdits: 2, from: &letters)
        let otherLetters = letters.filter { !"ILJ".contains($0) }.count
        // "SPEED" first and one word of LIMIT's size after it is a "LIMIT" misread past two edits (real plates read
        // "SPEEDCRIME", "SPEEDJUNAT", "SPEEDAMALT"): other signs put their words before "SPEED" ("MINIMUM SPEED"),
        // or more than one word after it ("SPEED ZONE AHEAD"). Not a confirmation either.
        if !hasLimit, let speed, letters[..<speed].allSatisfy({ "ILJ".contains($0) }),
            limitSizedWord.contains(otherLetters)
        {
            return .unreadable
        }
        if otherLetters >= otherWordLetters, confidence >= minimumConfidence { return .otherWords(String(letters)) }
        return hasLimit ? .speedLimit : .unreadable
    }

    /// Letters (thin ones aside) of one word read in LIMIT's place.
    private static let limitSizedWord = 4...6

    /// Removes the run of letters closest to `word` (fewest letters changed, added or lost; of equal ones the first,
    /// runs of the word's length first) when it is within `maximumEdits`; returns where it began, or nil. The closest,
    /// not the first: in "MINIMUMSPEED" a two-edit "MSPEE" comes before the exact "SPEED".
    private static func removeNearMatch(of word: String, maximumEdits: Int, from letters: inout [Character]) -> Int? {
        let word = Array(word)
        let lengths = [word.count] + (1...maximumEdits).flatMap { [word.count - $0, word.count + $0] }
        var best: (range: Range<Int>, edits: Int)?
        for length in lengths where length <= letters.count {
            for start in 0...(letters.count - length) {
                let edits = editDistance(letters[start..<(start + length)], word)
                if edits <= maximumEdits, edits < best?.edits ?? Int.max { best = (start..<(start + length), edits) }
            }
        }
        guard let best else { return nil }
        letters.removeSubrange(best.range)
        return best.range.lowerBound
    }

    /// Levenshtein distance: letters changed, added or lost to turn `a` into `b`.
    private static func editDistance(_ a: ArraySlice<Character>, _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        var current = previous
        for (i, letter) in a.enumerated() {
            current[0] = i + 1
            for j in 0..<b.count {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (letter == b[j] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// The words band of a US plate — from its top to where the number starts — resampled so that R2-1's capitals are
/// about 21 px high (Tesseract scales each text line to its own height: larger pictures only cost time), contrast-
/// stretched to dark letters on white, with a white margin.
///
/// ## Thread Safety
/// Not synchronized: keeps its picture between calls. Use one per analysis thread.
struct UsPlateWordsPicture {
    /// The band, as shares of the plate (the white area inside the border): R2-1's "SPEED" starts at about 0.07,
    /// "LIMIT" ends at about 0.44, and the number zone of ``UsDigitCropper`` starts at 0.47.
    static let bandTop = 0.02
    static let bandBottom = 0.46
    static let bandInset = 0.03
    /// Picture height of the band without margins: R2-1's capitals (0.145 of the plate) come out ~21 px high.
    static let bandHeight = 64
    static let margin = 10
    /// Plates less high than this (analysis pixels) show their words as a few grey pixels: not read.
    static let minimumPlateHeight = 36.0
    static let maximumWidth = 320

    private(set) var image = [UInt8](repeating: 255, count: (maximumWidth + 2 * margin) * (bandHeight + 2 * margin))
    private(set) var width = 0
    private(set) var height = 0
    private var histogram = LumaHistogram()

    /// Fills ``image`` with the words band of `plate` (analysis-frame luma coordinates) from `luma`.
    mutating func prepare(luma: Plane, plate: BoundingBox) {
        let top = plate.y + Self.bandTop * plate.height
        let bandSourceHeight = (Self.bandBottom - Self.bandTop) * plate.height
        let left = plate.x + Self.bandInset * plate.width
        let bandSourceWidth = (1 - 2 * Self.bandInset) * plate.width
        let step = bandSourceHeight / Double(Self.bandHeight)
        let bandWidth = min(Self.maximumWidth, max(1, Int((bandSourceWidth / step).rounded())))
        width = bandWidth + 2 * Self.margin
        height = Self.bandHeight + 2 * Self.margin
        let stepX = bandSourceWidth / Double(bandWidth)

        // Sample the band once, then stretch it in place between its darkest and brightest levels (3rd and 97th
        // percentiles of every other pixel in both directions).
        image.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 255, count: width * height) }
        histogram.removeAll()
        var samples = 0
        for y in 0..<Self.bandHeight {
            let sourceY = top + (Double(y) + 0.5) * step - 0.5
            let row = (y + Self.margin) * width + Self.margin
            for x in 0..<bandWidth {
                let value = UInt8(luma.bilinear(x: left + (Double(x) + 0.5) * stepX - 0.5, y: sourceY).rounded())
                image[row + x] = value
                if x % 2 == 0, y % 2 == 0 {
                    histogram.add(value)
                    samples += 1
                }
            }
        }
        let dark = Int(histogram.percentile(total: samples, share: 0.03))
        let span = max(1, Int(histogram.percentile(total: samples, share: 0.97)) - dark)
        for y in 0..<Self.bandHeight {
            let row = (y + Self.margin) * width + Self.margin
            for index in row..<(row + bandWidth) {
                image[index] = UInt8(max(0, min(255, ((Int(image[index]) - dark) * 255 + span / 2) / span)))
            }
        }
    }
}
