import Foundation
internal import CTesseract

/// One Tesseract instance set up to read a single line of digits, through Tesseract's C API.
///
/// Created with `TessBaseAPICreate` + `TessBaseAPIInit3` on the English data of `tesseract-ocr-eng`, page
/// segmentation "single line" and a character whitelist; `deinit` is the only release site (`TessBaseAPIEnd` +
/// `TessBaseAPIDelete`). Loading takes tens of milliseconds, so an engine is made once and reused for every
/// candidate.
///
/// ## Thread Safety
/// A Tesseract instance must not be used from two threads at once. The engine is not synchronized: keep one per
/// analysis thread (``SpeedLimitStage`` creates its own on the thread that calls `analyze`, when the first sign
/// candidate needs reading).
final class TesseractEngine {
    /// Characters Tesseract may output: digits, and the letters it confuses them with so that ``SpeedReading`` can
    /// repair them (O→0, S→5, B→8, I/l→1) or reject a read that holds real letters.
    static let whitelist = "0123456789OSBIl"

    private let handle: OpaquePointer
    /// What ``read(gray:width:height:bytesPerRow:)`` may output.
    private let whitelist: String

    /// Whether Tesseract's OpenMP regions run on the calling thread (see CTesseract's header: four OpenMP threads per
    /// LSTM step cost a small digit line about five times the single thread's time on a busy two-core machine).
    /// libgomp keeps this setting per thread, so every read sets it for its own thread (a store, no cost). The process
    /// uses OpenMP for nothing else (OpenCV uses TBB).

    /// Whether Tesseract's OpenMP regions run on the calling thread only (no OpenMP team is started), for this thread.
    static var recognitionIsSingleThreaded: Bool { omp_get_max_active_levels() == 0 }

    /// Folders searched for `eng.traineddata` when no path is given: `TESSDATA_PREFIX`, then Debian 12's
    /// tesseract-ocr-eng location, then older and other layouts.
    static func defaultSearchPaths() -> [String] {
        var paths: [String] = []
        if let prefix = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], !prefix.isEmpty {
            paths.append(prefix)
            paths.append((prefix as NSString).appendingPathComponent("tessdata"))
        }
        paths += [
            "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
            "/usr/share/tessdata", "/usr/local/share/tessdata",
        ]
        return paths
    }

    /// The folder holding `eng.traineddata`: `tessdataPath`, or the first of the ``defaultSearchPaths()`` that has it.
    /// Cheap (no Tesseract call), so a missing language file can fail a run before the engine is needed.
    static func dataFolder(tessdataPath: String? = nil) throws -> String {
        let candidates = tessdataPath.map { [$0] } ?? Self.defaultSearchPaths()
        guard
            let folder = candidates.first(where: {
                FileManager.default.fileExists(atPath: ($0 as NSString).appendingPathComponent("eng.traineddata"))
            })
        else { throw SignsError.tessdataMissing(searched: candidates) }
        return folder
    }

    /// Starts Tesseract with English data found in `tessdataPath` (or the ``defaultSearchPaths()``).
    convenience init(tessdataPath: String? = nil, whitelist: String = TesseractEngine.whitelist) throws {
        try self.init(dataFolder: Self.dataFolder(tessdataPath: tessdataPath), whitelist: whitelist)
    }

    /// Starts Tesseract with the English data in `folder` (see ``dataFolder(tessdataPath:)``).
    init(dataFolder folder: String, whitelist: String = TesseractEngine.whitelist) throws {
        guard let handle = TessBaseAPICreate() else { throw SignsError.tesseractInitFailed(path: folder, language: "eng") }
        // Tesseract reports what it cannot configure on stderr; the reader needs none of that chatter.
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        guard TessBaseAPIInit3(handle, folder, "eng") == 0 else {
            // Not adopted yet: `deinit` will not run for it, so it is released here.
            TessBaseAPIDelete(handle)
            throw SignsError.tesseractInitFailed(path: folder, language: "eng")
        }
        _ = TessBaseAPISetVariable(handle, "tessedit_char_whitelist", whitelist)
        TessBaseAPISetPageSegMode(handle, PSM_SINGLE_LINE)
        self.handle = handle
        self.whitelist = whitelist
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Reads an 8-bit grey image (`width` × `height`, `bytesPerRow` apart): the text with whitespace removed and
    /// Tesseract's mean confidence (0…1).
    func read(gray: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) -> (text: String, confidence: Double) {
        recognise(gray: gray, width: width, height: height, bytesPerRow: bytesPerRow)
    }

    /// Capital letters a sign's words may hold.
    static let wordsWhitelist = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

    /// Reads a block of capital words (one or more lines, e.g. "SPEED" over "LIMIT") in an 8-bit grey image; the
    /// engine returns to reading single lines of digits afterwards.
    func readWords(gray: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) -> (text: String, confidence: Double) {
        _ = TessBaseAPISetVariable(handle, "tessedit_char_whitelist", Self.wordsWhitelist)
        _ = TessBaseAPISetVariable(handle, "tessedit_do_invert", "0")
        TessBaseAPISetPageSegMode(handle, PSM_SINGLE_BLOCK)
        defer {
            _ = TessBaseAPISetVariable(handle, "tessedit_do_invert", "1")
            _ = TessBaseAPISetVariable(handle, "tessedit_char_whitelist", whitelist)
            TessBaseAPISetPageSegMode(handle, PSM_SINGLE_LINE)
        }
        return recognise(gray: gray, width: width, height: height, bytesPerRow: bytesPerRow)
    }

    private func recognise(gray: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) -> (text: String, confidence: Double) {
        omp_set_max_active_levels(0)
        TessBaseAPISetImage(handle, gray, Int32(width), Int32(height), 1, Int32(bytesPerRow))
        // Pictures are normalized to characters 30–40 px high, which is what Tesseract expects at 300 dpi.
        TessBaseAPISetSourceResolution(handle, 300)
        guard let cText = TessBaseAPIGetUTF8Text(handle) else { return ("", 0) }
        defer { TessDeleteText(cText) }
        let text = String(cString: cText).filter { !$0.isWhitespace }
        let confidence = Double(TessBaseAPIMeanTextConf(handle)) / 100
        return (text, confidence)
    }
}
