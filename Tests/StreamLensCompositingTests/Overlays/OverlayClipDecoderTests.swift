import Foundation
import StreamLensCore
@testable import StreamLensFramePath
@testable import StreamLensGStreamer
import Testing
@testable import StreamLensCompositing

/// Decodes real alpha clips with GStreamer. The GTK logo (a spinning cube on a transparent background, 128×128,
/// 30 fps, 140 frames) and its ProRes 4444 / QuickTime RLE transcodes come from scripts/datasets/fetch-media.sh.
@Suite struct OverlayClipDecoderTests {
    let decoder = OverlayClipDecoder()

    static let logoClips = ["overlays/gtk-logo.webm", "overlays/gtk-logo-prores4444.mov", "overlays/gtk-logo-qtrle.mov"]

    /// Alpha of tile pixel (x, y).
    func alpha(_ tile: OverlayTile, _ x: Int, _ y: Int) -> UInt8 { tile.alpha[y * tile.width + x] }

    @Test(arguments: logoClips)
    func logoDecodesWithTransparentCornersAndAnOpaqueCentre(relativePath: String) throws {
        let path = TestMedia.path(relativePath)
        let clip = try decoder.loadClip(OverlayClipRequest(path: path, width: 96, height: 96))
        #expect(clip.width == 96 && clip.height == 96)
        #expect(clip.frameCount == 140)
        #expect(clip.timing.frameRate == FrameRate(30))
        #expect(clip.timing.loopDuration == .nanoseconds(4_666_666_666))  // 140 / 30 s, truncated to whole ns
        for index in [0, 70, 100, 139] {
            let tile = clip.frame(at: index)
            for (x, y) in [(0, 0), (95, 0), (0, 95), (95, 95), (4, 48)] {
                // VP9 alpha codes "transparent" as 0–2 after compression.
                #expect(alpha(tile, x, y) <= 8, "frame \(index) corner (\(x), \(y)) of \(relativePath)")
            }
            // Premultiplied: colour never exceeds alpha.
            #expect(zip(tile.luma, tile.alpha).allSatisfy { $0 <= $1 })
        }
        // Mid-loop the cube fills the centre; the loop starts and ends transparent, so it wraps without a jump.
        #expect(alpha(clip.frame(at: 70), 48, 48) == 255 && alpha(clip.frame(at: 100), 48, 48) == 255)
        #expect(clip.frame(at: 0).alpha.allSatisfy { $0 <= 8 } && clip.frame(at: 139).alpha.allSatisfy { $0 <= 8 })
        #expect(clip.byteCount > 140 * 96 * 96 * 2)
    }

    @Test func oneGivenSideKeepsTheAspectRatio() throws {
        let clip = try decoder.loadClip(OverlayClipRequest(path: TestMedia.path("overlays/gtk-logo.webm"), width: 64))
        #expect(clip.width == 64 && clip.height == 64)
        let natural = try decoder.loadClip(OverlayClipRequest(path: TestMedia.path("overlays/gtk-logo-qtrle.mov")))
        #expect(natural.width == 128 && natural.height == 128)
    }

    @Test func stillSVGBecomesAOneFrameClip() throws {
        let directory = try TestMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("dot.svg")
        try #"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><circle cx="50" cy="50" r="40" fill="red"/></svg>"#
            .write(to: svg, atomically: true, encoding: .utf8)
        let clip = try decoder.loadClip(OverlayClipRequest(path: svg.path, width: 64, height: 64))
        #expect(clip.frameCount == 1)
        let tile = clip.frame(at: 0)
        #expect(alpha(tile, 0, 0) == 0 && alpha(tile, 63, 63) == 0)
        #expect(alpha(tile, 32, 32) == 255)
        // Red in BT.709 is Y 63, V 240; videoconvert's fixed-point matrix may land one step off.
        #expect(abs(Int(tile.luma[32 * 64 + 32]) - 63) <= 1)
        #expect(abs(Int(tile.evenChroma.v[16 * 32 + 16]) - 240) <= 1)
        // Looping a single frame always shows it.
        #expect(LoopClock(timing: clip.timing, origin: .zero).frameIndex(at: .seconds(12)) == 0)
    }

    @Test func stillPNGWithAlphaDecodes() throws {
        let directory = try TestMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("ball.png").path
        // A white ball on a transparent background, written by GStreamer's own PNG encoder.
        let writer = try Pipeline(
            "videotestsrc num-buffers=1 pattern=ball background-color=0x00000000 ! video/x-raw,format=RGBA,width=80,height=80 ! pngenc ! filesink location=\(png)",
            label: "png writer")
        try writer.setState(.playing)
        var finished = false
        while !finished, let message = writer.nextMessage(timeout: .seconds(10)) {
            if case .endOfStream = message { finished = true }
            if case .error(let error) = message { Issue.record("PNG writer failed: \(error)"); return }
        }
        try writer.setState(.null)
        let clip = try decoder.loadClip(OverlayClipRequest(path: png))
        #expect(clip.width == 80 && clip.height == 80 && clip.frameCount == 1)
        let tile = clip.frame(at: 0)
        #expect(alpha(tile, 0, 0) == 0 && alpha(tile, 79, 0) == 0)
        #expect(alpha(tile, 40, 40) == 255)
        #expect(abs(Int(tile.luma[40 * 80 + 40]) - 235) <= 1)  // white
    }

