import StreamLensCore
import Testing
@testable import StreamLensStats

@Suite("Stalls versus backpressure")
struct StallAndBlockedTests {
    /// Frames at 25 fps until 400 ms, then the source goes silent until 3400 ms while the run loop polls.
    @Test func silentSourceIsAStall() {
        let recorder = RunRecorder(configuration: RecorderConfiguration(poolCapacity: 3))
        var source = SyntheticSource(recorder: recorder)
        for frame in 0...10 {
            let time = Double(frame) * 40
            let index = source.arrive(ptsMilliseconds: time, atMilliseconds: time)
            source.output(index: index, ptsMilliseconds: time, arrivalMilliseconds: time, outputMilliseconds: time + 2)
        }
        source.poll(untilMilliseconds: 1400)
        // 1000 ms after the last arrival is not yet *more* than the threshold.
        #expect(!recorder.snapshot().isStalled)
        source.poll(untilMilliseconds: 1500)
        #expect(recorder.snapshot().isStalled)
        #expect(recorder.snapshot().stalls == 1)
        source.poll(untilMilliseconds: 3400)
        let index = source.arrive(ptsMilliseconds: 440, atMilliseconds: 3400)
        source.output(index: index, ptsMilliseconds: 440, arrivalMilliseconds: 3400, outputMilliseconds: 3402)
        #expect(!recorder.snapshot().isStalled)
        recorder.finish(at: ms(3500))
        let report = recorder.makeReport(context: testContext())
        #expect(report.stalls == EpisodeSummary(count: 1, totalMilliseconds: 3000))
        #expect(report.blocked == EpisodeSummary(count: 0, totalMilliseconds: 0))
        // The plotted timeline carries the same 3 s of stall.
        #expect(abs(report.timeline.stalledMilliseconds.reduce(0, +) - 3000) < 1e-6)
        // The interval that spans the stall is the largest in the plot.
        #expect(report.timeline.maxIntervalMilliseconds.compactMap { $0 }.max() == 3000)
    }

    @Test func shortPausesAreNotStalls() {
        let recorder = RunRecorder(configuration: RecorderConfiguration(stallThreshold: ms(500)))
        var source = SyntheticSource(recorder: recorder)
        source.arrive(ptsMilliseconds: 0, atMilliseconds: 0)
        source.poll(untilMilliseconds: 400)
        source.arrive(ptsMilliseconds: 40, atMilliseconds: 450)
        source.poll(untilMilliseconds: 1100)
        source.arrive(ptsMilliseconds: 80, atMilliseconds: 1100)
        recorder.finish(at: ms(1200))
        // 450 ms silence: no stall; 650 ms silence: one stall of 650 ms with a 500 ms threshold.
        #expect(recorder.makeReport(context: testContext()).stalls == EpisodeSummary(count: 1, totalMilliseconds: 650))
    }

