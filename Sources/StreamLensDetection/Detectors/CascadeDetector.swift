internal import COpenCVDetection
import Foundation
import StreamLensCore

/// A Haar/LBP cascade (`cv::CascadeClassifier`): faces, full bodies, upper bodies, licence plates.
///
/// Runs on the luma plane as grayscale (no colour conversion), optionally histogram-equalized. A cascade reports
/// how many raw hits merged into each object (`n`, more than `minNeighbors` when kept); confidence is
/// `n / (n + minNeighbors)`, so a just-kept object scores a little over 0.5 and a strongly supported one nears 1.
///
/// ## Thread Safety
/// One thread at a time (see ``ObjectDetector``).
public final class CascadeDetector: ObjectDetector, @unchecked Sendable {
    /// Tuning of `cv::CascadeClassifier::detectMultiScale`.
    public struct Options: Sendable, Equatable {
        /// Scale step between pyramid levels (> 1).
        public var scaleFactor: Double = 1.1
        /// Neighbouring raw hits an object needs to be kept.
        public var minNeighbors: Int = 3
        /// Smallest object in analysis pixels (0: the cascade's window size).
        public var minimumWidth: Int = 0
        public var minimumHeight: Int = 0
        /// Equalize the luma histogram first (helps in flat or dim light).
        public var equalizeHistogram: Bool = true

        public init() {}
    }

    /// `cascade:<name or path as given>`.
    public let backendName: String
    /// The cascade XML in use.
    public let path: String
    /// Class name given to every detection (`face`, `person`, `upper_body`, `licence_plate`…).
    public let className: String
    private let handle: OpenCVDetectorHandle

    /// Loads `cascade`: a short name of ``CascadeCatalog`` or the path of a cascade XML file.
    public init(cascade: String, options: Options = Options(), catalog: CascadeCatalog = CascadeCatalog()) throws {
        let resolved = try catalog.resolve(cascade)
        path = resolved.path
        className = resolved.className
        backendName = "cascade:\(cascade)"
        var raw = slcv_cascade_options()
        slcv_cascade_default_options(&raw)
        raw.scale_factor = options.scaleFactor
        raw.min_neighbors = Int32(clamping: options.minNeighbors)
        raw.min_width = Int32(clamping: options.minimumWidth)
        raw.min_height = Int32(clamping: options.minimumHeight)
        raw.equalize_histogram = options.equalizeHistogram ? 1 : 0
        let path = resolved.path
        handle = try OpenCVDetectorHandle(
            backendName: backendName,
            create: { detector, error, capacity in
                slcv_detector_create_cascade(path, &raw, detector, error, capacity)
            },
            loadError: { status, message in
                status == SLCV_INVALID_ARGUMENT ? .invalidOption(message) : .modelLoadFailed(path: path, reason: message)
            })
    }

    public func detect(_ frame: AnalysisFrame) throws -> [Detection] {
        let name = className
        return try handle.detect(frame) { _ in name }
    }
}
