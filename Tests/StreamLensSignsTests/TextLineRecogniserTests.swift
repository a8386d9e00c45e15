import Foundation
import StreamLensCore
import Testing

@testable import StreamLensSigns

/// The reader's third recogniser: PP-OCRv4's text-line network (installed by scripts/models/install-text-line-model.sh,
/// which scripts/setup.sh runs) reading the grey band across a disc's middle.
struct TextLineRecogniserTests {
    /// The installed model, or a failed expectation naming the script that installs it.
    static func installedRecogniser() throws -> TextLineRecogniser {
        let path = try #require(
            TextLineRecogniser.installedModel(),
            "no text-line model in \(TextLineRecogniser.defaultModelPaths()): run scripts/models/install-text-line-model.sh")
        return try TextLineRecogniser(modelPath: path)
    }

    /// `body` given the path of a temporary file that is not a model (removed afterwards).
    static func withFileThatIsNotAModel(_ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-model-\(UUID().uuidString).onnx")
            .path
        try Data("not an onnx model".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    @Test func theBandIsTheDiscsMiddleScaledToTheNetworksHeight() {
        var band = TextLineBand()
        let prepared = DiscVariantTests.onGreyPicture { planes in
            DiscVariantTests.drawSign(planes, gap: 0)
            return band.prepare(planes: planes, candidate: DiscVariantTests.candidate)
        }
        #expect(prepared)
        // ±0.85 by ±0.55 of the inner radius: 48 rows and 48 · 0.85 / 0.55 columns.
        #expect(band.width == 74)
        func pixel(_ x: Int, _ y: Int) -> UInt8 { band.pixels[y * band.width + x] }
        // Band column of a disc offset: (offset + half width) / (2 · half width) · width.
        let halfWidth = DiscVariantTests.candidate.innerRadiusX * TextLineBand.halfWidthShare
        func column(_ offset: Double) -> Int { Int((offset + halfWidth) / (2 * halfWidth) * Double(band.width)) }
        let middle = TextLineRecogniser.inputHeight / 2
        // The right glyph's left stroke (+3…+7 px) is ink; the paper between the glyphs (−1.5 px) and the paper
        // above the glyphs (they stand ±13 px, the band ±16 px) are white.
        #expect(pixel(column(4.5), middle) < 60, "\(pixel(column(4.5), middle))")
        #expect(pixel(column(-1.5), middle) > 200, "\(pixel(column(-1.5), middle))")
        #expect(pixel(column(4.5), 0) > 200, "\(pixel(column(4.5), 0))")
    }

    @Test func aBandThatLeavesTheFrameIsNotPrepared() {
        var band = TextLineBand()
        var atTheEdge = DiscVariantTests.candidate
        atTheEdge.centerX = 10
        let prepared = DiscVariantTests.onGreyPicture { band.prepare(planes: $0, candidate: atTheEdge) }
        #expect(!prepared)
    }

    @Test func aFlatBandIsNotWorthAReadAndAnInkedOneIs() {
        var band = TextLineBand()
        // A plain white disc: nothing inside to read.
        let blank = DiscVariantTests.onGreyPicture { planes in
            DiscVariantTests.paintPlainDisc(planes, colour: SyntheticSign.white)
            return band.prepare(planes: planes, candidate: DiscVariantTests.candidate)
        }
        #expect(!blank && band.spread < TextLineBand.minimumSpread, "spread \(band.spread)")
        let inked = DiscVariantTests.onGreyPicture { planes in
            DiscVariantTests.drawSign(planes, gap: 0)
            return band.prepare(planes: planes, candidate: DiscVariantTests.candidate)
        }
        #expect(inked && band.spread > 150, "spread \(band.spread)")
    }

    @Test func aBlankPictureReadsAsNothing() throws {
        let recogniser = try Self.installedRecogniser()
        let blank = [UInt8](repeating: 200, count: 74 * TextLineRecogniser.inputHeight)
        let read = try #require(
            blank.withUnsafeBufferPointer {
                recogniser.read(gray: $0.baseAddress!, width: 74, height: TextLineRecogniser.inputHeight)
            })
        #expect(read.text.isEmpty, "\(read)")
        #expect(read.leastConfidence == 0)
    }

    @Test func aFileThatIsNotAModelFailsWithOneLineNamingIt() throws {
        try Self.withFileThatIsNotAModel { path in
            do {
                _ = try TextLineRecogniser(modelPath: path)
                Issue.record("a text file loaded as a model")
            } catch {
                let message = "\(error)"
                #expect(message.contains(path) && message.contains("install-text-line-model.sh"), "\(message)")
                #expect(!message.contains("\n"), "\(message)")
            }
        }
    }

    @Test func aMissingModelFileFailsTheStageBeforeAnyFrame() {
        do {
            _ = try SpeedLimitSetup.make(
                region: "eu", minimumConfidence: 0.7, expiry: .seconds(10), events: nil, subtitles: nil,
                textLineModel: .file("/nonexistent/text-line.onnx"))
            Issue.record("a stage was built with a missing model")
        } catch {
            #expect("\(error)".contains("/nonexistent/text-line.onnx") && "\(error)".contains("no such file"))
        }
    }

    @Test func aNamedFileThatIsNotAModelFailsTheStageBeforeAnyFrame() throws {
        try Self.withFileThatIsNotAModel { path in
            do {
                _ = try SpeedLimitSetup.make(
                    region: "eu", minimumConfidence: 0.7, expiry: .seconds(10), events: nil, subtitles: nil,
                    textLineModel: .file(path))
                Issue.record("a stage was built with a broken model")
            } catch {
                #expect("\(error)".contains(path) && !"\(error)".contains("\n"), "\(error)")
            }
        }
    }

    @Test func theOptionNamesTheModel() {
        #expect(TextLineModel(option: nil) == .installed)
        #expect(TextLineModel(option: "off") == .off)
        #expect(TextLineModel(option: "/models/x.onnx") == .file("/models/x.onnx"))
    }

    /// The generated signs at their largest, read by a reader whose only variant cuts the digits off
    /// (``DiscReaderTests/blindVariant``) and that does not read discs whole: only the text line can name them.
    @Test func discsThatTesseractCannotReadAreReadAsALineOfText() throws {
        let withTextLine = try DiscReaderTests.readWithBlindVariant(
            readsWholeDisc: false, textLine: Self.installedRecogniser())
        print("text-line reads on the generated set: \(withTextLine)")
        #expect(withTextLine.tried >= 25)
        #expect(Double(withTextLine.right) >= 0.8 * Double(withTextLine.tried), "\(withTextLine)")
        #expect(withTextLine.wrong == 0, "\(withTextLine)")
        let without = try DiscReaderTests.readWithBlindVariant(readsWholeDisc: false)
        #expect(without.right == 0 && without.wrong == 0, "\(without)")
    }
}

