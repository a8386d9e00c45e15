import Foundation
import StreamLensCore
internal import COpenCVSigns

/// The reader's third recogniser: a text-line network (PP-OCRv4's recogniser, run by OpenCV's DNN module) that reads
/// the grey band across a disc's middle as a line of text — no binarisation, no cut-out glyphs — so it reads the soft
/// and motion-blurred digits that the cropper has to reject.
///
/// The model comes from the rapidocr-onnxruntime package (PyPI, Apache-2.0), rewritten for OpenCV 4.6 by
/// scripts/models/install-text-line-model.sh; ``defaultModelPaths()`` says where that script puts it.
///
/// Owns the bridge handle; `deinit` is its only release site.
///
/// ## Thread Safety
/// Not synchronized: the handle keeps OpenCV's network and buffers. One recogniser per analysis thread.
final class TextLineRecogniser {
    /// What one band reads as.
    struct Read: Equatable, Sendable {
        /// Digits as "0"…"9", any other character as "?".
        var text: String
        /// The least sure character's probability (0…1); 0 for an empty read.
        var leastConfidence: Double
    }

    /// Columns of the network's input (the model's file name says it: text-line-48x80.onnx); a band is at most this
    /// wide once scaled to ``inputHeight`` rows. 80 columns fit "130" with room (10 CTC steps) and cost half of 160.
    static let inputWidth = 80
    static let inputHeight = Int(SLCV_TEXT_LINE_INPUT_HEIGHT)
    static let modelFileName = "text-line-48x80.onnx"

    /// Where the model is looked for, in order: `STREAMLENS_TEXT_LINE_MODEL`, then the folders that
    /// scripts/models/install-text-line-model.sh writes to (`STREAMLENS_MODEL_DIR`, /usr/local/share/streamlens,
    /// ~/.local/share/streamlens), then /usr/share/streamlens.
    static func defaultModelPaths() -> [String] {
        let environment = ProcessInfo.processInfo.environment
        var paths: [String] = []
        if let path = environment["STREAMLENS_TEXT_LINE_MODEL"], !path.isEmpty { paths.append(path) }
        let folders = (ModelFolders.given(environment: environment).map { [$0] } ?? [])
            + ModelFolders.standard(environment: environment)
        return paths + folders.map { ($0 as NSString).appendingPathComponent(modelFileName) }
    }

    /// The first of ``defaultModelPaths()`` that exists, or nil.
    static func installedModel() -> String? {
        defaultModelPaths().first { FileManager.default.fileExists(atPath: $0) }
    }

    private let handle: OpaquePointer
    private var result = slcv_text_line_read()
    private var errorBuffer = [CChar](repeating: 0, count: 256)

    /// Loads the model at `path`; throws ``SignsError/textLineModelUnusable(path:reason:)`` when it is not one.
    init(modelPath path: String) throws {
        var handle: OpaquePointer?
        let status = errorBuffer.withUnsafeMutableBufferPointer {
            slcv_text_line_recogniser_create(path, Int32(Self.inputWidth), &handle, $0.baseAddress, $0.count)
        }
        guard status == SLCV_OK, let handle else {
            let reason = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw SignsError.textLineModelUnusable(path: path, reason: reason)
        }
        self.handle = handle
    }

    deinit { slcv_text_line_recogniser_destroy(handle) }

    /// Reads a `width` × `height` grey picture (`width` bytes per row), or nil when OpenCV fails (the candidate then
    /// has no third opinion).
    func read(gray: UnsafePointer<UInt8>, width: Int, height: Int) -> Read? {
        let status = errorBuffer.withUnsafeMutableBufferPointer { error in
            slcv_text_line_recogniser_read(
                handle, gray, Int32(width), Int32(width), Int32(height), &result, error.baseAddress, error.count)
        }
        guard status == SLCV_OK else { return nil }
        let count = Int(result.count)
        let (text, least) = withUnsafeBytes(of: result.characters) { characters in
            withUnsafeBytes(of: result.confidences) { confidences in
                var least = count > 0 ? Float.infinity : 0
                for index in 0..<count { least = min(least, confidences.load(fromByteOffset: index * 4, as: Float.self)) }
                return (String(decoding: characters.prefix(count), as: UTF8.self), least)
            }
        }
        return Read(text: text, leastConfidence: Double(least))
    }
}
