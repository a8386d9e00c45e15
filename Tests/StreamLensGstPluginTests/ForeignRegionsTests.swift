import Foundation
import StreamLensCompositing
import StreamLensCore
import Testing

/// Regions of interest from anyone — here an application pushing frames through appsrc with a bare
/// `GstVideoRegionOfInterestMeta` (no StreamLens parameters) — are drawn by streamlensannotate and trigger
/// streamlensoverlay's class rule.
@Suite struct ForeignRegionsTests {
    static let width = 320, height = 240, frames = 30
    /// The region the application attaches to every frame: a "car" at (40, 60), 100 × 80.
    static let box = (x: 40, y: 60, width: 100, height: 80)

    @Test func aBareRegionFromAnApplicationIsDrawnAndTriggersAnOverlay() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let output = folder.appendingPathComponent("drawn.i420")
        let logo = try PluginHarness.media("overlays/gtk-logo.webm")
        let script = """
            import gi, sys
            gi.require_version("Gst", "1.0")
            gi.require_version("GstVideo", "1.0")
            from gi.repository import Gst, GstVideo
            Gst.init(None)
            pipeline = Gst.parse_launch(sys.argv[1])
            source = pipeline.get_by_name("src")
            pipeline.set_state(Gst.State.PLAYING)
            for index in range(\(Self.frames)):
                # A flat grey I420 frame (Y 60, neutral chroma).
                frame = Gst.Buffer.new_wrapped(bytes([60]) * (\(Self.width) * \(Self.height)) + bytes([128]) * (\(Self.width) * \(Self.height) // 2))
                frame.pts = index * Gst.SECOND // 30
                frame.duration = Gst.SECOND // 30
                GstVideo.buffer_add_video_region_of_interest_meta(frame, "car", \(Self.box.x), \(Self.box.y), \(Self.box.width), \(Self.box.height))
                source.emit("push-buffer", frame)
            source.emit("end-of-stream")
            message = pipeline.get_bus().timed_pop_filtered(Gst.CLOCK_TIME_NONE, Gst.MessageType.EOS | Gst.MessageType.ERROR)
            print("ended with", message.type.first_value_nick)
            pipeline.set_state(Gst.State.NULL)
            """
        let description = "appsrc name=src format=time caps=video/x-raw,format=I420,width=\(Self.width),height=\(Self.height),framerate=30/1 "
            // The overlay first, so that the box is drawn over it (as the command line draws overlays, then boxes);
            // 64 px wide on the box, decoded before the video starts.
            + "! streamlensoverlay location=\(logo) trigger=class:car anchor=box:centre width=64 "
            + "! streamlensannotate labels=false ! filesink location=\(output.path)"
        let result = try await PluginHarness.run(PluginHarness.python, ["-c", script, description])
        #expect(result.status == 0 && result.standardOutput.contains("ended with eos"),
                "\(result.standardOutput) \(result.standardError)")
        let pixels = try RawVideoFile(contentsOf: output, layout: .i420, width: Self.width, height: Self.height)
        #expect(pixels.frameCount == Self.frames)

        // The box's top edge in the class colour of "car" (no class id: the palette picks by name; BT.601 here).
        let colour = BoxAnnotator(matrix: .bt601).colour(for: Detection(
            box: BoundingBox(x: 0, y: 0, width: 1, height: 1), className: "car", confidence: 1))
        for frame in 0..<pixels.frameCount {
            let edge = (Self.box.x..<(Self.box.x + Self.box.width)).allSatisfy {
                pixels.luma(frame: frame, x: $0, y: Self.box.y) == colour.y
            }
            #expect(edge, "frame \(frame): no box edge at row \(Self.box.y)")
        }
        // Outside the box and its overlay the grey is untouched.
        #expect(pixels.luma(frame: 5, x: 300, y: 220) == 60 && pixels.luma(frame: 5, x: 10, y: 10) == 60)
        // The overlay, centred on the box, fades in from the first frame with the car (opacity 0, then a ninth more
        // each frame over 0.3 s) and stays while the car does.
        let centre = { (frame: Int) in pixels.lumaRegion(frame: frame, x: 70, y: 80, width: 40, height: 40) }
        let transparent = centre(0).allSatisfy { $0 == 60 }
        #expect(transparent, "the overlay starts transparent")
        let shown = (1..<Self.frames).filter { centre($0).contains { $0 != 60 } }
        let first = try #require(shown.first, "no overlay")
        #expect(first <= 3 && shown == Array(first..<Self.frames), "overlay on frames \(shown)")
        // 64 px wide, centred on the box centre (90, 100): nothing of it left of x = 58 or right of x = 122.
        let outside = (0..<Self.height).allSatisfy { row in
            pixels.luma(frame: 20, x: 50, y: row) == 60 || row == Self.box.y || (Self.box.y..<(Self.box.y + Self.box.height)).contains(row)
        }
        #expect(outside, "the overlay is wider than 64 px")
    }
}