/// When Tesseract and the classifier decide nothing, a text-line read stands only if it is valid, not contradicted by
/// the standard crop's read, and sure — or less sure with the classifier naming the same value.
struct TextLineAgreementTests {
    let agreement = RecogniserAgreement()

    func decide(
        _ text: String, _ confidence: Double, standardRead: SpeedReading? = nil,
        classifier: SpeedDiscClassifier.Verdict? = nil
    ) -> Int? {
        agreement.decide(
            textLine: TextLineRecogniser.Read(text: text, leastConfidence: confidence), profile: .europe,
            standardRead: standardRead, classifier: classifier)?.value
    }

    @Test func theTextLinesOwnThresholdDecidesWhateverTheCandidatesMinimum() {
        // Faint rings ask 0.95 of Tesseract; a text-line read needs its own 0.9 (the decision takes no minimum).
        #expect(decide("90", 0.93) == 90)
        #expect(decide("90", 0.85) == nil)
    }

    @Test func aSureValidReadStands() {
        #expect(decide("80", 0.95) == 80)
        #expect(decide("120", 0.99) == 120)
    }

    @Test func anUnsureInvalidOrPartlyUnknownReadDoesNot() {
        #expect(decide("80", 0.85) == nil)
        #expect(decide("45", 0.99) == nil)
        #expect(decide("8?", 0.99) == nil)
        #expect(decide("", 0) == nil)
    }

    /// A dim GTSDB "120" (`sign_149`): on two sightings the text line read "120" at 0.53 and 0.78
    /// and the classifier named 120 at 0.79, Tesseract finding too little contrast to read.
    @Test func anUnsureReadStandsWhenTheClassifierNamesTheSameValue() {
        let sure120 = SpeedDiscClassifier.Verdict(value: 120, confidence: 0.8)
        #expect(decide("120", 0.6, classifier: sure120) == 120)
        #expect(decide("120", 0.6) == nil)
        // The classifier unsure, naming another value or no speed value; the read too unsure even so.
        #expect(decide("120", 0.6, classifier: SpeedDiscClassifier.Verdict(value: 120, confidence: 0.6)) == nil)
        #expect(decide("120", 0.6, classifier: SpeedDiscClassifier.Verdict(value: 100, confidence: 0.95)) == nil)
        #expect(decide("120", 0.6, classifier: SpeedDiscClassifier.Verdict(value: nil, confidence: 0.95)) == nil)
        #expect(decide("120", 0.4, classifier: sure120) == nil)
        // The standard crop's read of another value still silences it.
        #expect(
            decide("120", 0.6, standardRead: SpeedReading(value: 20, confidence: 0.6), classifier: sure120) == nil)
    }

    @Test func theStandardCropReadingAnotherValueSilencesIt() {
        #expect(decide("80", 0.99, standardRead: SpeedReading(value: 60, confidence: 0.6)) == nil)
        #expect(decide("80", 0.99, standardRead: SpeedReading(value: 60, confidence: 0.3)) == 80)
        #expect(decide("80", 0.99, standardRead: SpeedReading(value: 80, confidence: 0.6)) == 80)
    }

    /// A read too unsure to stand (0.6–0.9) is kept for the track to pool (``SignTrack/UnsureTextLine``) — unless it
    /// would have stood, is less sure still, names no valid value, or the standard crop reads another value.
    @Test func anUnsureReadIsKeptForTheTrackUnlessSomethingRulesItOut() {
        func unsure(_ text: String, _ confidence: Double, standardRead: SpeedReading? = nil) -> Int? {
            agreement.unsureTextLineReading(
                TextLineRecogniser.Read(text: text, leastConfidence: confidence), profile: .europe,
                standardRead: standardRead)?.value
        }
        #expect(unsure("80", 0.7) == 80)
        #expect(unsure("80", 0.6) == 80)
        #expect(unsure("80", 0.55) == nil, "under the floor: a wrong '60' on a '50' was read so, at 0.46-0.48")
        #expect(unsure("80", 0.95) == nil, "sure: it decides on its own")
        #expect(unsure("85", 0.7) == nil)
        #expect(unsure("8?", 0.7) == nil)
        #expect(unsure("80", 0.7, standardRead: SpeedReading(value: 60, confidence: 0.6)) == nil)
        #expect(unsure("80", 0.7, standardRead: SpeedReading(value: 80, confidence: 0.6)) == 80)
    }
}
