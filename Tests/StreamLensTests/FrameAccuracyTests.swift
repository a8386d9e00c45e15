import Foundation
import Synchronization
import Testing
import StreamLensCore

/// Frame-accurate annotations (`--sync-analysis`): a generated clip with a white square moving a known number of
/// pixels per frame, found by the generated centroid ONNX model (scripts/datasets/make-test-onnx.py), and the box the run
/// drew found again in the output pixels.
@Suite(.serialized) struct FrameAccuracyTests {
    static let size = 320
    static let side = 64
    static let frameCount = 60
    static let start = (x: 20, y: 40)
    /// Pixels per frame.
    static let step = (x: 2, y: 1)
    /// The detector looks at every 8th frame (`every_nth_frame`).
    static let analysedEvery = 8

    /// Where the square's centre is in frame `index`.
    static func centre(_ index: Int) -> (x: Double, y: Double) {
        (Double(start.x + step.x * index + side / 2), Double(start.y + step.y * index + side / 2))
    }

    /// Raw I420 frames: black, with the white square; played through `rawvideoparse` (lossless, not live).
    static func writeClip(to url: URL) throws {
        let lumaSize = size * size
        var data = Data(count: lumaSize * 3 / 2 * frameCount)
        data.withUnsafeMutableBytes { (bytes: UnsafeMutableRawBufferPointer) in
            for index in 0..<frameCount {
                let frame = index * lumaSize * 3 / 2
                for offset in 0..<lumaSize { bytes[frame + offset] = 16 }
                for offset in lumaSize..<(lumaSize * 3 / 2) { bytes[frame + offset] = 128 }
                let left = start.x + step.x * index
                let top = start.y + step.y * index
                for row in top..<(top + side) {
                    for column in left..<(left + side) { bytes[frame + row * size + column] = 235 }
                }
            }
        }
        try data.write(to: url)
    }

