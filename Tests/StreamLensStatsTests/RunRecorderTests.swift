import Foundation
import StreamLensCore
import Testing
@testable import StreamLensStats

@Suite("Run recorder: counts, latency, stages")
struct RunRecorderTests {
    @Test func dropsBySourceAndSinkKeepTheInvariant() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        // Ten frames at 25 fps; frames 3 and 7 find the pool full, the rest are output 5 ms after arrival.
        for frame in 0..<10 {
            let time = Double(frame) * 40
            let index = source.arrive(ptsMilliseconds: time, atMilliseconds: time)
            if frame == 3 || frame == 7 {
                recorder.frameDropped(index: index, pts: ms(time), cause: .poolFull, at: ms(time))
            } else {
                source.output(index: index, ptsMilliseconds: time, arrivalMilliseconds: time, outputMilliseconds: time + 5)
            }
        }
        // The sink's QoS counter: 1, then 3 (a total, not an increment; a stale smaller total is ignored).
        recorder.sinkReportedDrops(total: 1)
        recorder.sinkReportedDrops(total: 3)
        recorder.sinkReportedDrops(total: 2)
        recorder.finish(at: ms(400))
        let report = recorder.makeReport(context: testContext())

        #expect(report.frames.decoded == 10)
        #expect(report.frames.output == 5)
        #expect(report.frames.dropped == ["pool_full": 2, "late_at_sink": 3, "stream_error": 0, "interrupted": 0])
        #expect(report.frames.decoded == report.frames.output + report.frames.droppedTotal)
        // 5 frames in 0.4 s.
        #expect(abs(report.throughputFPS - 12.5) < 1e-9)
        #expect(abs(report.durationSeconds - 0.4) < 1e-12)
        #expect(report.timeline.drops.reduce(0, +) == 2)
        #expect(report.timeline.arrivals.reduce(0, +) == 10)
    }

    @Test(arguments: [(nil as String?, "interrupted"), ("pipeline error" as String?, "stream_error")])
    func framesStillInFlightAreCountedAsDropped(error: String?, cause: String) {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        for frame in 0..<6 {
            let time = Double(frame) * 40
            let index = source.arrive(ptsMilliseconds: time, atMilliseconds: time)
            if frame < 4 {
                source.output(index: index, ptsMilliseconds: time, arrivalMilliseconds: time, outputMilliseconds: time + 1)
            }
        }
        recorder.frameDropped(index: 4, pts: ms(160), cause: .interrupted, at: ms(250))
        // Frame 5 is still in the pool when the run ends.
        let report = recorder.makeReport(context: testContext(interrupted: error == nil, error: error))
        #expect(report.frames.decoded == 6)
        #expect(report.frames.output == 4)
        #expect(report.frames.droppedTotal == 2)
        #expect(report.frames.dropped[cause] == (cause == "interrupted" ? 2 : 1))
        #expect(report.frames.decoded == report.frames.output + report.frames.droppedTotal)
    }

    @Test func sinkDropsNeverExceedOutput() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        let index = source.arrive(ptsMilliseconds: 0, atMilliseconds: 0)
        source.output(index: index, ptsMilliseconds: 0, arrivalMilliseconds: 0, outputMilliseconds: 1)
        recorder.sinkReportedDrops(total: 50)
        let report = recorder.makeReport(context: testContext())
        #expect(report.frames.output == 0)
        #expect(report.frames.dropped["late_at_sink"] == 1)
        #expect(report.frames.decoded == report.frames.output + report.frames.droppedTotal)
    }

    @Test func latencyAndStagePercentiles() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        // Frame k (1...100) takes k ms end to end: 0.1k ms in the pool, 0.5k composite, 0.4k push.
        for k in 1...100 {
            let arrival = Double(k) * 200
            let index = source.arrive(ptsMilliseconds: arrival, atMilliseconds: arrival)
            source.output(
                index: index, ptsMilliseconds: arrival, arrivalMilliseconds: arrival,
                outputMilliseconds: arrival + Double(k), poolWait: 0.1 * Double(k), composite: 0.5 * Double(k),
                push: 0.4 * Double(k), analysisLag: k % 2 == 0 ? 40 : nil)
        }
        let report = recorder.makeReport(context: testContext())
        let latency = report.latencyMilliseconds
        #expect(latency.count == 100)
        #expect(withinHistogramPrecision(latency.p50, 50))
        #expect(withinHistogramPrecision(latency.p95, 95))
        #expect(withinHistogramPrecision(latency.p99, 99))
        #expect(latency.max == 100)

        let composite = try! #require(report.stages["composite"])
        #expect(withinHistogramPrecision(composite.p50, 25))
        #expect(composite.max == 50)
        #expect(withinHistogramPrecision(try! #require(report.stages["pool_wait"]).p95, 9.5))
        #expect(withinHistogramPrecision(try! #require(report.stages["push"]).p99, 39.6))
        let lag = try! #require(report.stages["analysis_lag"])
        #expect(lag.count == 50)
        #expect(lag.p50 == 40 && lag.max == 40)

        // The plotted latency histogram holds every frame once, in 1-2-5 bins: 1 ms in [1, 2), 2–4 in [2, 5), …
        let bins = report.latencyHistogramMilliseconds
        #expect(bins.map(\.count).reduce(0, +) == 100)
        #expect(bins.first(where: { $0.from == 1 })?.count == 1)
        #expect(bins.first(where: { $0.from == 2 })?.count == 3)
        #expect(bins.first(where: { $0.from == 50 })?.count == 50)
        #expect(bins.last?.to == 200)
    }

    /// A percentile is never above the max: HdrHistogram keeps whole microseconds (155.4549 ms is kept as 155 455 µs)
    /// and answers with a value equivalent to the one kept, while the max is exact — a report showed p99 155.46 over
    /// max 155.45.
    @Test func percentilesNeverExceedTheLargestValueRecorded() {
        var histogram = DurationHistogram()
        for _ in 0..<99 { histogram.record(.milliseconds(20)) }
        histogram.record(.nanoseconds(155_454_900))
        let summary = histogram.summary
        #expect(summary.max == 155.4549)
        #expect(summary.p99 <= summary.max && summary.p95 <= summary.max, "\(summary)")
        #expect(histogram.milliseconds(atPercentile: 100) == 155.4549)
        #expect(summary.p50 >= 20 && summary.p50 < 20.02, "\(summary)")
    }

    @Test func outputPacingJitterComparesOutputSpacingWithPTS() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        // PTS every 40 ms; outputs at 10, 50, 100, 130: |Δoutput − ΔPTS| = 0, 10, 10.
        let outputs: [Double] = [10, 50, 100, 130]
        for (frame, outputAt) in outputs.enumerated() {
            let pts = Double(frame) * 40
            let index = source.arrive(ptsMilliseconds: pts, atMilliseconds: pts)
            source.output(index: index, ptsMilliseconds: pts, arrivalMilliseconds: pts, outputMilliseconds: outputAt)
        }
        let pacing = recorder.makeReport(context: testContext()).outputPacingJitterMilliseconds
        #expect(pacing.count == 3)
        #expect(withinHistogramPrecision(pacing.p50, 10))
        #expect(pacing.max == 10)
    }

    @Test func analysisStagesAreCountedAndSkipsAreNotDrops() {
        let recorder = RunRecorder()
        struct OCRError: Error, CustomStringConvertible { var description: String { "tesseract failed" } }
        for k in 1...4 { recorder.analysisCompleted(stage: "ocr", pts: ms(Double(k) * 40), latency: ms(Double(k) * 10), count: 2) }
        recorder.analysisSkipped(stage: "ocr", pts: ms(200))
        recorder.analysisSkipped(stage: "ocr", pts: ms(240))
        recorder.analysisSkipped(stage: "faces", pts: ms(240))
        recorder.analysisFailed(stage: "ocr", pts: ms(280), error: OCRError())
        let report = recorder.makeReport(context: testContext())
        #expect(report.frames.analysisSkipped == ["ocr": 2, "faces": 1])
        #expect(report.frames.droppedTotal == 0)
        #expect(report.analysis["ocr"] == AnalysisStageReport(completed: 4, skipped: 2, failed: 1, detections: 8, lastError: "tesseract failed"))
        let ocr = try! #require(report.stages["analysis:ocr"])
        #expect(ocr.count == 4 && ocr.max == 40 && withinHistogramPrecision(ocr.p50, 20))
    }

    @Test func snapshotShowsProgress() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        for frame in 0..<50 {
            let time = Double(frame) * 20  // 50 fps arrivals, PTS at 25 fps: twice real time
            let index = source.arrive(ptsMilliseconds: Double(frame) * 40, atMilliseconds: time)
            source.output(index: index, ptsMilliseconds: Double(frame) * 40, arrivalMilliseconds: time, outputMilliseconds: time)
        }
        recorder.frameDropped(index: 50, pts: nil, cause: .poolFull, at: ms(990))
        let snapshot = recorder.snapshot(at: ms(980))
        #expect(snapshot.output == 50)
        #expect(snapshot.dropped[.poolFull] == 1)
        #expect(snapshot.mediaPosition == ms(49 * 40))
        #expect(abs(snapshot.realTimeFactor! - 1960.0 / 980.0) < 1e-9)
        #expect(abs(snapshot.framesPerSecond - 50.0 / 0.98) < 1e-9)
    }

    @Test func recentFrameRateComesFromPolls() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        // 10 frames in the first second, then 30 per second.
        var time = 0.0
        for _ in 0..<10 {
            let index = source.arrive(ptsMilliseconds: time, atMilliseconds: time)
            source.output(index: index, ptsMilliseconds: time, arrivalMilliseconds: time, outputMilliseconds: time)
            time += 100
        }
        for _ in 0..<60 {
            let index = source.arrive(ptsMilliseconds: time, atMilliseconds: time)
            source.output(index: index, ptsMilliseconds: time, arrivalMilliseconds: time, outputMilliseconds: time)
            if Int(time.rounded()) % 100 == 0 { recorder.poll(at: ms(time)) }
            time += 100.0 / 3
        }
        // The last 16 polls span 1.5 s at 30 fps.
        #expect(abs(recorder.snapshot().framesPerSecond - 30) < 0.01)
    }
}
