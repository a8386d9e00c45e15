import StreamLensCore

/// The US half of the reader: white "SPEED LIMIT" plates (``UsSignLocator``) → their number (``UsDigitCropper``) →
/// Tesseract → the profile's values. It turns a frame into the same ``SignSighting``s as the red-ring path, so
/// tracking, voting, events and the current limit are shared by both.
///
/// ## Thread Safety
/// Not synchronized: owns the locator's and the cropper's scratch buffers. ``SpeedLimitStage`` keeps one and calls
/// it from its analysis thread only.
final class UsSignReader {
    private var locator = UsSignLocator()
    private var cropper = UsDigitCropper()

    /// Candidates the locator may hand over per frame.
    var maximumCandidates: Int { locator.maximumCandidates }

    /// Locates the plates in `frame`, reads those that `wantsRead` asks for, and appends one sighting per plate.
    /// `engine` is asked for only when a plate's number is about to be read (the stage starts Tesseract on demand).
    func collectSightings(
        in frame: AnalysisFrame, engine startedEngine: () throws -> TesseractEngine,
        configuration: SpeedLimitConfiguration, clock: any MonotonicClock, timings: OCRTimings,
        wantsRead: (BoundingBox) -> Bool, into sightings: inout [SignSighting]
    ) throws {
        let scale = frame.scaleToSource
        locator.locate(in: frame.planes)
        for candidate in locator.candidates {
            let box = candidate.box
            var reading: SpeedReading?
            if wantsRead(box), case .digits(let layout) = cropper.prepare(planes: frame.planes, candidate: candidate) {
                let engine = try startedEngine()
                let started = clock.now()
                let (text, confidence) = cropper.ocrImage.withUnsafeBufferPointer {
                    engine.read(
                        gray: $0.baseAddress!, width: cropper.ocrWidth, height: cropper.ocrHeight,
                        bytesPerRow: cropper.ocrWidth)
                }
                timings.record(clock.now() - started)
                if confidence >= configuration.minimumConfidence {
                    reading = SpeedTextInterpreter.interpret(
                        text: text, confidence: confidence, layout: layout, profile: configuration.profile)
                }
            }
            sightings.append(
                SignSighting(analysisBox: box, sourceBox: box.scaled(x: scale.x, y: scale.y), reading: reading))
        }
    }
}
