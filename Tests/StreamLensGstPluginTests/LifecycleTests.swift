import Foundation
import Testing

/// The elements over their whole life: started, stopped and started again in one process, and leaving nothing
/// behind (GStreamer's own leak tracer).
@Suite struct LifecycleTests {
    /// All five elements in one pipeline, on a sign clip converted to NV12.
    static func everyElement(report: String) throws -> String {
        "\(try PluginHarness.signClipSource(SignsElementTests.clip)) ! videoconvert ! video/x-raw,format=NV12 "
            + "! streamlenssigns sync-analysis=on ! streamlensdetect sync-analysis=on "
            + "! streamlensannotate hud=top-left spotlight=0.5 "
            + "! streamlensoverlay location=\(try PluginHarness.media("overlays/gtk-logo.webm")) trigger=speed_limit "
            + "! streamlensstats report=\(report) ! fakesink"
    }

    @Test func nothingLeaksOnceThePipelineIsGone() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let result = try await PluginHarness.launch(
            try Self.everyElement(report: folder.appendingPathComponent("run.json").path),
            extraEnvironment: ["GST_TRACERS": "leaks", "GST_DEBUG": "GST_TRACER:7", "GST_DEBUG_NO_COLOR": "1"])
        #expect(result.status == 0 && !result.crashed, "stderr: \(result.standardError.suffix(2000))")
        #expect(result.standardOutput.contains("streamlens-speed-limit"))
        // The tracer logs one `object-alive` record per object (buffer, caps, memory…) not freed at exit (and once
        // the record's format, with `%s` placeholders).
        let alive = result.standardError.split(separator: "\n").filter {
            $0.contains("object-alive, type-name=(string)") && !$0.contains("%s")
        }
        let clean = alive.isEmpty
        #expect(clean, "still alive at exit: \(alive.prefix(5).joined(separator: "\n"))")
    }

    @Test func aPipelineRunsAgainAfterGoingToNull() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let report = folder.appendingPathComponent("run.json").path
        let script = """
            import gi, sys
            gi.require_version("Gst", "1.0")
            from gi.repository import Gst
            Gst.init(None)
            pipeline = Gst.parse_launch(sys.argv[1])
            for run in range(2):
                pipeline.set_state(Gst.State.PLAYING)
                signs = 0
                while True:
                    message = pipeline.get_bus().timed_pop_filtered(
                        Gst.CLOCK_TIME_NONE, Gst.MessageType.EOS | Gst.MessageType.ERROR | Gst.MessageType.ELEMENT)
                    if message.type == Gst.MessageType.ELEMENT:
                        if message.get_structure().get_name() == "streamlens-speed-limit":
                            signs += 1
                        continue
                    if message.type == Gst.MessageType.ERROR:
                        print("error", message.parse_error()[0].message)
                    break
                pipeline.set_state(Gst.State.NULL)
                print("run", run, "signs", signs)
            """
        let result = try await PluginHarness.run(PluginHarness.python, ["-c", script, try Self.everyElement(report: report)])
        #expect(result.status == 0 && !result.crashed, "stderr: \(result.standardError.suffix(2000))")
        #expect(result.standardOutput.contains("run 0 signs 1"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("run 1 signs 1"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("error"))
    }
}
