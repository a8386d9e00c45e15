import Foundation
import StreamLensCore
import Testing

@testable import StreamLensSigns

/// The reader's last resort: when the cropper cannot cut the digits out (soft strokes merge, a ring remain touches
/// them), the disc is read whole, in grey — only while the classifier names a value, and only that value can stand.
struct DiscReaderTests {
    /// A variant whose crop keeps only the middle fifth of the disc: the digits are cut off, so it (almost) never
    /// reaches OCR; frames where it still does are not counted.
    static let blindVariant = DiscVariant(innerRadiusShare: 0.2, binarisation: .otsu)

    /// Reads the generated set's signs at their largest with a reader whose only variant is ``blindVariant``,
    /// reading discs whole or not, with `textLine` or without: how many of those whose cut-out never reached OCR
    /// were read right and wrong.
    static func readWithBlindVariant(
        readsWholeDisc: Bool, textLine: TextLineRecogniser? = nil
    ) throws -> (right: Int, wrong: Int, tried: Int) {
        let set = try SignTestSet.shared.get()
        let engine = try TesseractEngine()
        // Only the recogniser under test may name the disc: the template matcher would read these clean discs too.
        var reader = DiscReader(variants: [blindVariant], matchesTemplates: false)
        reader.readsWholeDisc = readsWholeDisc
        var right = 0
        var wrong = 0
        var tried = 0
        try set.forEachSignAtItsLargest { _, sign, frame, candidate in
            let reading = reader.read(
                planes: frame.planes, candidate: candidate, engine: engine, textLine: textLine, profile: .europe,
                minimumConfidence: SpeedLimitConfiguration().minimumConfidence)
            guard reader.attempts.first?.text == nil else { return }
            tried += 1
            if let reading { if reading.value == sign.value { right += 1 } else { wrong += 1 } }
        }
        return (right, wrong, tried)
    }

    @Test func aDiscWhoseDigitsCannotBeCutOutIsReadWhole() throws {
        let whole = try Self.readWithBlindVariant(readsWholeDisc: true)
        print("whole-disc reads on the generated set: \(whole)")
        #expect(whole.tried >= 25)
        #expect(Double(whole.right) >= 0.5 * Double(whole.tried), "\(whole)")
        #expect(whole.wrong == 0, "\(whole)")
        let without = try Self.readWithBlindVariant(readsWholeDisc: false)
        #expect(without.right == 0 && without.wrong == 0, "\(without)")
    }

    @Test func theWholeDiscPictureIsTheDiscsMiddleBandWithAWhiteMargin() {
        let (cropper, prepared) = DiscVariantTests.cropperOnTheSign { $0.prepareWholeDisc(planes: $1, candidate: $2) }
        #expect(prepared)
        let side = DigitCropper.canvasSize
        let margin = side / 6
        // 90 % of the canvas wide, 70 % tall, plus the margin on every side.
        #expect(cropper.ocrWidth == side * 95 / 100 - side * 5 / 100 + 2 * margin)
        #expect(cropper.ocrHeight == side * 85 / 100 - side * 15 / 100 + 2 * margin)
        let picture = cropper.ocrImage
        func pixel(_ x: Int, _ y: Int) -> UInt8 { picture[y * cropper.ocrWidth + x] }
        #expect(pixel(0, 0) == 255 && pixel(cropper.ocrWidth - 1, cropper.ocrHeight - 1) == 255)
        // The right glyph's left stroke (disc x +3…+7 px of 29.6 px inner radius) is black; the paper between the
        // glyphs' inner holes is white. Canvas sample = (offset / (1.03 · inner radius) + 1) · side / 2.
        let scale = Double(side) / (2 * 1.03 * 0.74 * DiscVariantTests.radius)
        func column(_ offset: Double) -> Int { Int((offset * scale + Double(side) / 2).rounded()) - side * 5 / 100 + margin }
        let middleRow = side / 2 - side * 15 / 100 + margin
        #expect(pixel(column(4.5), middleRow) < 60, "\(pixel(column(4.5), middleRow))")
        #expect(pixel(column(-1.5), middleRow) > 200, "\(pixel(column(-1.5), middleRow))")
    }
}
