/// Errors of the speed-limit sign reader.
public enum SignsError: Error, Sendable, CustomStringConvertible {
    /// No `eng.traineddata` was found in any of the searched folders.
    case tessdataMissing(searched: [String])
    /// Tesseract refused to start with the given language data.
    case tesseractInitFailed(path: String, language: String)
    /// The WebVTT subtitle file could not be created.
    case cannotOpenSubtitles(path: String, reason: String)
    /// The text-line recogniser's model file is missing or is not such a model.
    case textLineModelUnusable(path: String, reason: String)

    public var description: String {
        switch self {
        case .tessdataMissing(let searched):
            "cannot find Tesseract language data 'eng.traineddata' in \(searched.joined(separator: ", ")): "
                + "install tesseract-ocr-eng or set TESSDATA_PREFIX"
        case .tesseractInitFailed(let path, let language):
            "Tesseract could not load language '\(language)' from '\(path)': reinstall tesseract-ocr-\(language)"
        case .cannotOpenSubtitles(let path, let reason):
            "cannot write subtitles to '\(path)': \(reason); check that the folder exists, is writable and has room"
        case .textLineModelUnusable(let path, let reason):
            // Worded for both callers: the command line and the streamlenssigns element.
            "cannot use the text-line model '\(path)' (\(reason)): run scripts/models/install-text-line-model.sh, or turn "
                + "the model off (--text-line-model off; streamlenssigns: text-line-model=off)"
        }
    }
}
