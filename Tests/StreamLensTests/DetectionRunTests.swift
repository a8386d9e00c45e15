import Foundation
import Testing
@testable import StreamLens

/// Object detection through the command line, on real footage and on a live test source.
@Suite(.serialized) struct DetectionRunTests {
    static let pedestrians = repositoryRoot.appendingPathComponent(".media-cache/media/vtest.avi")

    static func jsonLines(_ url: URL) throws -> [[String: Any]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    /// HOG on the campus pedestrians clip (opencv-doc vtest.avi, msmpeg4v3): every frame out, people found and
    /// tracked, detection and track events written, the detector's own figures in the report.
    @Test func hogFindsAndTracksPeopleInRealFootage() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.pedestrians.path), "run scripts/datasets/fetch-media.sh")
        let folder = try makeTemporaryFolder()
        let events = folder.appendingPathComponent("events.jsonl")
        let reportPath = folder.appendingPathComponent("report.json")
        let output = folder.appendingPathComponent("people.mkv")
        let result = try await runTool([
            "run", "--input", Self.pedestrians.path, "--output", output.path, "--detector", "hog",
            "--events", events.path, "--report", reportPath.path, "--quiet",
        ], timeout: .seconds(300))
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let report = try Report(reportPath)
        #expect(report.decoded == 795)
        #expect(report.output == 795)
        let lines = try Self.jsonLines(events)
        let detections = lines.filter { $0["type"] as? String == "detection" }
        let tracks = lines.filter { $0["type"] as? String == "track" }
        // 795 frames at 10 fps analysed every 0.3 s: 265 analyses; people walk through almost all of them.
        let analysedWithPeople = Set(detections.compactMap { $0["start"] as? Double }).count
        #expect(analysedWithPeople > 200, "analysed frames with people: \(analysedWithPeople)")
        #expect(detections.allSatisfy { $0["class"] as? String == "person" && ($0["box"] as? [Int])?.count == 4 })
        #expect(tracks.count >= 10)
        #expect(tracks.allSatisfy { ($0["end"] as! Double) >= ($0["start"] as! Double) && $0["track_id"] is Int })
        let details = try #require((report.json["stage_details"] as? [String: Any])?["objects"] as? [String: Any])
        let stage = try #require(details["stage"] as? [String: Any])
        #expect(stage["analysed_frames"] as? Int == 265)
        #expect(stage["failures"] as? Int == 0)
        #expect(stage["breaker_trips"] as? Int == 0)
        #expect(details["schedule"] is [String: Any])
        #expect(try await decode(output).frames.count == 795)
    }

    /// `--export mot FILE`: MOTChallenge lines for the confirmed tracks of each analysed frame, frames counted from 1
    /// in the stream (analysed once a second at 10 fps: frames 1, 11, 21…), the same ids as the events, the file
    /// under its name once the run ends.
    @Test func motExportWritesTheTracksOfEveryAnalysedFrame() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.pedestrians.path), "run scripts/datasets/fetch-media.sh")
        let folder = try makeTemporaryFolder()
        let mot = folder.appendingPathComponent("tracks.txt")
        let events = folder.appendingPathComponent("events.jsonl")
        let result = try await runTool([
            "run", "--input", Self.pedestrians.path, "--output", "null", "--detector", "hog", "--analysis-interval",
            "1", "--export", "mot", mot.path, "--events", events.path, "--quiet",
        ], timeout: .seconds(300))
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: mot.path + ".partial"))
        let lines = try String(contentsOf: mot, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 50, "\(lines.count) lines over 80 analysed frames")
        var ids = Set<Int>()
        for line in lines {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 10, "\(line)")
            let frame = try #require(Int(fields[0]))
            #expect(frame % 10 == 1 && frame <= 795, "\(line)")
            ids.insert(try #require(Int(fields[1])))
            let numbers = fields[2...6].compactMap(Double.init)
            #expect(numbers.count == 5 && numbers[2] > 0 && numbers[3] > 0 && numbers[4] >= 0.5, "\(line)")
            #expect(Array(fields[7...]) == ["-1", "-1", "-1"], "\(line)")
        }
        let eventIDs = Set(try Self.jsonLines(events).compactMap { $0["track_id"] as? Int })
        #expect(ids.isSubset(of: eventIDs) && ids.count >= 10, "ids \(ids.sorted()), events \(eventIDs.sorted())")
    }

    /// `--export coco FILE` beside `--export mot FILE`: the same tracked boxes as COCO detection results, one image
    /// per analysed frame (id = the MOT frame number, the source size), `person` as category 1, written whole.
    @Test func cocoExportHoldsTheSameBoxesAsTheMOTExport() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.pedestrians.path), "run scripts/datasets/fetch-media.sh")
        let folder = try makeTemporaryFolder()
        let mot = folder.appendingPathComponent("tracks.txt")
        let coco = folder.appendingPathComponent("detections.json")
        let result = try await runTool([
            "run", "--input", Self.pedestrians.path, "--output", "null", "--detector", "hog", "--analysis-interval",
            "2", "--export", "mot", mot.path, "--export", "coco=\(coco.path)", "--quiet",
        ], timeout: .seconds(300))
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: coco.path + ".partial"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: coco)) as? [String: Any])
        let images = try #require(document["images"] as? [[String: Any]])
        let annotations = try #require(document["annotations"] as? [[String: Any]])
        let categories = try #require(document["categories"] as? [[String: Any]])
        // 79.5 s analysed every 2 s at 10 fps: frames 1, 21, 41… (40 of them), each 768 × 576.
        #expect(images.count == 40 && images.allSatisfy { ($0["id"] as? Int).map { $0 % 20 == 1 } == true })
        #expect(images.allSatisfy { $0["width"] as? Int == 768 && $0["height"] as? Int == 576 })
        #expect(categories.count == 1 && categories[0]["id"] as? Int == 1 && categories[0]["name"] as? String == "person")
        let imageIDs = Set(images.compactMap { $0["id"] as? Int })
        let lines = try String(contentsOf: mot, encoding: .utf8).split(separator: "\n")
        #expect(annotations.count == lines.count && annotations.count > 20, "\(annotations.count) and \(lines.count)")
        for (annotation, line) in zip(annotations, lines) {
            let fields = line.split(separator: ",").map(String.init)
            let image = try #require(annotation["image_id"] as? Int)
            #expect(imageIDs.contains(image) && String(image) == fields[0], "\(annotation) \(line)")
            #expect(String(try #require(annotation["track_id"] as? Int)) == fields[1])
            let box = try #require(annotation["bbox"] as? [Double])
            #expect(box == fields[2...5].compactMap(Double.init), "\(annotation) \(line)")
            #expect(annotation["category_id"] as? Int == 1 && annotation["iscrowd"] as? Int == 0)
        }
    }

    /// A live 720p240 source with HOG on every frame: more work than two cores can do in real time. The video must
    /// not pay for it: every decoded frame is output, nothing is dropped, and the frames HOG could not look at are
    /// counted as analysis skips. How many are skipped depends on the machine's speed (HOG's grew from 30 to about 50
    /// frames a second at 640 wide); the counting itself is checked with a stage of known cost in
    /// FramePathTests.liveAnalysisThatCannotKeepUpSkipsFramesButNeverDropsVideo.
    @Test func liveDetectionThatCannotKeepUpSkipsAnalysisNotFrames() async throws {
        let folder = try makeTemporaryFolder()
        let reportPath = folder.appendingPathComponent("report.json")
        let result = try await runTool([
            "run", "--input", "videotestsrc is-live=true num-buffers=180 pattern=ball ! video/x-raw,width=1280,height=720,framerate=240/1",
            "--output", "null", "--detector", "hog", "--analysis-interval", "0", "--report", reportPath.path, "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let report = try Report(reportPath)
        #expect(report.live)
        #expect(report.decoded == 180)
        #expect(report.output == 180)
        #expect(report.droppedTotal == 0)
        let skipped = ((report.json["frames"] as! [String: Any])["analysis_skipped"] as! [String: Int])["objects"] ?? 0
        let analysis = (report.json["analysis"] as! [String: Any])["objects"] as! [String: Any]
        #expect(skipped > 0, "skipped \(skipped)")
        #expect((analysis["completed"] as! Int) + skipped + (analysis["failed"] as? Int ?? 0) == 180)
        // Live: each frame got the newest result, whatever frame it came from.
        #expect(report.run["sync_analysis"] as? Bool == false)
    }

    @Test(arguments: [
        (["--detector", "onnx:/no/such/model.onnx"], Int32(1), "ONNX model '/no/such/model.onnx' not found"),
        (["--detector", "cascade:nosuch"], 1, "no cascade named 'nosuch' in /usr/share/opencv4/haarcascades: give a known name (face, frontalface, fullbody, licence_plate, license_plate, lowerbody, plate, profileface, upperbody)"),
        (["--detector", "yolo"], 2, "unknown detector 'yolo'"),
        (["--confidence", "0.4"], 2, "needs --detector"),
        (["--detector", "hog", "--class-names", "names.txt"], 2, "'--class-names': applies to an ONNX model only"),
        (["--detector", "onnx:m.onnx", "--input-size", "8"], 2, "8 is out of range; allowed 32…4096"),
        (["--detector", "hog", "--input-size", "320"], 2, "'--input-size': applies to an ONNX model only"),
        (["--detector", "hog", "--export", "csv", "x.csv"], 2, "unknown kind 'csv'; use one of: mot, coco, geojson, gpx"),
        (["--export", "mot", "tracks.txt"], 2, "needs --detector"),
    ])
    func detectorMistakesAreOneClearLine(arguments: [String], status: Int32, message: String) async throws {
        let result = try await runTool(["run", "--input", "videotestsrc num-buffers=3"] + arguments)
        #expect(result.status == status)
        #expect(result.standardError.split(separator: "\n").count == 1, "stderr: \(result.standardError)")
        #expect(result.standardError.contains(message), "stderr: \(result.standardError)")
    }

    /// A model whose output does not fit its class names fails on every frame: the run said "output written" and
    /// exited 0 with no box anywhere, the reason only in the report, and the frames the circuit breaker then passed
    /// over counted as completed analyses.
    @Test func aDetectorThatFailsOnEveryFrameFailsTheRun() async throws {
        let folder = try makeTemporaryFolder()
        let models = try FrameAccuracyTests.onnxFixtures(in: folder)
        let names = folder.appendingPathComponent("two-names.txt")
        try "person\ncar\n".write(to: names, atomically: true, encoding: .utf8)
        let reportPath = folder.appendingPathComponent("report.json")
        let result = try await runTool([
            "run", "--input", "videotestsrc num-buffers=40 ! video/x-raw,width=320,height=240,framerate=10/1",
            "--output", "null", "--detector", "onnx:" + models.appendingPathComponent("yolov8-fixed.onnx").path,
            "--class-names", names.path, "--report", reportPath.path,
        ])
        #expect(result.status == 1)
        let errors = result.standardError.split(separator: "\n").filter { $0.hasPrefix("streamlens: error:") }
        #expect(errors.count == 1, "stderr: \(result.standardError)")
        #expect(errors.first?.contains("the objects stage failed on every frame it tried") == true)
        #expect(errors.first?.contains("2 class names") == true, "the model's own complaint: \(result.standardError)")
        #expect(result.standardOutput.contains("analysis failed: objects on"), "stdout: \(result.standardOutput)")
        let report = try Report(reportPath)
        let objects = try #require((report.json["analysis"] as? [String: Any])?["objects"] as? [String: Any])
        #expect(objects["completed"] as? Int == 0)
        let failed = try #require(objects["failed"] as? Int), skipped = try #require(objects["skipped"] as? Int)
        #expect(failed >= 1 && failed + skipped == 14, "failed \(failed), skipped \(skipped) of 14 analyses")
        #expect(report.output == 40, "the video still went through")
    }
}
