import StreamLensCore
import Synchronization

/// Hides what the privacy analysis stage reports (faces, licence plates) on every frame, in the frame's own YUV
/// planes, before anything else is drawn: each detection's box grown by ``Configuration/margin``, an ellipse for the
/// kinds in ``Configuration/ellipseKinds``, a rectangle for the others.
///
/// ## Thread Safety
/// ``composite(onto:context:)`` runs on the processing thread only (the ``CompositingStage`` contract); the counters
/// behind ``framesBlurred`` sit behind a mutex and may be read from any thread.
public final class PrivacyBlurStage: CompositingStage, @unchecked Sendable {
    public struct Configuration: Sendable, Equatable {
        /// The analysis stage whose detections are hidden.
        public var source: String = "privacy"
        public var style: PrivacyBlurStyle = .gaussian
        /// Added on each side, as a fraction of the box's width (left, right) and height (top, bottom).
        public var margin: Double = 0.2
        /// Class names hidden as the ellipse inscribed in their box.
        public var ellipseKinds: Set<String> = ["face"]

        public init() {}
    }

    public let name = "privacy-blur"
    public let configuration: Configuration
    private let blurrer = PrivacyBlurrer()
    /// Per class name, the frames on which at least one of its boxes was hidden.
    private let counts = Mutex<[String: Int]>([:])
    /// Confined to the processing thread: the kinds hidden on the current frame (storage reused).
    private var kindsThisFrame: Set<String> = []

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        kindsThisFrame.reserveCapacity(4)
    }

    /// Per class name, the frames on which at least one of its boxes was hidden so far.
    public var framesBlurred: [String: Int] { counts.withLock { $0 } }

    public func willDraw(_ context: CompositeContext) -> Bool {
        context.latestDetections[configuration.source].map { !$0.isEmpty } ?? false
    }

    public func composite(onto frame: YUVPlanes, context: CompositeContext) {
        guard let detections = context.latestDetections[configuration.source], !detections.isEmpty else { return }
        kindsThisFrame.removeAll(keepingCapacity: true)
        for detection in detections.items {
            guard let rect = PrivacyRect(
                box: detection.box, margin: configuration.margin, width: frame.width, height: frame.height)
            else { continue }
            let shape: PrivacyBlurShape =
                configuration.ellipseKinds.contains(detection.className) ? .ellipse : .rectangle
            blurrer.hide(rect, shape: shape, style: configuration.style, in: frame)
            kindsThisFrame.insert(detection.className)
        }
        guard !kindsThisFrame.isEmpty else { return }
        counts.withLock { counts in
            for kind in kindsThisFrame { counts[kind, default: 0] += 1 }
        }
    }
}
