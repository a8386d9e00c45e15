import Foundation
import StreamLensCore
import StreamLensTestMedia

/// Builds ``AnalysisFrame`` values for tests: uniform synthetic frames and frames decoded from real media.
enum TestFrames {
    /// Lends an analysis frame of `image` (as if downscaled from `sourceWidth` × `sourceHeight`) to `body`.
    static func withFrame<Result>(
        _ image: OwnedYUVImage, sourceWidth: Int? = nil, sourceHeight: Int? = nil, pts: Duration = .zero,
        frameIndex: Int = 0, _ body: (AnalysisFrame) throws -> Result
    ) rethrows -> Result {
        try image.withPlanes { planes in
            try body(AnalysisFrame(
                pts: pts, frameIndex: frameIndex, planes: planes, sourceWidth: sourceWidth ?? image.width,
                sourceHeight: sourceHeight ?? image.height))
        }
    }

    /// Raw I420 frames of a video decoded by GStreamer (shared with the diagnostics).
    typealias DecodedVideo = StreamLensTestMedia.DecodedVideo
}
