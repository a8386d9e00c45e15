import Foundation
import Testing

/// Wrong property values: one clear line naming the property and what it accepts, an ERROR that stops the pipeline
/// before any frame flows (or GLib's own warning for a number out of its documented range), and never a crash.
@Suite struct PropertyErrorTests {
    /// An element with a wrong setting, and words its error must contain.
    static let wrongSettings: [(element: String, mustSay: [String])] = [
        // Unknown detector: the property, the value and the accepted forms.
        ("streamlensdetect detector=yolo", ["property 'detector'", "'yolo'", "hog, yolov8n, cascade:NAME|PATH", "onnx:PATH"]),
        // A model file that does not exist: the path.
        ("streamlensdetect detector=onnx:/nonexistent/model.onnx", ["'/nonexistent/model.onnx'", "not found"]),
        // A cascade name that is not installed.
        ("streamlensdetect detector=cascade:nosuch", ["no cascade named 'nosuch'", "frontalface"]),
        // Unknown sign region.
        ("streamlenssigns region=fr", ["property 'region'", "'fr'", "eu or us"]),
        // A text-line model file that does not exist: the path and what to do.
        ("streamlenssigns text-line-model=/nonexistent/text-line.onnx",
         ["'/nonexistent/text-line.onnx'", "no such file", "install-text-line-model.sh", "text-line-model=off"]),
        // A badge corner that is not a corner.
        ("streamlensannotate badge=middle", ["property 'badge'", "'middle'", "top-left", "off"]),
        ("streamlensannotate hud=centre", ["property 'hud'", "'centre'", "bottom-right"]),
        ("streamlensannotate badge-region=uk", ["property 'badge-region'", "'uk'", "eu or us"]),
        // Overlay without a clip, with an unknown trigger, with an unknown anchor.
        ("streamlensoverlay", ["property 'location' is not set", "location=PATH"]),
        ("streamlensoverlay location=clip.webm trigger=sometimes", ["property 'trigger'", "class:NAME", "speed_limit"]),
        ("streamlensoverlay location=clip.webm anchor=left", ["property 'anchor'", "'left'", "box:centre"]),
        // A box anchor needs a detection to sit on.
        ("streamlensoverlay location=clip.webm anchor=box:top", ["always-on overlay has no box"]),
        // A report that cannot be written.
        ("streamlensstats report=/nonexistent/folder/run.json", ["cannot write the report", "/nonexistent/folder/run.json"]),
        ("streamlensstats report=/tmp", ["cannot write the report to '/tmp'", "it is a folder"]),
    ]

    @Test(arguments: Self.wrongSettings.map(\.element))
    func aWrongSettingStopsThePipelineWithOneClearError(element: String) async throws {
        try PluginHarness.requirePlugin()
        let words = try #require(Self.wrongSettings.first { $0.element == element }).mustSay
        let result = try await PluginHarness.launch(
            "videotestsrc num-buffers=5 ! video/x-raw,format=I420,width=320,height=240 ! \(element) ! fakesink")
        #expect(!result.crashed, "crashed: \(result.standardError)")
        #expect(result.status != 0, "the pipeline ran: \(result.standardOutput)")
        let errorLine = try #require(
            (result.standardOutput + result.standardError).split(separator: "\n").first { $0.hasPrefix("ERROR: from element") },
            "no ERROR message: \(result.standardOutput) \(result.standardError)")
        for word in words { #expect(errorLine.contains(word), "\(errorLine) does not say \(word)") }
        // Nothing flowed: the error came at READY→PAUSED.
        #expect(!result.standardOutput.contains("Got EOS"))
    }

    @Test func aNumberOutOfRangeIsRejectedByGLibAndTheDefaultStays() async throws {
        try PluginHarness.requirePlugin()
        let script = """
            import gi
            gi.require_version("Gst", "1.0")
            from gi.repository import Gst
            Gst.init(None)
            element = Gst.ElementFactory.make("streamlensdetect", None)
            element.set_property("confidence", 0.8)
            try:
                element.set_property("confidence", 2.0)
            except Exception as error:
                print("refused:", error)
            print("confidence", element.get_property("confidence"))
            """
        let result = try await PluginHarness.run(PluginHarness.python, ["-c", script])
        #expect(!result.crashed)
        #expect(result.standardOutput.contains("confidence 0.8"), "\(result.standardOutput) \(result.standardError)")
        // PyGObject refuses out-of-range values itself, naming the property and the range.
        #expect((result.standardOutput + result.standardError).contains("confidence"))
    }

    /// Out of range in a pipeline description (at construction) GLib sets nothing; the element read 0 instead of
    /// the default: `expiry=0` crashed streamlenssigns, `spotlight=1.5` turned the video black.
    @Test func aNumberOutOfRangeAtConstructionLeavesTheDefault() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        var frames: [[UInt8]] = []
        for elements in ["identity", "streamlenssigns expiry=0 ! streamlensannotate spotlight=1.5"] {
            let output = folder.appendingPathComponent("frames.i420")
            let result = try await PluginHarness.launch(
                "videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=64,height=48 ! \(elements) "
                    + "! filesink location=\(output.path)")
            #expect(result.status == 0 && !result.crashed, "stderr: \(result.standardError)")
            frames.append([UInt8](try Data(contentsOf: output)))
        }
        // The default spotlight (1) draws nothing: the frames pass untouched.
        #expect(frames[0].count == 3 * 64 * 48 * 3 / 2 && frames[1] == frames[0])
    }

    @Test func aMissingOverlayClipWarnsOnceAndTheVideoPassesUntouched() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let output = folder.appendingPathComponent("frames.i420")
        let result = try await PluginHarness.launch(
            "videotestsrc num-buffers=10 pattern=white ! video/x-raw,format=I420,width=320,height=240 "
                + "! streamlensoverlay location=/nonexistent/clip.webm x=10 y=10 ! filesink location=\(output.path)")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let warnings = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("WARNING: from element") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("'/nonexistent/clip.webm'") == true)
        let frames = try RawVideoFile(contentsOf: output, layout: .i420, width: 320, height: 240)
        #expect(frames.frameCount == 10)
        // videotestsrc's white is Y 235: no pixel was touched.
        for frame in 0..<frames.frameCount {
            let white = frames.lumaRegion(frame: frame, x: 0, y: 0, width: 320, height: 240).allSatisfy { $0 == 235 }
            #expect(white, "frame \(frame) was changed")
        }
    }
}
