internal import COpenCVBridge
import StreamLensCore

/// People detector using OpenCV's HOG descriptor with its default people SVM (a 64×128 pixel window).
///
/// Runs on the luma plane of the analysis frame as grayscale: no colour conversion. People shorter than the window
/// (128 analysis pixels) are not found; raise the analysis width or ``Options/upscale`` for small figures.
/// Confidence is the logistic of the SVM margin, so a window just above the hit threshold 0 scores 0.5.
///
/// ## Thread Safety
/// One thread at a time (see ``ObjectDetector``).
public final class HOGPeopleDetector: ObjectDetector, @unchecked Sendable {
    /// Tuning of `cv::HOGDescriptor::detectMultiScale`.
    public struct Options: Sendable, Equatable {
        /// SVM margin a window needs to be a hit.
        public var hitThreshold: Double = 0
        /// Window step in pixels (a multiple of 8).
        public var windowStride: Int = 8
        /// Scale step between pyramid levels (> 1).
        public var pyramidScale: Double = 1.05
        /// Overlapping hits a group needs to be kept.
        public var groupThreshold: Double = 2
        /// Factor the luma plane is resized by before detection (1: none).
        public var upscale: Double = 1

        public init() {}
    }

    /// Always `hog`.
    public let backendName = "hog"
    /// The options it was created with.
    public let options: Options
    private let handle: OpenCVDetectorHandle

    /// Creates the detector; throws ``DetectionError/invalidOption(_:)`` for options out of range.
    public init(options: Options = Options()) throws {
        self.options = options
        var raw = slcv_hog_options()
        slcv_hog_default_options(&raw)
        raw.hit_threshold = options.hitThreshold
        raw.window_stride = Int32(clamping: options.windowStride)
        raw.pyramid_scale = options.pyramidScale
        raw.group_threshold = options.groupThreshold
        raw.upscale = options.upscale
        handle = try OpenCVDetectorHandle(
            backendName: "hog",
            create: { detector, error, capacity in slcv_detector_create_hog(&raw, detector, error, capacity) },
            loadError: { _, message in .invalidOption(message) })
    }

    public func detect(_ frame: AnalysisFrame) throws -> [Detection] {
        try handle.detect(frame) { _ in "person" }
    }
}