    @Test func variableRateClipsTimeEachFrameUntilTheNext() {
        // GIF-style: no frame rate in the caps, frames at 0, 100 and 150 ms, the last lasting 200 ms.
        let timing = OverlayClipDecoder.timing(
            frameCount: 3, frameRate: nil, timestamps: [.zero, .milliseconds(100), .milliseconds(150)],
            lastDuration: .milliseconds(200))
        #expect(timing == .variable(frameDurations: [.milliseconds(100), .milliseconds(50), .milliseconds(200)]))
        // Unknown last duration: the mean of the others.
        let unknownLast = OverlayClipDecoder.timing(
            frameCount: 3, frameRate: nil, timestamps: [.zero, .milliseconds(100), .milliseconds(150)], lastDuration: nil)
        #expect(unknownLast.loopDuration == .milliseconds(225))
        #expect(OverlayClipDecoder.timing(frameCount: 2, frameRate: FrameRate(30), timestamps: [nil, nil], lastDuration: nil)
            == .constant(FrameRate(30), frameCount: 2))
    }

    @Test func missingFileIsReportedByName() {
        let path = "/nonexistent/streamlens/logo.webm"
        #expect(throws: OverlayError.fileNotFound(path: path)) { try decoder.loadClip(OverlayClipRequest(path: path)) }
    }

    @Test func fileThatIsNotMediaIsUndecodable() throws {
        let directory = try TestMedia.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("notes.webm")
        try "this is not a video".write(to: file, atomically: true, encoding: .utf8)
        let error = #expect(throws: OverlayError.self) { try decoder.loadClip(OverlayClipRequest(path: file.path)) }
        guard case .undecodable(let path, let reason) = error else {
            Issue.record("expected undecodable, got \(String(describing: error))")
            return
        }
        #expect(path == file.path)
        #expect(!reason.isEmpty)
        #expect(error?.description.hasPrefix("overlay clip '\(file.path)' could not be decoded: ") == true)
    }

    @Test func clipOverTheMemoryBudgetIsRefused() {
        let small = OverlayClipDecoder(memoryBudget: 1 << 20)
        let path = TestMedia.path("overlays/gtk-logo.webm")
        let error = #expect(throws: OverlayError.self) { try small.loadClip(OverlayClipRequest(path: path, width: 128, height: 128)) }
        guard case .overMemoryBudget(let failedPath, 128, 128, let frames, 1 << 20) = error else {
            Issue.record("expected overMemoryBudget, got \(String(describing: error))")
            return
        }
        #expect(failedPath == path)
        #expect(frames > 10 && frames < 140)
    }

    /// A size whose one frame is over the budget says so (100000 × 100000 read as a pipeline-syntax error).
    @Test func aSizeWhoseOneFrameIsOverTheBudgetSaysSo() {
        let path = TestMedia.path("overlays/gtk-logo.webm")
        let error = #expect(throws: OverlayError.self) {
            try decoder.loadClip(OverlayClipRequest(path: path, width: 100_000, height: 100_000))
        }
        #expect(error?.description.contains("at 100000×100000") == true, "\(String(describing: error))")
        #expect(error?.description.contains("draw it smaller") == true)
    }

    /// End to end: the real decoder behind an OverlayStage draws the logo on an NV12 frame.
    @Test func overlayStageDrawsTheDecodedLogo() throws {
        let rule = try OverlayRule.parseAlwaysOn("\(TestMedia.path("overlays/gtk-logo.webm"))@20,10,64,64")
        let warnings = WarningLog()
        let stage = OverlayStage(rules: [rule], loader: decoder, warn: warnings.record)
        stage.preroll()
        #expect(warnings.all.isEmpty)
        // The first frame starts the loop; 70 / 30 s later the clip is at frame 70, the cube in full view.
        let first = TestFrame.uniform(.nv12, width: 128, height: 96, y: 128, u: 128, v: 128)
        first.withPlanes { stage.composite(onto: $0, context: CompositeContext(pts: .seconds(3), frameIndex: 75)) }
        #expect(abs(Int(first.luma(52, 42)) - 128) <= 1)  // frame 0 is transparent
        let frame = TestFrame.uniform(.nv12, width: 128, height: 96, y: 128, u: 128, v: 128)
        let later = Duration.seconds(3) + .nanoseconds(2_333_333_334)
        frame.withPlanes { stage.composite(onto: $0, context: CompositeContext(pts: later, frameIndex: 133)) }
        #expect(frame.luma(52, 42) != 128)  // the cube at the logo's centre
        #expect(abs(Int(frame.luma(21, 11)) - 128) <= 1)  // transparent corner (alpha ≤ 2)
        #expect(frame.luma(100, 80) == 128)  // outside the logo
        #expect(stage.report.cache.hotClips == 1)
        #expect(stage.report.cache.bytes > 140 * 64 * 64 * 2)
    }
}
