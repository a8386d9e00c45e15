import Foundation
import Testing

/// streamlenssigns on clips of the generated sign test set (the clip SpeedLimitRunTests reads through the command
/// line): one `streamlens-speed-limit` message per sign, the current limit on buffers, the badge drawn by
/// streamlensannotate, and an overlay triggered by the new limit.
@Suite(.serialized) struct SignsElementTests {
    /// A 90 px "20" sign in shadow, visible from 0.16 s to 1.36 s (20 frames at 12.5 fps).
    static let clip = "sign_02_20_shadow"

    @Test func aSignGivesOneMessageAndTheLimitRidesOnTheBuffersAfterIt() async throws {
        try PluginHarness.requirePlugin()
        let recording = try await PluginHarness.readMetas(
            "\(try PluginHarness.signClipSource(Self.clip)) ! streamlenssigns sync-analysis=on ! fakesink")
        #expect(recording.outcome.status == 0, "stderr: \(recording.outcome.standardError)")
        #expect(recording.error == nil)
        let signs = recording.messages(named: "streamlens-speed-limit")
        #expect(signs.count == 1)
        let sign = try #require(signs.first)
        #expect(sign["value"] as? Int == 20)
        #expect(sign["unit"] as? String == "km/h")
        let start = try #require(sign["start"] as? Double), end = try #require(sign["end"] as? Double)
        #expect(start >= 0.15 && start <= 0.5, "start \(start)")
        #expect(end >= 1.0 && end <= 1.4, "end \(end)")
        #expect((sign["confidence"] as? Double).map { $0 >= 0.7 && $0 <= 1 } == true)
        let box = try #require(sign["box"] as? [Int])
        #expect(box.count == 4)
        // The sign sits in the right half of the 640×272 frame.
        #expect(box[0] > 320 && box[2] > 40 && box[3] > 40, "box \(box)")
        #expect((sign["reads"] as? Int).map { $0 >= 3 } == true)

        // Every frame passed; the limit is on the buffers once confirmed, never before the sign shows.
        #expect(recording.buffers.count == 20)
        let limited = recording.buffers.filter { buffer in
            buffer.regions.contains { $0["type"] as? String == "speed_limit" && $0["value"] as? Int == 20 && $0["unit"] as? String == "km/h" }
        }
        #expect(limited.count >= 8, "limit on \(limited.count) buffers")
        #expect(recording.buffers.first?.regions.isEmpty == true)
        let analysis = try #require(recording.messages(named: "streamlens-analysis").first)
        #expect(analysis["skipped"] as? Int == 0, "sync-analysis must not skip")
    }

