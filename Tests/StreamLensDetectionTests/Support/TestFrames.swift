import Foundation
import StreamLensCore

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

    /// Raw I420 frames of a video decoded by GStreamer (`filesrc ! decodebin ! videoconvert ! videoscale !
    /// videorate`), scaled to `width` × `height` at `framesPerSecond`.
    final class DecodedVideo: Sendable {
        let width: Int
        let height: Int
        let framesPerSecond: Int
        let frameCount: Int
        private let data: Data

        init(url: URL, width: Int, height: Int, framesPerSecond: Int, maxFrames: Int) throws {
            self.width = width
            self.height = height
            self.framesPerSecond = framesPerSecond
            let output = try TestEnvironment.temporaryDirectory("frames").appendingPathComponent("frames.i420")
            defer { try? FileManager.default.removeItem(at: output.deletingLastPathComponent()) }
            let pipeline = [
                "-q", "filesrc", "location=\(url.path)", "!", "decodebin", "!", "videoconvert", "!", "videoscale",
                "!", "videorate", "!",
                "video/x-raw,format=I420,width=\(width),height=\(height),framerate=\(framesPerSecond)/1",
                "!", "identity", "eos-after=\(maxFrames + 1)", "!", "filesink", "location=\(output.path)",
            ]
            let result = try TestEnvironment.run("gst-launch-1.0", pipeline)
            guard result.status == 0 else { throw TestSetupError("gst-launch-1.0 failed: \(result.output)") }
            data = try Data(contentsOf: output)
            frameCount = min(maxFrames, data.count / Self.frameBytes(width: width, height: height))
            guard frameCount > 0 else { throw TestSetupError("no frames decoded from \(url.path)") }
        }

        static func frameBytes(width: Int, height: Int) -> Int { width * height * 3 / 2 }

        /// Lends frame `index` as an analysis frame of a source `sourceWidth` × `sourceHeight`.
        func withFrame<Result>(
            _ index: Int, sourceWidth: Int? = nil, sourceHeight: Int? = nil, _ body: (AnalysisFrame) throws -> Result
        ) rethrows -> Result {
            let frameBytes = Self.frameBytes(width: width, height: height)
            var copy = data.subdata(in: index * frameBytes..<(index + 1) * frameBytes)
            return try copy.withUnsafeMutableBytes { raw in
                let base = raw.bindMemory(to: UInt8.self).baseAddress!
                let chromaWidth = width / 2
                let planes = YUVPlanes(
                    layout: .i420, width: width, height: height, lumaBase: base, lumaStride: width,
                    chromaBase: base + width * height, chromaStride: chromaWidth,
                    vBase: base + width * height + chromaWidth * (height / 2), vStride: chromaWidth)
                let pts = Duration.milliseconds(index * 1000 / framesPerSecond)
                return try body(AnalysisFrame(
                    pts: pts, frameIndex: index, planes: planes, sourceWidth: sourceWidth ?? width,
                    sourceHeight: sourceHeight ?? height))
            }
        }
    }
}
