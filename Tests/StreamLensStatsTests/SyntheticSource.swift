import StreamLensCore
@testable import StreamLensStats

/// Milliseconds as a Duration (tests speak in milliseconds).
func ms(_ value: Double) -> Duration { .nanoseconds(Int64((value * 1_000_000).rounded())) }

/// A context for reports in tests.
func testContext(interrupted: Bool = false, error: String? = nil, live: Bool = false) -> RunContext {
    RunContext(
        input: "synthetic", output: nil, live: live, policy: live ? .drop : .block, poolCapacity: 3, interrupted: interrupted,
        error: error, streamlensVersion: "test", gstreamerVersion: "none")
}

/// Drives a recorder the way the frame path does, frame by frame, on a ManualClock.
struct SyntheticSource {
    let recorder: RunRecorder
    let clock = ManualClock()
    private(set) var nextIndex = 0

    init(recorder: RunRecorder) {
        self.recorder = recorder
        recorder.runStarted(at: clock.now())
    }

    /// Moves the clock to `time` (ms since the start) and reports an arrival; returns the frame index.
    @discardableResult
    mutating func arrive(ptsMilliseconds pts: Double?, atMilliseconds time: Double, discontinuity: Bool = false) -> Int {
        clock.set(ms(time))
        let index = nextIndex
        nextIndex += 1
        recorder.frameArrived(index: index, pts: pts.map(ms), at: clock.now(), discontinuity: discontinuity)
        return index
    }

    /// Outputs frame `index` with the given times (ms since the start unless named *Wait/Time).
    func output(
        index: Int, ptsMilliseconds pts: Double?, arrivalMilliseconds arrival: Double, outputMilliseconds outputAt: Double,
        poolWait: Double = 0, composite: Double = 0, push: Double = 0, analysisLag: Double? = nil
    ) {
        recorder.frameOutput(
            index: index, pts: pts.map(ms),
            timing: FrameTiming(
                arrival: ms(arrival), poolWait: ms(poolWait), compositeTime: ms(composite), pushTime: ms(push),
                outputAt: ms(outputAt), analysisLag: analysisLag.map(ms)))
    }

    /// Polls every `step` ms from the clock's time up to `end` ms.
    func poll(untilMilliseconds end: Double, stepMilliseconds step: Double = 100, poolFull: Bool? = nil) {
        while clock.now() + ms(step) <= ms(end) {
            clock.advance(by: ms(step))
            recorder.poll(at: clock.now(), poolFull: poolFull)
        }
    }
}

/// True when `value` is within HdrHistogram's precision (three significant digits: 0.1 %) of `expected`.
func withinHistogramPrecision(_ value: Double, _ expected: Double) -> Bool {
    abs(value - expected) <= max(expected * 0.001, 1e-9)
}
