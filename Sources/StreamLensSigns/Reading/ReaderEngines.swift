import Foundation

/// The reader's two slow-to-start engines — Tesseract and the text-line recogniser's model — started together on a
/// thread of their own, so that the first sign candidate does not stall the analysis lane while they load (about
/// 0.2 s of CPU: Tesseract's ambiguity tables and LSTM, OpenCV's parse of the model). In a frame-accurate run the
/// whole pipeline waits for that lane, so a load on the lane is a stall of the video.
///
/// ## Thread Safety
/// The loading thread alone writes the results, before it signals; ``take()`` reads them only after that signal.
/// The engines then belong to the thread that took them.
final class ReaderEngines: @unchecked Sendable {
    /// What the loading thread made.
    struct Loaded {
        /// The Tesseract engine, or why it could not start (the stage's first read then throws it).
        var engine: Result<TesseractEngine, any Error>
        /// The text-line recogniser, or why its model could not be loaded (the reader then goes on without it); nil
        /// when the run has no model.
        var textLine: Result<TextLineRecogniser, any Error>?
    }

    private let done = DispatchSemaphore(value: 0)
    private var loaded: Loaded?

    /// Starts loading Tesseract's English data from `tessdataFolder` and, when given, the model at `textLineModelPath`.
    init(tessdataFolder: String, textLineModelPath: String?) {
        let thread = Thread { [self] in
            loaded = Loaded(
                engine: Result { try TesseractEngine(dataFolder: tessdataFolder) },
                textLine: textLineModelPath.map { path in Result { try TextLineRecogniser(modelPath: path) } })
            done.signal()
        }
        thread.name = "streamlens-reader-engines"
        thread.start()
    }

    /// Waits until both are loaded (reading local files: it ends) and hands them over; call it once.
    func take() -> Loaded {
        done.wait()
        return loaded!
    }
}
