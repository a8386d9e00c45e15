import Foundation
import StreamLensCore

/// One line for the user: what failed.
struct ToolError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The repository, fetched media and external programs, as the detection tests' `TestEnvironment` finds them.
enum ToolEnvironment {
    /// The repository root (this file is Tools/streamlens-diagnostics/Support/DecodedVideo.swift).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A fetched media file (scripts/fetch-media.sh): in `$STREAMLENS_MEDIA`, default `<repo>/.media-cache/media`.
    static func media(_ name: String) throws -> URL {
        let configured = ProcessInfo.processInfo.environment["STREAMLENS_MEDIA"].flatMap { $0.isEmpty ? nil : $0 }
        let folder = configured.map { URL(fileURLWithPath: $0) }
            ?? repositoryRoot.appendingPathComponent(".media-cache/media")
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ToolError("media file \(url.path) is missing: run scripts/fetch-media.sh (or set STREAMLENS_MEDIA)")
        }
        return url
    }

    /// A fresh temporary directory.
    static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("streamlens-diagnostics-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `executable` with `arguments`; returns its exit status and combined output.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// Raw I420 frames of a video decoded by GStreamer (`filesrc ! decodebin ! videoconvert ! videoscale ! videorate`),
/// scaled to `width` × `height` at `framesPerSecond`. A copy of the detection tests' `TestFrames.DecodedVideo`.
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
        let output = try ToolEnvironment.temporaryDirectory("frames").appendingPathComponent("frames.i420")
        defer { try? FileManager.default.removeItem(at: output.deletingLastPathComponent()) }
        let pipeline = [
            "-q", "filesrc", "location=\(url.path)", "!", "decodebin", "!", "videoconvert", "!", "videoscale",
            "!", "videorate", "!",
            "video/x-raw,format=I420,width=\(width),height=\(height),framerate=\(framesPerSecond)/1",
            "!", "identity", "eos-after=\(maxFrames + 1)", "!", "filesink", "location=\(output.path)",
        ]
        let result = try ToolEnvironment.run("gst-launch-1.0", pipeline)
        guard result.status == 0 else { throw ToolError("gst-launch-1.0 failed: \(result.output)") }
        data = try Data(contentsOf: output)
        frameCount = min(maxFrames, data.count / Self.frameBytes(width: width, height: height))
        guard frameCount > 0 else { throw ToolError("no frames decoded from \(url.path)") }
    }

    static func frameBytes(width: Int, height: Int) -> Int { width * height * 3 / 2 }

    /// Lends frame `index` as an analysis frame.
    func withFrame<Result>(_ index: Int, _ body: (AnalysisFrame) throws -> Result) rethrows -> Result {
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
                pts: pts, frameIndex: index, planes: planes, sourceWidth: width, sourceHeight: height))
        }
    }
}
