internal import COpenCVDetection
import StreamLensCore

/// People detector using OpenCV's HOG descriptor with its default people SVM (a 64×128 pixel window).
///
/// Runs on the luma plane of the analysis frame as grayscale: no colour conversion. People shorter than about
/// 96 analysis pixels (the person inside the 128 px window) are not found; raise the analysis width or
/// ``Options/upscale`` for small figures. Confidence is the logistic of the SVM margin above the hit threshold, so a
/// window just above it scores 0.5.
///
/// The detector answers whole 64×128 windows, with a margin around the person; by default the boxes are fitted
/// to the person inside (see ``Options/fitBoxesToPerson``).
///
/// ## Thread Safety
/// One thread at a time (see ``ObjectDetector``).
public final class HOGPeopleDetector: ObjectDetector, @unchecked Sendable {
    /// The one class it reports.
    public static let className = "person"

    /// Tuning of the window search (`cv::HOGDescriptor::detect` over an image pyramid, grouped as
    /// `detectMultiScale` does).
    ///
    /// The defaults find as many of the annotated vtest.avi people as OpenCV's `detectMultiScale` with step 1.05,
    /// margin 0 and groups of 2 (18 of 23, one false positive) for 43 % less CPU: the pyramid's fine levels, where
    /// most windows are, step by 1.1; single hits with a margin above -0.1 make up for the sparser levels
    /// (docs/figures/accuracy.md).
    public struct Options: Sendable, Equatable {
        /// SVM margin a window needs to be a hit.
        public var hitThreshold: Double = -0.1
        /// Window step in pixels (a multiple of 8).
        public var windowStride: Int = 8
        /// Scale step between pyramid levels (> 1) from ``smallPeopleUntilScale`` on (large people: few windows).
        public var pyramidScale: Double = 1.05
        /// Scale step between the pyramid's fine levels (> 1), where people are small and windows many.
        public var smallPeoplePyramidScale: Double = 1.1
        /// Pyramid scale (1: the detection input) from which ``pyramidScale`` replaces ``smallPeoplePyramidScale``.
        public var smallPeopleUntilScale: Double = 2
        /// Overlapping hits a group needs to be kept.
        public var groupThreshold: Double = 1
        /// Factor the luma plane is resized by before detection (1: none).
        public var upscale: Double = 1
        /// Shrink each window to the person in it: the middle half of its width and three quarters of its height
        /// from an eighth below its top. That is the layout of the people SVM's 64×128 training windows (a person
        /// about 96 px tall with 16 px margins), and it matches hand-annotated vtest.avi frames (medians: 0.50 of
        /// the width from 0.26, 0.69 of the height from 0.14).
        public var fitBoxesToPerson = true
        /// Which code scores the windows.
        public let windowScorer: WindowScorer

        /// Options at their defaults, scoring windows with `windowScorer`.
        public init(windowScorer: WindowScorer = .bridge) {
            self.windowScorer = windowScorer
        }
    }

    /// Which code scores each pyramid level's windows.
    public enum WindowScorer: Sendable, Equatable {
        /// The bridge's scorer: the same features as OpenCV's with about half the work (the same hits; scores agree
        /// to 1e-6).
        case bridge
        /// OpenCV's own `HOGDescriptor::detect`: the reference `HOGPeopleDetectorTests` checks the bridge against.
        case openCV
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
        raw.small_people_scale_step = options.smallPeoplePyramidScale
        raw.small_people_until_scale = options.smallPeopleUntilScale
        raw.use_opencv_window_scorer = options.windowScorer == .openCV ? 1 : 0
        handle = try OpenCVDetectorHandle(
            backendName: "hog",
            create: { detector, error, capacity in slcv_detector_create_hog(&raw, detector, error, capacity) },
            loadError: { _, message in .invalidOption(message) })
    }

    public func detect(_ frame: AnalysisFrame) throws -> [Detection] {
        var detections = try handle.detect(frame) { _ in Self.className }
        if options.fitBoxesToPerson {
            for index in detections.indices { detections[index].box = Self.personBox(inWindow: detections[index].box) }
        }
        return detections
    }

    /// The person inside a detection window (see ``Options/fitBoxesToPerson``).
    public static func personBox(inWindow window: BoundingBox) -> BoundingBox {
        BoundingBox(
            x: window.x + window.width * 0.25, y: window.y + window.height * 0.125,
            width: window.width * 0.5, height: window.height * 0.75)
    }
}