    /// The same clip as an MP4 with B-frames, whose segment starts its first frame later than 0 (its edit list): the
    /// sign's times are stream time, the same as from the raw clip (they were late by the segment's start).
    @Test func signTimesAreStreamTimeInAnMP4WithBFrames() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let mp4 = folder.appendingPathComponent("sign.mp4")
        let encoded = try await PluginHarness.launch(
            "\(try PluginHarness.signClipSource(Self.clip)) ! x264enc bframes=2 ! mp4mux ! filesink location=\(mp4.path)")
        #expect(encoded.status == 0, "stderr: \(encoded.standardError)")
        var times: [[Double]] = []
        for source in [try PluginHarness.signClipSource(Self.clip), "filesrc location=\(mp4.path) ! qtdemux ! h264parse ! avdec_h264"] {
            let recording = try await PluginHarness.readMetas("\(source) ! streamlenssigns sync-analysis=on ! fakesink")
            #expect(recording.outcome.status == 0, "stderr: \(recording.outcome.standardError)")
            let sign = try #require(recording.messages(named: "streamlens-speed-limit").first)
            times.append([try #require(sign["start"] as? Double), try #require(sign["end"] as? Double)])
        }
        #expect(times.count == 2 && zip(times[0], times[1]).allSatisfy { abs($0 - $1) < 0.001 }, "raw \(times[0]), mp4 \(times[1])")
    }

    /// After a flushing seek back to the start the element's last result belongs to frames that are gone: the
    /// first frames after the seek carried the 50's region (read at 1 s) although the sign shows only from 0.24 s.
    @Test func aSeekBackForgetsTheResultOfTheFramesBeforeIt() async throws {
        try PluginHarness.requirePlugin()
        let script = """
            import sys, time, gi
            gi.require_version("Gst", "1.0"); gi.require_version("GstVideo", "1.0")
            from gi.repository import Gst, GstVideo
            Gst.init(None)
            pipeline = Gst.parse_launch(sys.argv[1] + " ! streamlenssigns sync-analysis=on ! fakesink name=sink sync=true")
            seen = []
            def probe(pad, info):
                buffer = info.get_buffer()
                seen.append((buffer.pts / 1e9, GstVideo.buffer_get_video_region_of_interest_meta_id(buffer, 0) is not None))
                return Gst.PadProbeReturn.OK
            pipeline.get_by_name("sink").get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, probe)
            pipeline.set_state(Gst.State.PLAYING)
            deadline = time.time() + 20
            while time.time() < deadline and not any(pts >= 1.2 and region for pts, region in seen):
                time.sleep(0.05)
            print("before", any(region for _, region in seen))
            seen.clear()
            pipeline.seek_simple(Gst.Format.TIME, Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE, 0)
            while time.time() < deadline and len([1 for pts, _ in seen if pts < 0.2]) < 3:
                time.sleep(0.05)
            pipeline.set_state(Gst.State.NULL)
            print("after", [region for pts, region in seen if pts < 0.2])
            """
        let result = try await PluginHarness.run(PluginHarness.python, ["-c", script, try PluginHarness.signClipSource("sequence_50_then_80")])
        #expect(!result.crashed)
        #expect(result.standardOutput.contains("before True"), "\(result.standardOutput) \(result.standardError)")
        #expect(result.standardOutput.contains("after [False, False, False]"), "\(result.standardOutput) \(result.standardError)")
    }

    @Test func aClipWithoutSignsPostsNoMessage() async throws {
        try PluginHarness.requirePlugin()
        let recording = try await PluginHarness.readMetas(
            "\(try PluginHarness.signClipSource("distractor_no_entry_0")) ! streamlenssigns sync-analysis=on ! fakesink")
        #expect(recording.outcome.status == 0, "stderr: \(recording.outcome.standardError)")
        #expect(recording.messages(named: "streamlens-speed-limit").isEmpty)
        #expect(recording.buffers.allSatisfy { $0.regions.isEmpty })
    }

    @Test func theBadgeAndASpeedLimitOverlayAppearInThePixelsOnceTheSignIsConfirmed() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let logo = try PluginHarness.media("overlays/gtk-logo.webm")
        let head = "\(try PluginHarness.signClipSource(Self.clip)) ! streamlenssigns sync-analysis=on "
            + "! streamlensannotate boxes=false labels=false badge=top-right"
        // The same run with and without the overlay, so the overlay's pixels are exactly the difference.
        let plain = folder.appendingPathComponent("badge.i420"), overlaid = folder.appendingPathComponent("overlay.i420")
        for (tail, output) in [("", plain), ("! streamlensoverlay location=\(logo) trigger=speed_limit=20 x=0 y=144 ", overlaid)] {
            let result = try await PluginHarness.launch("\(head) \(tail)! filesink location=\(output.path)")
            #expect(result.status == 0, "stderr: \(result.standardError)")
        }
        let frames = try RawVideoFile(contentsOf: plain, layout: .i420, width: 640, height: 272)
        let withOverlay = try RawVideoFile(contentsOf: overlaid, layout: .i420, width: 640, height: 272)
        #expect(frames.frameCount == 20 && withOverlay.frameCount == 20)

        // The badge's red ring shows as high V (Cr) in the top-right corner.
        var badged: [Int] = []
        for frame in 0..<frames.frameCount {
            var red = 0
            for y in 0..<(136 / 4) { for x in (320 * 3 / 4)..<320 where frames.chroma(frame: frame, x: x, y: y).v > 170 { red += 1 } }
            if red > 20 { badged.append(frame) }
        }
        #expect(badged.count >= 8, "badge on frames \(badged)")
        #expect(!badged.contains(0), "no badge before the sign is confirmed")

        // The 128×128 clip at (0, 144) appears with the confirmed limit, not before, and touches nothing else.
        var shown: [Int] = []
        for frame in 0..<frames.frameCount {
            let inside = frames.lumaRegion(frame: frame, x: 0, y: 144, width: 128, height: 128)
                != withOverlay.lumaRegion(frame: frame, x: 0, y: 144, width: 128, height: 128)
            if inside { shown.append(frame) }
            let untouched = frames.lumaRegion(frame: frame, x: 128, y: 0, width: 512, height: 272)
                == withOverlay.lumaRegion(frame: frame, x: 128, y: 0, width: 512, height: 272)
            #expect(untouched, "the overlay drew outside its rectangle in frame \(frame)")
        }
        let firstBadge = try #require(badged.first)
        #expect(shown.first.map { $0 >= firstBadge } == true, "overlay on \(shown), badge from \(firstBadge)")
        #expect(shown.count >= 5, "overlay on \(shown)")
    }

    /// With `badge-region=us` the badge is the US plate, as `--speed-limits us` draws it: a white face and no red in
    /// the corner (the element drew the European ring whatever the region).
    @Test func aUSLimitIsBadgedAsAUSPlateWithBadgeRegionUS() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let output = folder.appendingPathComponent("badge.i420")
        // A "20" plate in the middle of the frame, visible from 0.16 s to 1.04 s.
        let result = try await PluginHarness.launch(
            "\(try PluginHarness.signClipSource("us_sign_01_20_dim", from: .unitedStates)) "
                + "! streamlenssigns region=us sync-analysis=on "
                + "! streamlensannotate boxes=false labels=false badge=top-right badge-region=us "
                + "! filesink location=\(output.path)")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let frames = try RawVideoFile(contentsOf: output, layout: .i420, width: 640, height: 272)
        #expect(frames.frameCount == 16)
        // The plate (38 px tall, 30 wide, 8 px from the top-right corner) has a white face.
        var plated: [Int] = []
        var red: [Int] = []
        for frame in 0..<frames.frameCount {
            var white = 0
            for y in 12..<42 { for x in 606..<628 where frames.luma(frame: frame, x: x, y: y) > 200 { white += 1 } }
            if white > 200 { plated.append(frame) }
            var reddish = 0
            for y in 0..<(136 / 4) { for x in (320 * 3 / 4)..<320 where frames.chroma(frame: frame, x: x, y: y).v > 170 { reddish += 1 } }
            if reddish > 0 { red.append(frame) }
        }
        #expect(plated.count >= 5, "plate on frames \(plated)")
        #expect(!plated.contains(0), "no badge before the sign is confirmed")
        #expect(red.isEmpty, "red in the badge's corner on frames \(red)")
    }
}
