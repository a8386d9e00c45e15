import Foundation
import StreamLensCore
import Testing

@testable import StreamLensDetection

@Suite("Object detection stage")
struct ObjectDetectionStageTests {
    /// A 64×48 grey frame at `pts` (the scripted detector ignores pixels).
    static let image = OwnedYUVImage(layout: .i420, width: 64, height: 48, fill: (128, 128, 128))

    /// The stage's result, or what it holds on a frame it declined (the breaker resting): what the lane draws.
    static func analyze(_ stage: ObjectDetectionStage, at pts: Duration) throws -> Detections {
        do { return try TestFrames.withFrame(image, pts: pts) { try stage.analyze($0) } } catch let declined as AnalysisDeclined {
            return declined.held
        }
    }

    static func configuration() -> ObjectDetectionStage.Configuration {
        var configuration = ObjectDetectionStage.Configuration()
        configuration.breaker = CircuitBreakerTests.configuration()
        return configuration
    }

    static func readEvents(_ url: URL) throws -> [EventLine] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(EventLine.self, from: Data($0.utf8))
        }
    }

    @Test("A failing detector: backoff, circuit opens, half-open probe, closes on success (counted in calls)")
    func breakerDrivesDetectorCalls() throws {
        let clock = ManualClock()
        let detector = ScriptedDetector(clock: clock)
        detector.failing = true
        detector.answers = [[person(10, 10)]]
        let stage = try ObjectDetectionStage(detector: detector, configuration: Self.configuration(), clock: clock)
        var callTimes: [Int] = []
        var thrown = 0
        // Frames every 100 ms for 40 s; the detector recovers at 30 s.
        for tick in 0...400 {
            let now = Duration.milliseconds(tick * 100)
            clock.set(now)
            if tick == 300 { detector.failing = false }
            let callsBefore = detector.calls
            do { _ = try Self.analyze(stage, at: now) } catch { thrown += 1 }
            if detector.calls > callsBefore { callTimes.append(tick * 100) }
        }
        // Failures at 0 s, 0.5 s (backoff 0.5 s) and 1.5 s (backoff 1 s): the third opens the circuit for 10 s.
        // Probe at 11.5 s fails: open for 20 s. Probe at 31.5 s succeeds: closed, every frame analysed again.
        let expected = [0, 500, 1500, 11_500, 31_500] + Array(stride(from: 31_600, through: 40_000, by: 100))
        #expect(callTimes == expected)
        #expect(thrown == 4)
        let report = stage.report
        #expect(report.failures == 4)
        #expect(report.breakerTrips == 2)
        #expect(report.breakerProbes == 2)
        #expect(report.breakerState == .closed)
        #expect(report.framesSkippedByBreaker == 401 - callTimes.count)
        #expect(report.analysedFrames == callTimes.count - 4)
        #expect(report.lastError == "scripted detection failed: injected failure")
        // The report as the runner writes it into the JSON report.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        #expect(json == #"{"analysed_frames":86,"backend":"scripted","breaker_probes":2,"breaker_state":"closed","#
            + #""breaker_trips":2,"failures":4,"frames_skipped_by_breaker":311,"inference_median_ms":0,"#
            + #""inference_p95_ms":0,"last_error":"scripted detection failed: injected failure","#
            + #""reported_detections":86,"stage":"objects","timeouts":0,"tracks_finished":0,"tracks_started":1}"#)
    }

    @Test("A missing model never stops the video: failures are reported, frames keep coming")
    func missingModelKeepsRunning() throws {
        let clock = ManualClock()
        var options = ObjectDetectionOptions(detector: try DetectorSpec(parsing: "onnx:/nonexistent/model.onnx"))
        options.breaker = CircuitBreakerTests.configuration()
        let built = try ObjectDetectionSetup.make(options, clock: clock, loading: .onFirstFrame)
        let error = #expect(throws: DetectionError.self) { _ = try Self.analyze(built.stage, at: .zero) }
        #expect(error == .fileNotFound(path: "/nonexistent/model.onnx", role: "ONNX model"))
        // While the breaker backs off, frames pass without a detector call and without an error.
        clock.set(.milliseconds(100))
        let passed = try Self.analyze(built.stage, at: .milliseconds(100))
        #expect(passed.isEmpty && passed.source == "objects")
        let report = built.stage.report
        #expect(report.failures == 1)
        #expect(report.framesSkippedByBreaker == 1)
        #expect(report.backend == "onnx:/nonexistent/model.onnx")
        #expect(report.lastError == "ONNX model '/nonexistent/model.onnx' not found or not readable: check the path")
    }

    @Test("Loading now turns a missing model into one error before the run")
    func missingModelLoadedNow() throws {
        let options = ObjectDetectionOptions(detector: .onnx(path: "/nonexistent/model.onnx"))
        #expect(throws: DetectionError.fileNotFound(path: "/nonexistent/model.onnx", role: "ONNX model")) {
            _ = try ObjectDetectionSetup.make(options, loading: .now)
        }
    }

    @Test("Slow calls count as timeouts and open the circuit, but their results are still used")
    func timeouts() throws {
        let clock = ManualClock()
        let detector = ScriptedDetector(clock: clock)
        detector.answers = [[person(10, 10)]]
        detector.inferenceTime = .milliseconds(2500)  // over the 2 s timeout
        let stage = try ObjectDetectionStage(detector: detector, configuration: Self.configuration(), clock: clock)
        var reported: [Int] = []
        for call in 0..<3 {
            clock.advance(by: .seconds(5))  // past any backoff
            reported.append(try Self.analyze(stage, at: .seconds(call * 5)).count)
        }
        #expect(reported == [1, 1, 1])
        let report = stage.report
        #expect(report.timeouts == 3)
        #expect(report.breakerTrips == 1)
        #expect(report.inferenceMedian == .milliseconds(2500))
        clock.advance(by: .seconds(1))
        _ = try Self.analyze(stage, at: .seconds(16))
        #expect(detector.calls == 3)  // open: no call
    }

    @Test("While the detector is unavailable, tracks are held until max age, then end with an event")
    func heldUntilMaxAge() throws {
        let clock = ManualClock()
        let detector = ScriptedDetector(clock: clock)
        detector.answers = [[person(10, 10)]]
        let directory = try TestEnvironment.temporaryDirectory("held")
        let eventsURL = directory.appendingPathComponent("events.jsonl")
        let events = try EventLog(path: eventsURL.path)
        var configuration = Self.configuration()
        configuration.tracker.maxAge = .seconds(30)
        let stage = try ObjectDetectionStage(
            name: "people", detector: detector, configuration: configuration, clock: clock, events: events)
        #expect(try Self.analyze(stage, at: .seconds(1)).items.map(\.trackID) == [1])
        detector.failing = true
        var heldCounts: [Int] = []
        for second in 2...40 {
            clock.set(.seconds(second))
            heldCounts.append((try? Self.analyze(stage, at: .seconds(second)))?.count ?? -1)
        }
        // Failed calls throw (-1): at 2 s, 3 s (after the 0.5 s backoff), 4 s (after 1 s; the circuit opens), and
        // the probes at 14 s and 34 s. Skipped frames show the held track until 31 s (30 s after it was last
        // seen); from 32 s nothing.
        #expect(heldCounts.enumerated().filter { $0.element == -1 }.map { $0.offset + 2 } == [2, 3, 4, 14, 34])
        #expect(stage.report.failures == 5)
        #expect(heldCounts[29] == 1)  // 31 s
        #expect(heldCounts[30] == 0)  // 32 s
        events.close()
        let lines = try Self.readEvents(eventsURL)
        #expect(lines.map(\.type) == ["detection", "track"])
        #expect(lines[1].reason == "expired")
        #expect(lines[1].start == 1 && lines[1].end == 1)
        #expect(lines[1].trackID == 1 && lines[1].box == [10, 10, 40, 80] && lines[1].className == "person")
    }

    @Test("Events: detections per analysed frame, one track event per finished track at finish(at:)")
    func eventsAndFinish() throws {
        let detector = ScriptedDetector()
        detector.answers = [
            [person(100, 100, confidence: 0.91), person(400, 100, confidence: 0.8)],
            [person(104, 100, confidence: 0.93)],
            [person(108, 100, confidence: 0.9)],
        ]
        let directory = try TestEnvironment.temporaryDirectory("events")
        let eventsURL = directory.appendingPathComponent("events.jsonl")
        let events = try EventLog(path: eventsURL.path)
        let stage = try ObjectDetectionStage(
            name: "objects", detector: detector, configuration: Self.configuration(), clock: ManualClock(), events: events)
        for step in 0..<3 { _ = try Self.analyze(stage, at: .milliseconds(300 * step)) }
        stage.finish(at: .seconds(1))
        events.close()
        let lines = try Self.readEvents(eventsURL)
        let detections = lines.filter { $0.type == "detection" }
        #expect(detections.map(\.trackID) == [1, 2, 1, 1])
        #expect(detections.map(\.start) == [0, 0, 0.3, 0.6])
        #expect(detections[2].box == [104, 100, 40, 80])  // the raw box, not the smoothed one
        #expect(detections[2].confidence == 0.93)
        let tracks = lines.filter { $0.type == "track" }
        #expect(tracks.map(\.trackID) == [1, 2])
        #expect(tracks[0].start == 0 && tracks[0].end == 0.6 && tracks[0].observations == 3)
        #expect(tracks[0].confidence == 0.93 && tracks[0].reason == "stream_ended")
        // Smoothed last box: x 100, then 104 (the second sighting is drawn as observed and sets the velocity,
        // 4 px / 0.3 s), so the third's prior is 108: 0.35·108 + 0.65·108 = 108 — a steady walker is not trailed.
        #expect(tracks[0].box == [108, 100, 40, 80])
        #expect(tracks[1].end == 0 && tracks[1].observations == 1)
        #expect(stage.report.tracksStarted == 2 && stage.report.tracksFinished == 2)
        // The raw JSON uses the documented keys.
        let firstLine = try String(contentsOf: eventsURL, encoding: .utf8).split(separator: "\n")[0]
        #expect(firstLine == #"{"box":[100,100,40,80],"class":"person","class_id":0,"confidence":0.91,"end":0,"#
            + #""stage":"objects","start":0,"track_id":1,"type":"detection"}"#)
    }

    @Test("Confidence threshold and class filter apply to every backend")
    func thresholdAndClasses() throws {
        let detector = ScriptedDetector()
        var car = person(300, 0, confidence: 0.9)
        car.className = "car"
        detector.answers = [[person(0, 0, confidence: 0.7), person(100, 0, confidence: 0.4), car]]
        var configuration = Self.configuration()
        configuration.confidenceThreshold = 0.5
        configuration.deniedClasses = ["car"]
        let stage = try ObjectDetectionStage(detector: detector, configuration: configuration, clock: ManualClock())
        let result = try Self.analyze(stage, at: .zero)
        #expect(result.items.map(\.box) == [box(0, 0, 40, 80)])
    }

    @Test("Boxes between the tracking floor and the threshold only continue tracks; the MOT export has the tracks")
    func lowConfidenceAndMOTExport() throws {
        let detector = ScriptedDetector()
        detector.answers = [
            [person(100, 100, confidence: 0.9), person(400, 100, confidence: 0.3)],  // the low one starts nothing
            [person(110, 100, confidence: 0.35), person(400, 100, confidence: 0.05)],  // below the floor: dropped
            [person(120, 100, confidence: 0.8)],
        ]
        let directory = try TestEnvironment.temporaryDirectory("mot")
        let motURL = directory.appendingPathComponent("tracks.txt")
        var configuration = Self.configuration()
        configuration.confidenceThreshold = 0.5
        configuration.trackingFloor = 0.1
        configuration.tracker.smoothing = 1
        configuration.mot = try MOTWriter(path: motURL.path)
        let stage = try ObjectDetectionStage(detector: detector, configuration: configuration, clock: ManualClock())
        var shown: [[Int?]] = []
        for step in 0..<3 {
            let result = try TestFrames.withFrame(Self.image, pts: .milliseconds(300 * step), frameIndex: 3 * step) {
                try stage.analyze($0)
            }
            shown.append(result.items.map(\.trackID))
        }
        configuration.mot?.close()
        #expect(shown == [[1], [1], [1]])
        #expect(stage.report.tracksStarted == 1)
        // Frames 1-based from the stream position (analysed frames 0, 3, 6); the boxes as drawn; the low box's own
        // score where it continued the track.
        let text = try String(contentsOf: motURL, encoding: .utf8)
        #expect(text == "1,1,100,100,40,80,0.9,-1,-1,-1\n4,1,110,100,40,80,0.35,-1,-1,-1\n7,1,120,100,40,80,0.8,-1,-1,-1\n")
    }

    @Test("Stage options are checked at construction")
    func invalidOptions() {
        var configuration = Self.configuration()
        configuration.tracker.maxConcurrent = 0
        #expect(throws: DetectionError.invalidOption("max concurrent detections < 1")) {
            _ = try ObjectDetectionStage(detector: ScriptedDetector(), configuration: configuration)
        }
    }
}