    /// The generated ONNX fixtures (needs Python's onnx package, which scripts/test.sh installs).
    static func onnxFixtures(in folder: URL) throws -> URL {
        let directory = folder.appendingPathComponent("onnx")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("scripts/datasets/make-test-onnx.py").path, directory.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "make-test-onnx.py failed (is the onnx Python package installed?)")
        return directory
    }

    /// Runs the clip with the centroid detector, boxes only, and returns the report and the centre of the box found
    /// in each output frame (nil where none was drawn).
    static func run(extraArguments: [String]) async throws -> (report: Report, boxes: [Int: (x: Double, y: Double)]) {
        let folder = try makeTemporaryFolder()
        let clip = folder.appendingPathComponent("square.i420")
        try writeClip(to: clip)
        let models = try onnxFixtures(in: folder)
        let pipeline = folder.appendingPathComponent("accuracy.yaml")
        try """
            source: { input: "filesrc location=\(clip.path) ! rawvideoparse width=\(size) height=\(size) format=i420 framerate=30/1" }
            stages:
              detector:
                backend: "onnx:\(models.appendingPathComponent("centroid-v8.onnx").path)"
                class_names: "\(models.appendingPathComponent("classes.txt").path)"
                input_size: 320
                every_nth_frame: \(analysedEvery)
              annotations: { boxes: true, labels: false }
            """.write(to: pipeline, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("boxes.mkv")
        let reportPath = folder.appendingPathComponent("report.json")
        let result = try await runTool(
            ["run", pipeline.path, "--output", output.path, "--report", reportPath.path, "--quiet"] + extraArguments)
        try #require(result.status == 0, "stderr: \(result.standardError)")
        let boxes = Mutex<[Int: (x: Double, y: Double)]>([:])
        let decoded = try await decode(output) { planes, index in
            if let centre = boxCentre(in: planes) { boxes.withLock { $0[index] = centre } }
        }
        #expect(decoded.frames.count == frameCount)
        return (try Report(reportPath), boxes.withLock { $0 })
    }

    /// The centre of the coloured outline: the extent of strongly coloured chroma samples (the square and the
    /// background are grey).
    static func boxCentre(in planes: YUVPlanes) -> (x: Double, y: Double)? {
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        for row in 0..<planes.u.height {
            for column in 0..<planes.u.width {
                let u = Int(planes.u.base[row * planes.u.stride + column * planes.u.pixelStride])
                let v = Int(planes.v.base[row * planes.v.stride + column * planes.v.pixelStride])
                guard abs(u - 128) + abs(v - 128) > 40 else { continue }
                minX = min(minX, column)
                maxX = max(maxX, column)
                minY = min(minY, row)
                maxY = max(maxY, row)
            }
        }
        guard maxX >= 0 else { return nil }
        // Chroma sample c covers luma pixels 2c and 2c + 1.
        return (Double(minX * 2 + maxX * 2 + 2) / 2, Double(minY * 2 + maxY * 2 + 2) / 2)
    }

    static func error(_ box: (x: Double, y: Double), frame index: Int) -> Double {
        let truth = centre(index)
        return max(abs(box.x - truth.x), abs(box.y - truth.y))
    }

    /// The file default: every analysed frame carries its own box (within 4 px), every frame between two analysed
    /// ones a box interpolated between theirs (within 8 px); the report says sync was on, with a drawn lag of at most
    /// half the interval.
    @Test func fileRunsDrawEachFrameWithItsOwnAnalysis() async throws {
        let (report, boxes) = try await Self.run(extraArguments: [])
        #expect(report.decoded == Self.frameCount && report.output == Self.frameCount)
        #expect(report.run["sync_analysis"] as? Bool == true)
        let objects = try #require((report.json["analysis"] as? [String: Any])?["objects"] as? [String: Any])
        #expect(objects["completed"] as? Int == (Self.frameCount + Self.analysedEvery - 1) / Self.analysedEvery)
        let lag = try #require(objects["drawn_lag_ms"] as? [String: Double])
        #expect(lag["max"]! <= 150, "drawn lag \(lag)")
        for index in 0..<Self.frameCount {
            let box = try #require(boxes[index], "no box drawn on frame \(index)")
            let limit: Double = index % Self.analysedEvery == 0 ? 4 : 8
            #expect(Self.error(box, frame: index) <= limit, "frame \(index): box at \(box), square at \(Self.centre(index))")
        }
    }

    /// Without sync, frames get the newest result whatever frame it came from: boxes trail the square between
    /// analysed frames (which is what the test above would catch), and the report says so.
    @Test func withoutSyncBoxesTrailTheObject() async throws {
        let (report, boxes) = try await Self.run(extraArguments: ["--sync-analysis", "off"])
        #expect(report.output == Self.frameCount)
        #expect(report.run["sync_analysis"] as? Bool == false)
        let worst = boxes.map { Self.error($0.value, frame: $0.key) }.max() ?? 0
        #expect(worst > 8, "largest box error without sync: \(worst) px")
        let objects = try #require((report.json["analysis"] as? [String: Any])?["objects"] as? [String: Any])
        let lag = try #require(objects["drawn_lag_ms"] as? [String: Double])
        #expect(lag["max"]! >= 200, "drawn lag \(lag)")
        #expect(lag["p50"]! > 0, "drawn lag \(lag)")
    }

    /// Live sources keep the newest result and never wait: `auto` leaves sync off, every frame goes out.
    @Test func liveSourcesKeepNewestResults() async throws {
        let folder = try makeTemporaryFolder()
        let models = try Self.onnxFixtures(in: folder)
        let reportPath = folder.appendingPathComponent("report.json")
        let result = try await runTool([
            "run", "--input",
            "videotestsrc is-live=true num-buffers=45 pattern=ball ! video/x-raw,width=320,height=320,framerate=30/1",
            "--output", "null", "--detector", "onnx:\(models.appendingPathComponent("centroid-v8.onnx").path)",
            "--class-names", models.appendingPathComponent("classes.txt").path, "--input-size", "320",
            "--report", reportPath.path, "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let report = try Report(reportPath)
        #expect(report.live)
        // The model (320 × 320) ran: without --input-size it failed on every frame, unnoticed.
        let objects = try #require((report.json["analysis"] as? [String: Any])?["objects"] as? [String: Any])
        #expect(objects["failed"] as? Int == 0 && (objects["completed"] as? Int ?? 0) > 0, "objects: \(objects)")
        #expect(report.run["sync_analysis"] as? Bool == false)
        // Nothing waits for the detector; on a loaded machine the live source may still outrun the frame path
        // for a moment, and such a frame is dropped and counted, never held.
        #expect(report.output + report.droppedTotal == 45 && report.droppedTotal <= 5, "output \(report.output)")
    }
}
