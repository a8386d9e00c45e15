import Foundation
import StreamLensCompositing
import StreamLensCore
import Testing

/// streamlensdetect with OpenCV's HOG people detector on real footage (vtest.avi, pedestrians on a campus road):
/// regions of interest on the buffers, their boxes in the pixels after streamlensannotate, and analysis that never
/// blocks a live stream.
@Suite(.serialized) struct DetectElementTests {
    static let width = 768, height = 576
    static let frames = 40

    /// The first `frames` frames of vtest.avi, played from raw I420 so that every run feeds the element exactly that
    /// many. (`identity eos-after=N` after a frame-threaded decoder is not exact: under load it sometimes lets N - 1
    /// through, otherwise N, the last of them not the Nth decoded frame.)
    static func vtestSource() async throws -> String {
        let folder = try PluginHarness.temporaryFolder()
        let decoded = folder.appendingPathComponent("vtest-head.i420")
        let outcome = try await PluginHarness.launch(
            "filesrc location=\(try PluginHarness.media("vtest.avi")) ! decodebin ! videoconvert "
                + "! video/x-raw,format=I420 ! identity eos-after=\(frames + 10) ! filesink location=\(decoded.path)")
        try #require(outcome.status == 0, "decoding vtest.avi: \(outcome.standardError)")
        let frameBytes = width * height * 3 / 2
        let handle = try FileHandle(forWritingTo: decoded)
        try #require(try handle.seekToEnd() >= UInt64(frames * frameBytes), "vtest.avi decoded to too few frames")
        try handle.truncate(atOffset: UInt64(frames * frameBytes))
        try handle.close()
        return "filesrc location=\(decoded.path) ! rawvideoparse format=i420 width=\(width) height=\(height) framerate=10/1"
    }

    @Test func hogFindsPeopleAsRegionsOfInterestAndTheirBoxesAreInThePixels() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        let output = folder.appendingPathComponent("annotated.i420")
        let recording = try await PluginHarness.readMetas(
            "\(try await Self.vtestSource()) ! streamlensdetect name=metas detector=hog sync-analysis=on "
                + "! streamlensannotate labels=false ! filesink location=\(output.path)")
        #expect(recording.outcome.status == 0, "stderr: \(recording.outcome.standardError)")
        #expect(recording.buffers.count == Self.frames)

        // People walk through every frame of vtest: after the first analysis every buffer carries some.
        let withPeople = recording.buffers.filter { !$0.regions.isEmpty }
        #expect(withPeople.count >= Self.frames - 5, "regions on \(withPeople.count) of \(Self.frames) buffers")
        for region in withPeople.flatMap(\.regions) {
            #expect(region["type"] as? String == "person")
            #expect(region["source"] as? String == "objects")
            #expect((region["confidence"] as? Double).map { $0 >= 0.5 && $0 <= 1 } == true, "\(region)")
            #expect(region["track_id"] is Int, "HOG detections are tracked: \(region)")
            let box = try #require(region["box"] as? [Int])
            #expect(box[2] > 10 && box[3] > 20 && box[0] + box[2] <= Self.width && box[1] + box[3] <= Self.height)
            // DL Streamer's layout: the track in an object_id structure, the box in fractions of the frame.
            #expect(region["object_id"] as? Int == region["track_id"] as? Int, "\(region)")
            let fractions = [box[0], box[1], box[0] + box[2], box[1] + box[3]].enumerated().map { index, pixels in
                Double(pixels) / Double(index % 2 == 0 ? Self.width : Self.height)
            }
            let written = ["x_min", "y_min", "x_max", "y_max"].compactMap { region[$0] as? Double }
            #expect(written.count == 4 && zip(written, fractions).allSatisfy { abs($0 - $1) < 1e-9 }, "\(region)")
        }
        let analysis = try #require(recording.messages(named: "streamlens-analysis").first)
        #expect((analysis["completed"] as? Int).map { $0 >= 2 } == true)
        #expect(analysis["skipped"] as? Int == 0)

        // streamlensannotate drew each region's outline in the person colour (BT.601 at this size, 2 px lines).
        let pixels = try RawVideoFile(contentsOf: output, layout: .i420, width: Self.width, height: Self.height)
        #expect(pixels.frameCount == Self.frames)
        let painter = BoxAnnotator(matrix: .bt601)
        var checkedEdges = 0
        for (index, buffer) in recording.buffers.enumerated() {
            for region in buffer.regions {
                let box = try #require(region["box"] as? [Int])
                let colour = painter.colour(for: Detection(
                    box: BoundingBox(x: 0, y: 0, width: 1, height: 1), className: "person",
                    classID: region["label_id"] as? Int ?? -1, confidence: 1))
                let edge = try #require(BoxAnnotator.pixelRectangle(BoundingBox(
                    x: Double(box[0]), y: Double(box[1]), width: Double(box[2]), height: Double(box[3]))))
                guard edge.y0 >= 0, edge.x0 >= 0, edge.x1 <= Self.width else { continue }
                // The top edge, row y0, across the box: every luma sample and its chroma are the class colour.
                for x in edge.x0..<edge.x1 {
                    #expect(pixels.luma(frame: index, x: x, y: edge.y0) == colour.y, "frame \(index) x \(x)")
                    let chroma = pixels.chroma(frame: index, x: x / 2, y: edge.y0 / 2)
                    #expect(chroma.u == colour.u && chroma.v == colour.v)
                }
                checkedEdges += 1
            }
        }
        #expect(checkedEdges >= 30)
    }

    @Test func onALiveSourceABusyDetectorSkipsFramesInsteadOfHoldingTheStream() async throws {
        try PluginHarness.requirePlugin()
        // 1280×720 at 60 fps, every frame due: HOG takes far longer than 17 ms on a 640-wide copy (about 67 ms here,
        // 47 on CI's machine; at 30 fps a machine twice as fast could keep up).
        let source = "videotestsrc is-live=true num-buffers=60 pattern=ball ! video/x-raw,format=I420,width=1280,height=720,framerate=60/1"
        let free = try await PluginHarness.readMetas(
            "\(source) ! streamlensdetect name=metas interval=0 ! fakesink sync=false")
        #expect(free.outcome.status == 0, "stderr: \(free.outcome.standardError)")
        let freeCounts = try #require(free.messages(named: "streamlens-analysis").first)
        let skipped = try #require(freeCounts["skipped"] as? Int), completed = try #require(freeCounts["completed"] as? Int)
        #expect(skipped > 0 && completed > 0, "completed \(completed), skipped \(skipped)")
        #expect(free.buffers.count == 60)

        let waiting = try await PluginHarness.readMetas(
            "\(source) ! streamlensdetect name=metas interval=0 sync-analysis=on ! fakesink sync=false")
        let waitingCounts = try #require(waiting.messages(named: "streamlens-analysis").first)
        // Asked to wait, the element hands every frame to the detector (and holds the stream to do so).
        #expect(waitingCounts["skipped"] as? Int == 0)
        let handled = (waitingCounts["completed"] as? Int ?? 0) + (waitingCounts["failed"] as? Int ?? 0)
        #expect(handled == 60, "\(waitingCounts)")
    }
}
