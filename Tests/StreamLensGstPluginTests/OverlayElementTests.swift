import Foundation
import Testing

/// streamlensoverlay loops a real alpha clip (the spinning GTK logo, VP9 with alpha, 30 fps) seamlessly on NV12
/// video, touching nothing outside its rectangle.
@Suite struct OverlayElementTests {
    @Test func theClipLoopsSeamlesslyInThePixels() async throws {
        try PluginHarness.requirePlugin()
        let logo = try PluginHarness.media("overlays/gtk-logo.webm")
        let folder = try PluginHarness.temporaryFolder()
        let output = folder.appendingPathComponent("looped.nv12")
        let frameCount = 200
        let result = try await PluginHarness.launch(
            "videotestsrc num-buffers=\(frameCount) pattern=black ! video/x-raw,format=NV12,width=320,height=240,framerate=30/1 "
                + "! streamlensoverlay location=\(logo) x=96 y=56 ! filesink location=\(output.path)")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let frames = try RawVideoFile(contentsOf: output, layout: .nv12, width: 320, height: 240)
        #expect(frames.frameCount == frameCount)
        let clip = (0..<frameCount).map { frames.lumaRegion(frame: $0, x: 96, y: 56, width: 128, height: 128) }

        // The logo is drawn (black is Y 16) and moves from frame to frame.
        let drawn = clip[0..<30].contains { $0.contains { $0 > 40 } }
        #expect(drawn, "no logo in the first second")
        #expect(Set(clip).count > 50, "only \(Set(clip).count) different pictures")
        // Outside its rectangle the frame stays black: Y 16, U and V 128.
        for frame in [0, 77, frameCount - 1] {
            let black = frames.lumaRegion(frame: frame, x: 0, y: 0, width: 320, height: 56).allSatisfy { $0 == 16 }
                && frames.lumaRegion(frame: frame, x: 0, y: 184, width: 320, height: 56).allSatisfy { $0 == 16 }
            #expect(black, "frame \(frame) changed outside the overlay")
            let chroma = frames.chroma(frame: frame, x: 10, y: 10)
            #expect(chroma.u == 128 && chroma.v == 128)
        }
        // The pixels repeat with a period (the smallest shift under which every frame equals the one that far
        // back): the loop is seamless, and the period is the clip's length (4.666 s at 30 fps: 140 frames).
        let period = try #require((1..<(frameCount - 20)).first { shift in
            (shift..<frameCount).allSatisfy { clip[$0] == clip[$0 - shift] }
        }, "the overlay never repeats")
        let clipDuration = try await Self.durationSeconds(of: logo)
        #expect(abs(Double(period) / 30 - clipDuration) <= 1.0 / 30 + 1e-9, "period \(period) for \(clipDuration) s")
    }

    /// The clip's duration as gst-discoverer-1.0 reports it.
    static func durationSeconds(of path: String) async throws -> Double {
        let result = try await PluginHarness.run("/usr/bin/gst-discoverer-1.0", [path])
        let line = try #require(result.standardOutput.split(separator: "\n").first { $0.contains("Duration:") })
        let parts = try #require(line.split(separator: " ").last).split(separator: ":").compactMap { Double($0) }
        return parts.reduce(0) { $0 * 60 + $1 }
    }
}
