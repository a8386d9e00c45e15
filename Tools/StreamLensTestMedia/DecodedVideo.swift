import Foundation
import StreamLensCore

/// Raw I420 frames of a video decoded by GStreamer (`filesrc ! decodebin ! videoconvert ! videoscale ! videorate`),
/// scaled to `width` × `height` at `framesPerSecond`, at most `maxFrames` of them.
public final class DecodedVideo: Sendable {
    public let width: Int
    public let height: Int
    public let framesPerSecond: Int
    public let frameCount: Int
    private let data: Data

    public init(url: URL, width: Int, height: Int, framesPerSecond: Int, maxFrames: Int) throws {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        let output = try MediaFiles.temporaryDirectory("frames").appendingPathComponent("frames.i420")
        defer { try? FileManager.default.removeItem(at: output.deletingLastPathComponent()) }
        let pipeline = [
            "-q", "filesrc", "location=\(url.path)", "!", "decodebin", "!", "videoconvert", "!", "videoscale",
            "!", "videorate", "!",
            "video/x-raw,format=I420,width=\(width),height=\(height),framerate=\(framesPerSecond)/1",
            "!", "identity", "eos-after=\(maxFrames + 1)", "!", "filesink", "location=\(output.path)",
        ]
        let result = try MediaFiles.run("gst-launch-1.0", pipeline)
        guard result.status == 0 else { throw MediaError("gst-launch-1.0 failed: \(result.output)") }
        data = try Data(contentsOf: output)
        frameCount = min(maxFrames, data.count / Self.frameBytes(width: width, height: height))
        guard frameCount > 0 else { throw MediaError("no frames decoded from \(url.path)") }
    }

    /// The frames of a raw I420 file as `filesink` writes them (`width` a multiple of 8: rows tightly packed), all
    /// of them.
    public init(rawI420 url: URL, width: Int, height: Int, framesPerSecond: Int) throws {
        precondition(width % 8 == 0 && height % 2 == 0, "the reader assumes GStreamer's unpadded layout")
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        data = try Data(contentsOf: url)
        frameCount = data.count / Self.frameBytes(width: width, height: height)
    }

    public static func frameBytes(width: Int, height: Int) -> Int { width * height * 3 / 2 }

    /// Lends frame `index` as an analysis frame of a source `sourceWidth` × `sourceHeight` (default: the frame's).
    public func withFrame<Result>(
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
