import StreamLensCore

/// The US half of the reader: white "SPEED LIMIT" plates (``UsSignLocator``) → their number (``UsDigitCropper``) →
/// Tesseract → the profile's values → the words above the number (``UsPlateWords``: "MINIMUM SPEED" rules a plate
/// out). It turns a frame into the same ``SignSighting``s as the red-ring path, so tracking, voting, events and the
/// current limit are shared by both.
///
/// ## Thread Safety
/// Not synchronized: owns the locator's and the cropper's scratch buffers. ``SpeedLimitStage`` keeps one and calls
/// it from its analysis thread only.
final class UsSignReader {
    private var locator = UsSignLocator()
    private var cropper = UsDigitCropper()
    private var words = UsPlateWordsPicture()

    /// Candidates the locator may hand over per frame.
    var maximumCandidates: Int { locator.maximumCandidates }

    /// Locates the plates in `frame`, reads those whose track (`tracker`) still wants reads, and appends one
    /// sighting per plate. `engine` is asked for only when a plate's number is about to be read (the stage starts
    /// Tesseract then, unless it was started in background).
    func collectSightings(
        in frame: AnalysisFrame, engine startedEngine: () throws -> TesseractEngine,
        configuration: SpeedLimitConfiguration, clock: any MonotonicClock, timings: OCRTimings,
        tracker: SignTracker, into sightings: inout [SignSighting]
    ) throws {
        let scale = frame.scaleToSource
        locator.locate(in: frame.planes)
        for candidate in locator.candidates {
            let box = candidate.box
            var reading: SpeedReading?
            var words: UsPlateWords?
            var wasRead = false
            let wanted = tracker.wantsRead(at: box)
            if !wanted { timings.recordNotRead() }
            if wanted, case .digits(let layout) = cropper.prepare(planes: frame.planes, candidate: candidate) {
                wasRead = true
                let engine = try startedEngine()
                let started = clock.now()
                let (text, confidence) = cropper.ocrImage.withUnsafeBufferPointer {
                    engine.read(
                        gray: $0.baseAddress!, width: cropper.ocrWidth, height: cropper.ocrHeight,
                        bytesPerRow: cropper.ocrWidth)
                }
                if confidence >= configuration.minimumConfidence {
                    reading = SpeedTextInterpreter.interpret(
                        text: text, confidence: confidence, layout: layout, profile: configuration.profile)
                }
                // The words are read only when the number made a limit (R2-4 "MINIMUM SPEED 40" has a valid
                // value), on plates large enough to show them, until they read "SPEED LIMIT" once on its track.
                if reading != nil, candidate.plate.height >= UsPlateWordsPicture.minimumPlateHeight,
                    !tracker.wordsSayLimit(at: box)
                {
                    words = readWords(frame: frame, plate: candidate.plate, engine: engine)
                    if case .otherWords = words { reading = nil }
                }
                timings.record(clock.now() - started)
            }
            sightings.append(
                SignSighting(
                    analysisBox: box, sourceBox: box.scaled(x: scale.x, y: scale.y), reading: reading,
                    words: words, wasRead: wasRead))
        }
    }

    /// What the words above the number say. A plate too small or blurred to tell is not ruled out (its number
    /// still has to win the vote).
    private func readWords(frame: AnalysisFrame, plate: BoundingBox, engine: TesseractEngine) -> UsPlateWords {
        words.prepare(luma: frame.planes.y, plate: plate)
        let (text, confidence) = words.image.withUnsafeBufferPointer {
            engine.readWords(gray: $0.baseAddress!, width: words.width, height: words.height, bytesPerRow: words.width)
        }
        return UsPlateWords.judge(text: text, confidence: confidence)
    }
}
