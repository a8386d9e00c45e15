internal import COpenCVSigns

/// The reader's second recogniser, independent of Tesseract: which speed value a normalised inner disc shows, read
/// from the whole disc (no digit segmentation) by a small convolutional network trained on rendered road-font digits
/// (COpenCVSigns, speed_disc_classifier.cpp; network from scripts/generate/make-speed-disc-model.py, compiled in).
///
/// Owns the bridge handle; `deinit` is its only release site.
///
/// ## Thread Safety
/// Not synchronized: the handle keeps OpenCV's working buffers. One classifier per analysis thread.
final class SpeedDiscClassifier {
    /// What the network says about one disc.
    struct Verdict: Equatable, Sendable {
        /// The likeliest speed value, or nil when the likeliest class is "not a speed value".
        var value: Int?
        /// Margin of the best class's probability over the runner-up's, 0…1: how sure the network is.
        var confidence: Double
    }

    /// The value of each output, in the network's order (nil: not a speed value). Must match the script's CLASSES.
    static let classValues: [Int?] = [nil, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130]

    private let handle: OpaquePointer
    private var scores = [Float](repeating: 0, count: Int(SLCV_SPEED_DISC_CLASS_COUNT))
    private var errorBuffer = [CChar](repeating: 0, count: 256)

    /// Nil when the bridge could not build the network (out of memory): the reader then relies on Tesseract alone.
    init?() {
        precondition(Self.classValues.count == Int(SLCV_SPEED_DISC_CLASS_COUNT), "classes out of step with the bridge")
        var handle: OpaquePointer?
        let status = errorBuffer.withUnsafeMutableBufferPointer {
            slcv_disc_classifier_create(&handle, $0.baseAddress, $0.count)
        }
        guard status == SLCV_OK, let handle else { return nil }
        self.handle = handle
    }

    deinit { slcv_disc_classifier_destroy(handle) }

    /// Classifies a `side` × `side` grey picture of a disc (dark digits on white, outside the disc white), or nil
    /// when OpenCV fails (the candidate then simply has no second opinion).
    func classify(gray: UnsafePointer<UInt8>, side: Int) -> Verdict? {
        let status = scores.withUnsafeMutableBufferPointer { scores in
            errorBuffer.withUnsafeMutableBufferPointer { error in
                slcv_disc_classifier_classify(
                    handle, gray, Int32(side), Int32(side), Int32(side), scores.baseAddress, Int32(scores.count),
                    error.baseAddress, error.count)
            }
        }
        guard status == SLCV_OK else { return nil }
        var best = 0
        for index in scores.indices where scores[index] > scores[best] { best = index }
        var runnerUp = -Float.infinity
        for index in scores.indices where index != best { runnerUp = max(runnerUp, scores[index]) }
        let margin = Double(scores[best] - runnerUp)
        return Verdict(value: Self.classValues[best], confidence: min(1, max(0, margin)))
    }
}
