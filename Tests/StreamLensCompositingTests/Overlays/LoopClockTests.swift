import Testing
@testable import StreamLensCompositing

@Suite struct LoopClockTests {
    /// Video PTS of frame `k` at `rate`, as a container stores it: whole nanoseconds, rounded.
    static func videoPTS(_ k: Int, rate: FrameRate) -> Duration {
        let nanoseconds = (Int128(k) * Int128(rate.denominator) * 1_000_000_000 * 2 + Int128(rate.numerator)) / (2 * Int128(rate.numerator))
        return .nanoseconds(Int64(nanoseconds))
    }

    @Test(arguments: [(FrameRate(25), 7), (FrameRate(30), 140), (FrameRate(30000, 1001), 13), (FrameRate(60), 1)])
    func sameRateShowsEveryFrameOnceAcrossManyLoops(rate: FrameRate, frameCount: Int) {
        let origin = Duration.milliseconds(1234)
        let clock = LoopClock(timing: .constant(rate, frameCount: frameCount), origin: origin)
        for k in 0..<(frameCount * 50 + 3) {
            let pts = origin + Self.videoPTS(k, rate: rate)
            #expect(clock.frameIndex(at: pts) == k % frameCount, "video frame \(k)")
        }
    }

    @Test func ptsJustBeforeAFrameBoundaryIsNotShownTwice() {
        let clock = LoopClock(timing: .constant(FrameRate(25), frameCount: 5), origin: .zero)
        // Millisecond-rounded 25 fps timestamps one tick early: 39.999 ms is still frame 1.
        #expect(clock.frameIndex(at: .microseconds(39_999)) == 1)
        #expect(clock.frameIndex(at: .microseconds(198_999)) == 4)
        #expect(clock.frameIndex(at: .microseconds(199_500)) == 0)  // the loop point
        #expect(clock.frameIndex(at: .microseconds(38_000)) == 0)
    }

    /// 30 fps clip on 25 fps video: 6 clip frames per 5 video frames, so the clip advances by 1 or 2 frames per
    /// video frame (never 0, never 3), wraps seamlessly, and after 60 s of video has played exactly 1800 frames.
    @Test func thirtyFrameClipOnTwentyFiveFrameVideoPlaysAtTrueSpeed() {
        let frameCount = 140
        let clock = LoopClock(timing: .constant(FrameRate(30), frameCount: frameCount), origin: .zero)
        var previous = clock.frameIndex(at: .zero)
        var steps: [Int: Int] = [:]
        for k in 1...(25 * 60) {
            let index = clock.frameIndex(at: Self.videoPTS(k, rate: FrameRate(25)))
            steps[((index - previous) % frameCount + frameCount) % frameCount, default: 0] += 1
            previous = index
        }
        #expect(Set(steps.keys) == [1, 2])
        #expect(steps[2] == 300)  // 1800 − 1500 double steps in 60 s
        #expect(clock.frameNumber(at: .seconds(60)) == 1800)
        #expect(clock.completedLoops(at: .seconds(60)) == 1800 / frameCount)
    }

    @Test func variableTimingFollowsEachFramesDuration() {
        // 100 ms, 50 ms, 200 ms: a 350 ms loop.
        let timing = LoopTiming.variable(frameDurations: [.milliseconds(100), .milliseconds(50), .milliseconds(200)])
        #expect(timing.loopDuration == .milliseconds(350))
        let clock = LoopClock(timing: timing, origin: .seconds(10))
        let expectations: [(Int64, Int)] = [
            (0, 0), (98, 0), (100, 1), (148, 1), (149, 2), (150, 2), (348, 2), (349, 0), (350, 0), (450, 1), (700, 0),
            (-10, 2), (-352, 2), (-351, 0),
        ]
        for (milliseconds, frame) in expectations {
            #expect(clock.frameIndex(at: .seconds(10) + .milliseconds(milliseconds)) == frame, "at \(milliseconds) ms")
        }
        #expect(clock.frameNumber(at: .seconds(10) + .milliseconds(450)) == 4)
    }

    @Test func timesBeforeTheOriginWrapBackwards() {
        let clock = LoopClock(timing: .constant(FrameRate(10), frameCount: 4), origin: .seconds(1))
        #expect(clock.frameIndex(at: .milliseconds(850)) == 2)  // −150 ms (+1 ms): frame −2 → 2
        #expect(clock.completedLoops(at: .milliseconds(850)) == -1)
        #expect(clock.frameIndex(at: .milliseconds(1_399)) == 0)  // 399 + 1 ms reaches frame 4 → 0
    }

    @Test func hoursOfStreamTimeStayExact() {
        let rate = FrameRate(30000, 1001)
        let clock = LoopClock(timing: .constant(rate, frameCount: 97), origin: .zero)
        let k = 30 * 3600 * 24  // a day of 29.97 fps frames
        #expect(clock.frameNumber(at: Self.videoPTS(k, rate: rate)) == k)
    }
}
