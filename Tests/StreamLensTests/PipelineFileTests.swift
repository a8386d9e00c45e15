import Foundation
import Testing
import StreamLensCompositing
@testable import StreamLens

@Suite struct PipelineFileTests {
    @Test func shippedPipelinesParse() async throws {
        for name in ["dashcam-file", "camera-live", "stream-rtp", "passthrough-bench"] {
            let path = repositoryRoot.appendingPathComponent("pipelines/\(name).yaml").path
            let configuration = try PipelineFile.load(path)
            #expect(configuration.poolCapacity == 3, "\(name)")
        }
        // The README calls it job 1 from a file: signs and people.
        let dashcam = try PipelineFile.load(repositoryRoot.appendingPathComponent("pipelines/dashcam-file.yaml").path)
        #expect(dashcam.speedLimits != nil)
        #expect(dashcam.detection?.detector.description == "hog")
        let live = try PipelineFile.load(repositoryRoot.appendingPathComponent("pipelines/camera-live.yaml").path)
        #expect(live.input == .camera(device: "/dev/video0"))
        #expect(live.backpressure == .drop)
        let rtp = try PipelineFile.load(repositoryRoot.appendingPathComponent("pipelines/stream-rtp.yaml").path)
        guard case .description(let sink) = rtp.output else {
            Issue.record("expected a sink description")
            return
        }
        #expect(sink.hasSuffix("udpsink host=127.0.0.1 port=5000"))
    }

