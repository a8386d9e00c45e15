import StreamLensCore
import Testing
@testable import StreamLensStats

/// How far a live source falls behind real time: each frame's arrival − PTS less the smallest of the run.
@Suite("Behind real time")
struct RealTimeLagTests {
    /// A 30 fps source (33.3 ms a frame) that delivers a frame every 40 ms owes 6.7 ms more video with every frame.
    @Test func aSourceSlowerThanItsFrameRateFallsBehindFrameByFrame() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        for frame in 0..<31 { source.arrive(ptsMilliseconds: Double(frame) * 100 / 3, atMilliseconds: 500 + Double(frame) * 40) }
        let lag = try! #require(recorder.makeReport(context: testContext(live: true)).behindRealTimeMilliseconds)
        #expect(withinHistogramPrecision(lag.max, 200), "30 frames × 6.67 ms: \(lag)")
        #expect(withinHistogramPrecision(lag.p50, 100), "\(lag)")
        #expect(lag.count == 31)
        #expect(recorder.snapshot().behindRealTime == ms(200))
    }

    /// A fixed delay (a jitter buffer, a network) is not lag; a frame that arrived late once is, and only it.
    @Test func aFixedDelayIsOnTimeAndOneLateFrameIsLateAlone() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        let arrivals: [Double] = [2000, 2040, 2080, 2150, 2160, 2200]
        for (frame, arrival) in arrivals.enumerated() { source.arrive(ptsMilliseconds: Double(frame) * 40, atMilliseconds: arrival) }
        let lag = try! #require(recorder.makeReport(context: testContext(live: true)).behindRealTimeMilliseconds)
        #expect(withinHistogramPrecision(lag.max, 30), "\(lag)")
        #expect(lag.p50 == 0, "\(lag)")
        #expect(recorder.snapshot().behindRealTime == .zero)
    }

    /// A first frame that came late (a slow start) does not make every later frame look early: the most prompt
    /// frame so far is the measure.
    @Test func aSlowStartIsNotCarriedIntoLaterFrames() {
        var lag = RealTimeLag()
        lag.frameArrived(pts: ms(0), at: ms(1100))
        for frame in 1...10 { lag.frameArrived(pts: ms(Double(frame) * 40), at: ms(1000 + Double(frame) * 40)) }
        #expect(lag.current == .zero)
        #expect(lag.histogram.max == .zero)
    }

    /// Timestamps that go back (streams joined) start the measure afresh instead of counting the jump as lag, and so
    /// do a pause or a seek.
    @Test func timestampsGoingBackOrARestartedTimelineStartAfresh() {
        var lag = RealTimeLag()
        lag.frameArrived(pts: ms(5000), at: ms(0))
        lag.frameArrived(pts: ms(5040), at: ms(40))
        lag.frameArrived(pts: ms(0), at: ms(80))
        lag.frameArrived(pts: ms(40), at: ms(120))
        #expect(lag.histogram.max == .zero)

        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        source.arrive(ptsMilliseconds: 0, atMilliseconds: 0)
        source.arrive(ptsMilliseconds: 40, atMilliseconds: 40)
        recorder.pipelinePaused(at: ms(50))
        recorder.pipelineResumed(at: ms(3000))
        // A paused live pipeline's clock stood still: its next frame follows on in PTS, 3 s later in wall time.
        source.arrive(ptsMilliseconds: 80, atMilliseconds: 3000)
        source.arrive(ptsMilliseconds: 120, atMilliseconds: 3040)
        #expect(recorder.makeReport(context: testContext(live: true)).behindRealTimeMilliseconds?.max == 0)
    }

    /// Files run as fast as they can, so their reports carry no such figure, and `stats` shows none.
    @Test func onlyLiveRunsReportIt() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        for frame in 0..<5 { source.arrive(ptsMilliseconds: Double(frame) * 40, atMilliseconds: Double(frame) * 80) }
        let file = recorder.makeReport(context: testContext())
        #expect(file.behindRealTimeMilliseconds == nil)
        #expect(!StatsSummary.render(file).contains("behind real time"))
        let live = recorder.makeReport(context: testContext(live: true))
        #expect(StatsSummary.render(live).contains("behind real time"))
    }
}
