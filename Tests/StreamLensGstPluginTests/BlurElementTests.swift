import Foundation
import StreamLensCore
import StreamLensDetection
import StreamLensTestMedia
import Testing

/// streamlensblur in gst-launch pipelines on the privacy test set (scripts/datasets/make-privacy-testset.sh: two real face
/// photographs pasted into real street footage), checked with an independent detector: OpenCV's Haar frontal-face
/// cascade (Debian opencv-data), not the CenterFace network the element blurs with.
@Suite(.serialized) struct BlurElementTests {
    static var isReady: Bool {
        CenterFaceDetector.installedPath() != nil && FileManager.default.fileExists(atPath: PrivacyTestset.clip.path)
    }
    static let notReady: Comment = "needs bash scripts/models/install-privacy-models.sh and bash scripts/datasets/make-privacy-testset.sh"

    /// The test set's frames, decoded to raw I420 by the same decoder the element's pipelines use.
    static func decodedInput(into folder: URL) async throws -> DecodedVideo {
        let raw = folder.appendingPathComponent("input.i420")
        let outcome = try await PluginHarness.launch(
            "filesrc location=\(PrivacyTestset.clip.path) ! decodebin ! videoconvert ! video/x-raw,format=I420 "
                + "! filesink location=\(raw.path)")
        try #require(outcome.status == 0, "decoding the test set: \(outcome.standardError)")
        return try DecodedVideo(rawI420: raw, width: PrivacyTestset.width, height: PrivacyTestset.height, framesPerSecond: 25)
    }

    /// Per face name, the frames of `video` on which the Haar cascade finds it.
    static func haarFaces(in video: DecodedVideo, listing: PrivacyTestset.Listing) throws -> [String: Int] {
        let detector = try CascadeDetector(cascade: "frontalface")
        return PrivacyTestset.faceHits(in: video, listing: listing) { frame in
            ((try? detector.detect(frame)) ?? []).map(\.box)
        }
    }