    /// `run` is the default subcommand: `streamlens drive.mp4` names a video where a pipeline file goes.
    @Test func aVideoGivenAsThePipelineFileIsToldToUseInput() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("drive.mp4").path
        // An MP4's first bytes: a box size with zero bytes, then "ftyp".
        #expect(FileManager.default.createFile(atPath: video, contents: Data([0, 0, 0, 0x20]) + Data("ftypisom".utf8)))
        do {
            _ = try PipelineFile.load(video)
            Issue.record("a video was taken as a pipeline file")
        } catch {
            #expect("\(error)".contains("not a pipeline file"), "\(error)")
            #expect("\(error)".contains("--input \(video)"), "\(error)")
        }
        // A missing file is still a path to check.
        #expect(throws: RunError.self) { try PipelineFile.load(folder.appendingPathComponent("missing.yaml").path) }
        do { _ = try PipelineFile.load(folder.appendingPathComponent("missing.yaml").path) } catch {
            #expect("\(error)".contains("check the path"), "\(error)")
        }
    }

    /// `false` turns a stage off as `speed_limits: false` does; `detector: true` does not say which detector.
    @Test func stagesAreTurnedOffWithFalse() throws {
        let off = try PipelineFile.parse(
            """
            source: { input: clip.mkv }
            stages: { detector: false, speed_limits: false, annotations: false }
            """, file: "off.yaml")
        #expect(off.detection == nil && off.speedLimits == nil)
        let annotations = try #require(off.annotations)
        #expect(annotations.boxes == false && annotations.labels == false)
        #expect(annotations.speedLimitBadge == "off" && annotations.hud == "off")
        #expect(try PipelineFile.parse("source: { input: a.mkv }\nstages: { annotations: true }", file: "on.yaml").annotations
            == AnnotationConfiguration())
        do {
            _ = try PipelineFile.parse("source: { input: a.mkv }\nstages: { detector: true }", file: "which.yaml")
            Issue.record("detector: true was taken")
        } catch {
            #expect("\(error)".contains("which.yaml: 'stages.detector': say which detector"), "\(error)")
        }
    }

    @Test func valuesAreRead() async throws {
        let configuration = try PipelineFile.parse(
            """
            source: { input: clip.mkv }
            pool: { size: 5, backpressure: drop }
            analysis: { interval: 0.5, sync: off }
            stages: { frame_stamp: true }
            sink: { output: out.webm, encoder_preset: veryfast }
            report: { json: r.json, events: e.jsonl, progress: false }
            """, file: "test.yaml")
        #expect(configuration.input == .file(path: "clip.mkv"))
        #expect(configuration.poolCapacity == 5)
        #expect(configuration.backpressure == .drop)
        #expect(configuration.analysisInterval == .milliseconds(500))
        #expect(configuration.syncAnalysis == .off)
        #expect(configuration.frameStamp)
        #expect(configuration.output == .file(path: "out.webm", container: .webm))
        #expect(configuration.encoderPreset == "veryfast")
        #expect(configuration.reportPath == "r.json")
        #expect(configuration.eventsPath == "e.jsonl")
        #expect(!configuration.showProgress)
    }

    @Test func stageSectionsAreRead() throws {
        let configuration = try PipelineFile.parse(
            """
            source: { input: clip.mkv }
            stages:
              speed_limits: { region: us, confidence: 0.8, expiry: 60, interval: 0.1, text_line_model: "off" }
              annotations: { boxes: false, labels: true, speed_limit_badge: bottom-right, hud: off, spotlight: 0.4 }
              overlays:
                - { clip: logo.webm, when: always, at: [10, 20], size: "64,64" }
                - { clip: fx.webm, when: class:person, at: box:top, scale: 0.5, fade_in: 0.5 }
            """, file: "stages.yaml")
        let limits = try #require(configuration.speedLimits)
        #expect(limits.region == "us")
        #expect(limits.minimumConfidence == 0.8)
        #expect(limits.expiry == .seconds(60))
        #expect(limits.interval == .milliseconds(100))
        #expect(limits.textLineModel == "off")
        let annotations = try #require(configuration.annotations)
        #expect(annotations.boxes == false && annotations.labels == true)
        #expect(annotations.speedLimitBadge == "bottom-right" && annotations.hud == "off" && annotations.spotlight == 0.4)
        #expect(configuration.overlays.map(\.path) == ["logo.webm", "fx.webm"])
        #expect(configuration.overlays[1].fadeIn == .milliseconds(500))
    }

    @Test func detectorSectionIsRead() throws {
        let configuration = try PipelineFile.parse(
            """
            source: { input: clip.mkv }
            stages:
              detector:
                backend: cascade:fullbody
                confidence: 0.6
                classes: [person]
                every_nth_frame: 3
                max_concurrent: 2
                max_age: 10
                smoothing: 0.5
                primary_subject: true
            """, file: "detector.yaml")
        let options = try #require(configuration.detection)
        #expect(options.detector.description.contains("fullbody"))
        #expect(options.confidenceThreshold == 0.6)
        #expect(options.allowedClasses == ["person"])
        #expect(options.everyNthFrame == 3)
        #expect(options.maxConcurrent == 2)
        #expect(options.maxAge == .seconds(10))
        #expect(options.smoothing == 0.5)
        #expect(options.primarySubject)
    }

    @Test(arguments: [
        ("stages: { detector: { confidence: 0.5 } }", "'stages.detector.backend': say which detector"),
        ("stages: { detector: { backend: hog, confidance: 0.5 } }", "'stages.detector.confidance': unknown key"),
        ("stages: { speed_limits: { region: mars } }", "'stages.speed_limits.region': 'mars' is not allowed; use one of: eu, us"),
        ("stages: { annotations: { hud: middle } }", "'stages.annotations.hud': 'middle' is not allowed"),
        ("stages: { overlays: [ { when: always } ] }", "'stages.overlays[0].clip': every overlay needs a clip file"),
        ("stages: { overlays: [ { clip: a.webm, when: sometimes } ] }", "'stages.overlays[0]': "),
        ("stages: { overlays: [ a.webm ] }", "'stages.overlays[0]': expected a mapping with the keys clip, when, at,"),
        ("stages: { detector: yolo }", "'stages.detector': expected a mapping with the keys backend, confidence, iou,"),
    ])
    func stageMistakesNameTheKey(text: String, message: String) {
        do {
            _ = try PipelineFile.parse("source: { input: a.mp4 }\n" + text, file: "f.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func inputFlagOverridesTheFile() async throws {
        let configuration = try PipelineFile.parse("source: { input: a.mp4 }", file: "f.yaml", inputOverride: "b.mp4")
        #expect(configuration.input == .file(path: "b.mp4"))
    }

    /// Each mistake names the file, the full key and what is allowed.
    @Test(arguments: [
        ("source: { input: a.mp4 }\npool: { sise: 3 }", "f.yaml: 'pool.sise': unknown key; allowed here: size, backpressure"),
        ("source: { input: a.mp4 }\npool: { size: many }", "f.yaml: 'pool.size': expected a whole number, got 'many'"),
        ("source: { input: a.mp4 }\npool: { size: 0 }", "f.yaml: 'pool.size': 0 is out of range; allowed 1…64"),
        ("source: { input: a.mp4 }\npool: { backpressure: sometimes }",
         "f.yaml: 'pool.backpressure': 'sometimes' is not allowed; use one of: auto, block, drop"),
        ("source: { input: a.mp4 }\nstages: { frame_stamp: perhaps }", "f.yaml: 'stages.frame_stamp': expected true or false, got 'perhaps'"),
        ("sorce: { input: a.mp4 }", "f.yaml: 'sorce': unknown key; allowed here: source, pool, analysis, stages, sink, report"),
        ("source: { input: a.mp4 }\npool: 3", "f.yaml: 'pool': expected a mapping with the keys size, backpressure"),
        ("pool: { size: 3 }", "f.yaml: 'source.input': no input; set it here or pass --input"),
        ("source: { input: a.mp4 }\nsink: { output: out.avi }", "output 'out.avi' has an unknown extension"),
        ("source: [", "f.yaml: '(file)': not valid YAML"),
    ])
    func mistakesAreReportedWithFileAndKey(text: String, message: String) {
        do {
            _ = try PipelineFile.parse(text, file: "f.yaml")
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.description.hasPrefix(message) || error.description.contains(message), "\(error.description)")
        }
    }

    @Test func aBadPipelineFileExitsWithStatus2AndOneLine() async throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("bad.yaml")
        try "source: { input: a.mp4 }\npool: { size: -1 }\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try await runTool(["run", file.path])
        #expect(result.status == 2)
        #expect(result.standardError == "streamlens: error: \(file.path): 'pool.size': -1 is out of range; allowed 1…64\n")
    }

    /// A model, cascade or text-line model file that a pipeline file names and that cannot be loaded is reported at
    /// that file and key (it said only "'detector': ONNX model … not found", leaving the user to find which file
    /// and which line). A flag that names the file instead is reported as the flag's.
    @Test(arguments: [
        ("detector: { backend: \"onnx:/no/such/model.onnx\" }", "'stages.detector': ONNX model '/no/such/model.onnx' not found"),
        ("detector: { backend: \"cascade:/no/such/eyes.xml\" }", "'stages.detector': cascade file '/no/such/eyes.xml' not found"),
        ("speed_limits: { region: eu, text_line_model: /no/such/lines.onnx }",
         "'stages.speed_limits': cannot use the text-line model '/no/such/lines.onnx'"),
    ])
    func aMissingFileThePipelineFileNamesIsReportedThere(stages: String, message: String) async throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("named.yaml")
        let input = try await Corpus.file("odd-720x405.mpg")
        try "source: { input: \(input.path) }\nstages:\n  \(stages)\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try await runTool(["run", file.path, "--output", "null", "--quiet"])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("streamlens: error: \(file.path): \(message)"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    /// A missing input that a pipeline file names is said at that file and key, as every other mistake in it is (it
    /// said only "input '…' does not exist"); named by `--input`, it is the flag's plain line.
    @Test func aMissingInputThePipelineFileNamesIsReportedThere() async throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("drive.yaml")
        try "source: { input: /no/such/drive.mp4 }\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try await runTool(["run", file.path, "--output", "null"])
        #expect(result.status == 1)
        #expect(result.standardError == "streamlens: error: \(file.path): 'source.input': input '/no/such/drive.mp4' does "
            + "not exist; check the path\n", "\(result.standardError)")
        let flagged = try await runTool(["run", file.path, "--input", "/no/such/other.mp4", "--output", "null"])
        #expect(flagged.status == 1)
        #expect(flagged.standardError == "streamlens: error: input '/no/such/other.mp4' does not exist; check the path\n",
                "\(flagged.standardError)")
    }

    @Test func aMissingModelNamedByAFlagIsTheFlags() async throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("named.yaml")
        let input = try await Corpus.file("odd-720x405.mpg")
        try "source: { input: \(input.path) }\nstages:\n  detector: { backend: hog }\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try await runTool(["run", file.path, "--detector", "onnx:/no/such/model.onnx", "--output", "null"])
        #expect(result.status == 1)
        #expect(result.standardError == "streamlens: error: 'detector': ONNX model '/no/such/model.onnx' not found or not "
            + "readable: check the path\n", "\(result.standardError)")
    }

    /// A class filter naming a class the detector does not report is a bad argument (exit 2) named as given: it was
    /// exit 1 and "'detector': unknown class 'car' …" for `--detector hog --classes car`.
    @Test(arguments: [
        (["--classes", "car"], "", "'--classes': unknown class 'car' in the class filter"),
        (["--classes", "person,99"], "", "'--classes': unknown class '99' in the class filter"),
        ([], ", exclude: [car]", "'stages.detector.exclude': unknown class 'car' in the class filter"),
        ([], ", classes: [face]", "'stages.detector.classes': unknown class 'face' in the class filter"),
    ])
    func aClassTheDetectorDoesNotReportIsABadArgument(flags: [String], keys: String, message: String) async throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("classes.yaml")
        try "source: { input: a.mp4 }\nstages:\n  detector: { backend: hog\(keys) }\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try await runTool(["run", file.path, "--output", "null"] + flags)
        #expect(result.status == 2)
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test func inputKinds() {
        #expect(InputSource(parsing: "clip.mp4") == .file(path: "clip.mp4"))
        #expect(InputSource(parsing: "rtsp://cam/stream") == .uri("rtsp://cam/stream"))
        #expect(InputSource(parsing: "/dev/video2") == .camera(device: "/dev/video2"))
        #expect(InputSource(parsing: "videotestsrc ! video/x-raw") == .description("videotestsrc ! video/x-raw"))
        #expect(InputSource(parsing: "videotestsrc num-buffers=3") == .description("videotestsrc num-buffers=3"))
    }
}