    @Test func stallStillOpenAtTheEndLastsUntilFinish() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        source.arrive(ptsMilliseconds: 0, atMilliseconds: 100)
        source.poll(untilMilliseconds: 2000)
        recorder.finish(at: ms(2500))
        #expect(recorder.makeReport(context: testContext()).stalls == EpisodeSummary(count: 1, totalMilliseconds: 2400))
    }

    /// After end-of-stream the output may drain for seconds (a slow encoder); that silence is not a stall.
    @Test func silenceAfterTheSourceEndedIsNotAStall() {
        let recorder = RunRecorder(configuration: RecorderConfiguration(poolCapacity: 3))
        var source = SyntheticSource(recorder: recorder)
        source.arrive(ptsMilliseconds: 0, atMilliseconds: 0)
        source.arrive(ptsMilliseconds: 40, atMilliseconds: 40)
        recorder.sourceEnded(at: ms(60))
        source.poll(untilMilliseconds: 5000)
        #expect(!recorder.snapshot().isStalled)
        recorder.finish(at: ms(5000))
        #expect(recorder.makeReport(context: testContext()).stalls == EpisodeSummary(count: 0, totalMilliseconds: 0))
    }

    /// A stall in progress when the source ends lasts until the end of the source, not the end of the run.
    @Test func stallOpenWhenTheSourceEndsClosesThere() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        source.arrive(ptsMilliseconds: 0, atMilliseconds: 100)
        source.poll(untilMilliseconds: 2000)
        recorder.sourceEnded(at: ms(2000))
        source.poll(untilMilliseconds: 4000)
        recorder.finish(at: ms(4000))
        #expect(recorder.makeReport(context: testContext()).stalls == EpisodeSummary(count: 1, totalMilliseconds: 1900))
    }

    /// Three frames sit in a three-slot pool and nothing leaves: the silence is backpressure, not a stall.
    @Test func fullPoolSilenceIsNotAStall() {
        let recorder = RunRecorder(configuration: RecorderConfiguration(poolCapacity: 3))
        var source = SyntheticSource(recorder: recorder)
        for frame in 0..<4 { source.arrive(ptsMilliseconds: Double(frame) * 40, atMilliseconds: Double(frame) * 40) }
        source.poll(untilMilliseconds: 3000)
        #expect(!recorder.snapshot().isStalled)
        // The producer was blocked on frame 3 from 120 ms to 3000 ms, as the runner reports.
        recorder.producerBlocked(from: ms(120), to: ms(3000))
        recorder.finish(at: ms(3000))
        let report = recorder.makeReport(context: testContext())
        #expect(report.stalls.count == 0)
        #expect(report.blocked == EpisodeSummary(count: 1, totalMilliseconds: 2880))
    }

    /// Told explicitly that the pool is full, the recorder needs no capacity.
    @Test func explicitPoolFullSuppressesStalls() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        source.arrive(ptsMilliseconds: 0, atMilliseconds: 0)
        source.poll(untilMilliseconds: 3000, poolFull: true)
        #expect(recorder.snapshot().stalls == 0)
        source.poll(untilMilliseconds: 3500, poolFull: false)
        #expect(recorder.snapshot().stalls == 1)
    }

    /// Blocked waits learnt from FrameTiming.poolWait: waits closer than the merge gap form one episode.
    @Test func poolWaitsMergeIntoEpisodes() {
        let recorder = RunRecorder(configuration: RecorderConfiguration(blockedMergeGap: ms(100)))
        var source = SyntheticSource(recorder: recorder)
        // (arrival, pool wait): 0–30 and 50–80 are 20 ms apart → one episode; 500–560 is a second one.
        let frames: [(arrival: Double, wait: Double)] = [(0, 30), (50, 30), (100, 0), (500, 60)]
        for (frame, timing) in frames.enumerated() {
            let index = source.arrive(ptsMilliseconds: Double(frame) * 40, atMilliseconds: timing.arrival)
            source.output(
                index: index, ptsMilliseconds: Double(frame) * 40, arrivalMilliseconds: timing.arrival,
                outputMilliseconds: timing.arrival + timing.wait + 5, poolWait: timing.wait)
        }
        let report = recorder.makeReport(context: testContext())
        #expect(report.blocked.count == 2)
        // Episode 1 spans 0–80 ms but waited 60 of them (not the 20 ms between the waits); episode 2 waited 60 ms.
        // The total and the plot both say the time actually spent waiting.
        #expect(abs(report.blocked.totalMilliseconds - 120) < 1e-9)
        #expect(abs(report.timeline.blockedMilliseconds.reduce(0, +) - 120) < 1e-9)
        #expect(report.stages["pool_wait"]?.max == 60)
    }

    /// The runner's own reports take over from poolWait, so a wait is not counted twice.
    @Test func reportedBlockingIsNotCountedTwice() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        let index = source.arrive(ptsMilliseconds: 0, atMilliseconds: 0)
        recorder.producerBlocked(from: ms(0), to: ms(500))
        source.output(index: index, ptsMilliseconds: 0, arrivalMilliseconds: 0, outputMilliseconds: 600, poolWait: 500)
        let report = recorder.makeReport(context: testContext())
        #expect(report.blocked == EpisodeSummary(count: 1, totalMilliseconds: 500))
        #expect(abs(report.timeline.blockedMilliseconds.reduce(0, +) - 500) < 1e-9)
    }

    /// A stall the recorder saw (it did not know the pool was full) is withdrawn when the blocked wait that
    /// explains the silence is reported.
    @Test func stallExplainedByBlockingIsWithdrawn() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        source.arrive(ptsMilliseconds: 0, atMilliseconds: 0)
        source.poll(untilMilliseconds: 2000)
        #expect(recorder.snapshot().isStalled)
        let index = source.arrive(ptsMilliseconds: 40, atMilliseconds: 2100)
        // poolWait of frame 0, learnt only when it is output after the next arrival.
        source.output(index: 0, ptsMilliseconds: 0, arrivalMilliseconds: 0, outputMilliseconds: 2050, poolWait: 2050)
        source.output(index: index, ptsMilliseconds: 40, arrivalMilliseconds: 2100, outputMilliseconds: 2110)
        recorder.finish(at: ms(2200))
        let report = recorder.makeReport(context: testContext())
        #expect(report.stalls == EpisodeSummary(count: 0, totalMilliseconds: 0))
        #expect(report.blocked == EpisodeSummary(count: 1, totalMilliseconds: 2050))
        #expect(report.timeline.stalledMilliseconds.reduce(0, +) == 0)
    }
}