    /// The value of `field` in the bus message named `name` that gst-launch -m printed (`field=(type)value`).
    static func field(_ field: String, of name: String, in output: String) -> String? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains(": \(name),") }),
            let range = line.range(of: " \(field)=(")
        else { return nil }
        let rest = line[range.upperBound...].drop { $0 != ")" }.dropFirst()
        return String(rest.prefix { $0 != "," && $0 != ";" })
    }

    /// A file (not live): every frame waits for its own analysis, no frame is lost, and the independent detector
    /// finds both faces in the input and neither in the output, on I420 and on NV12.
    @Test(.enabled(if: isReady, notReady), arguments: [("I420", "gaussian"), ("NV12", "pixelate")])
    func noFaceIsLeftInAFileBlurredInAPipeline(format: String, style: String) async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("blurred.raw")
        let run = try await PluginHarness.launch(
            "filesrc location=\(PrivacyTestset.clip.path) ! decodebin ! videoconvert ! video/x-raw,format=\(format) "
                + "! streamlensblur style=\(style) ! streamlensannotate ! videoconvert ! video/x-raw,format=I420 "
                + "! filesink location=\(output.path)", timeout: .seconds(600))
        #expect(run.status == 0, "stderr: \(run.standardError)")
        #expect(Self.field("completed", of: "streamlens-analysis", in: run.standardOutput) == "\(PrivacyTestset.frames)",
                "\(run.standardOutput.suffix(2000))")
        #expect(Self.field("skipped", of: "streamlens-analysis", in: run.standardOutput) == "0")
        #expect(Self.field("frames-blurred", of: "streamlens-privacy", in: run.standardOutput) == "\(PrivacyTestset.frames)",
                "\(run.standardOutput.suffix(2000))")

        let listing = try PrivacyTestset.Listing.load()
        let input = try await Self.decodedInput(into: folder)
        let blurred = try DecodedVideo(
            rawI420: output, width: PrivacyTestset.width, height: PrivacyTestset.height, framesPerSecond: 25)
        #expect(input.frameCount == PrivacyTestset.frames)
        #expect(blurred.frameCount == input.frameCount)
        // The independent detector sees both faces in the input on nearly every frame…
        let before = try Self.haarFaces(in: input, listing: listing)
        #expect((before["messi5"] ?? 0) >= 200 && (before["astronaut"] ?? 0) >= 200, "\(before)")
        // …and neither on any frame of the output.
        let after = try Self.haarFaces(in: blurred, listing: listing)
        #expect(after.isEmpty, "faces found after streamlensblur: \(after)")

        // The element is the command line's file mode: `streamlens run --blur faces` writes the same frames, byte
        // for byte (the decoder gives I420 here).
        guard format == "I420", style == "gaussian" else { return }
        let command = folder.appendingPathComponent("run.i420")
        let cli = try await PluginHarness.run(PluginHarness.pluginDirectory.appendingPathComponent("streamlens").path, [
            "run", "--input", PrivacyTestset.clip.path, "--output", "filesink location=\(command.path)", "--blur", "faces",
            "--quiet",
        ], timeout: .seconds(600))
        #expect(cli.status == 0, "\(cli.standardError)")
        #expect(try Data(contentsOf: command) == Data(contentsOf: output), "the element's frames differ from the command line's")
    }

    /// A live source: frames never wait for the analysis (a busy stage skips frames), and every frame goes on.
    @Test(.enabled(if: CenterFaceDetector.installedPath() != nil, notReady))
    func aLiveSourceNeverWaitsForTheAnalysis() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("live.i420")
        let run = try await PluginHarness.launch(
            "videotestsrc is-live=true num-buffers=60 pattern=ball ! video/x-raw,format=I420,width=1280,height=720,"
                + "framerate=60/1 ! streamlensblur ! filesink location=\(output.path)")
        #expect(run.status == 0, "stderr: \(run.standardError)")
        #expect(Int(Self.field("skipped", of: "streamlens-analysis", in: run.standardOutput) ?? "") ?? 0 > 0,
                "\(run.standardOutput.suffix(2000))")
        let frames = try RawVideoFile(contentsOf: output, layout: .i420, width: 1280, height: 720)
        #expect(frames.frameCount == 60)
    }

    /// The live path (`sync-analysis=off`, as a live source gets): frames are hidden with the newest result, and the
    /// first frame waits for the first result rather than go out with its faces; every frame goes on.
    @Test(.enabled(if: isReady, notReady))
    func liveFramesAreHiddenFromTheFirstFrameOn() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("live.i420")
        let run = try await PluginHarness.launch(
            "filesrc location=\(PrivacyTestset.clip.path) ! decodebin ! videoconvert ! video/x-raw,format=I420 "
                + "! streamlensblur sync-analysis=off ! filesink location=\(output.path)", timeout: .seconds(600))
        #expect(run.status == 0, "stderr: \(run.standardError)")
        let listing = try PrivacyTestset.Listing.load()
        let input = try await Self.decodedInput(into: folder)
        let blurred = try DecodedVideo(
            rawI420: output, width: PrivacyTestset.width, height: PrivacyTestset.height, framesPerSecond: 25)
        #expect(blurred.frameCount == PrivacyTestset.frames)
        let detector = try CascadeDetector(cascade: "frontalface")
        let detect: (AnalysisFrame) -> [BoundingBox] = { ((try? detector.detect($0)) ?? []).map(\.box) }
        #expect(PrivacyTestset.faceHits(in: input, listing: listing, frames: 0..<1, detect: detect).count == 2)
        #expect(PrivacyTestset.faceHits(in: blurred, listing: listing, frames: 0..<1, detect: detect).isEmpty)
    }

    /// A kind that does not exist stops the element at start with one line naming the property and its values;
    /// `kinds=off` passes frames through untouched.
    @Test func kindsIsCheckedAndOffPassesThrough() async throws {
        try PluginHarness.requirePlugin()
        let bad = try await PluginHarness.launch(
            "videotestsrc num-buffers=2 ! video/x-raw,format=I420,width=64,height=48 ! streamlensblur kinds=cats ! fakesink")
        #expect(bad.status != 0)
        #expect(bad.standardError.contains("property 'kinds' cannot be 'cats'")
            && bad.standardError.contains("use faces, plates (comma-separated) or off"), "\(bad.standardError)")

        let folder = try PluginHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = "videotestsrc num-buffers=5 pattern=smpte ! video/x-raw,format=I420,width=64,height=48"
        let plain = folder.appendingPathComponent("plain.i420"), off = folder.appendingPathComponent("off.i420")
        _ = try await PluginHarness.launch("\(source) ! filesink location=\(plain.path)")
        let passed = try await PluginHarness.launch("\(source) ! streamlensblur kinds=off ! filesink location=\(off.path)")
        #expect(passed.status == 0, "\(passed.standardError)")
        #expect(try Data(contentsOf: off) == Data(contentsOf: plain))
    }
}
