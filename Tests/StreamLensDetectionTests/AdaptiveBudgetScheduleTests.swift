import StreamLensCore
import Testing

@testable import StreamLensDetection

@Suite("Adaptive budget schedule")
struct AdaptiveBudgetScheduleTests {
    static func schedule(_ configure: (inout AdaptiveBudgetSchedule.Configuration) -> Void = { _ in }) throws
        -> AdaptiveBudgetSchedule
    {
        var configuration = AdaptiveBudgetSchedule.Configuration()
        configure(&configuration)
        return try AdaptiveBudgetSchedule(configuration: configuration)
    }

    /// Frame indices (25 fps) the schedule picks among the first `count`.
    static func dueFrames(_ schedule: AdaptiveBudgetSchedule, count: Int, frameMilliseconds: Int = 40) -> [Int] {
        var due: [Int] = []
        for index in 0..<count {
            let pts = Duration.milliseconds(index * frameMilliseconds)
            if schedule.isDue(pts: pts) {
                schedule.markStarted(pts: pts)
                due.append(index)
            }
        }
        return due
    }

    @Test("Base interval 0.3 s picks one frame in 8 at 25 fps")
    func baseInterval() throws {
        let schedule = try Self.schedule()
        #expect(schedule.currentInterval == .milliseconds(300))
        #expect(Self.dueFrames(schedule, count: 25) == [0, 8, 16, 24])
    }

    @Test(
        "Latency over budget lengthens the interval, under half the budget shortens it, within bounds",
        arguments: [
            // latencies fed (ms), interval afterwards (µs)
            ([400], 375_000),
            ([400, 400], 468_750),
            ([200, 200, 200], 300_000),  // within budget, above headroom: unchanged
            ([100], 300_000),  // already at the lower bound
            ([400, 400, 50, 50, 50], 375_000),  // smoothed 400, 400, 225, 137.5, 93.75 → up, up, -, -, down
            (Array(repeating: 1000, count: 20), 2_400_000),  // capped at 8 × base
        ])
    func adaptation(latencies: [Int], expectedMicroseconds: Int) throws {
        let schedule = try Self.schedule()
        for latency in latencies { schedule.recordCompletion(latency: .milliseconds(latency)) }
        #expect(schedule.currentInterval == .microseconds(expectedMicroseconds))
    }

    @Test("Smoothed latency and adjustment counts are reported")
    func report() throws {
        let schedule = try Self.schedule()
        for latency in [400, 400, 50, 50, 50] { schedule.recordCompletion(latency: .milliseconds(latency)) }
        let report = schedule.report
        #expect(report.smoothedLatency == .microseconds(93_750))
        #expect(report.lengthened == 2)
        #expect(report.shortened == 1)
        #expect(report.currentInterval == .milliseconds(375))
        #expect(report.currentFrameStride == nil)
    }

    @Test("A lengthened interval really skips more frames")
    func lengthenedIntervalSkipsFrames() throws {
        let schedule = try Self.schedule()
        schedule.recordCompletion(latency: .seconds(1))
        schedule.recordCompletion(latency: .seconds(1))
        // 0.46875 s at 40 ms per frame: every 12th frame.
        #expect(Self.dueFrames(schedule, count: 30) == [0, 12, 24])
    }

    @Test("Every Nth frame, adapted in frames")
    func everyNthFrame() throws {
        let schedule = try Self.schedule { $0.base = .everyNthFrame(3) }
        #expect(Self.dueFrames(schedule, count: 10) == [0, 3, 6, 9])
        #expect(schedule.report.currentFrameStride == 3)
        #expect(schedule.currentInterval == .milliseconds(120))
        schedule.recordCompletion(latency: .seconds(1))  // scale 1.25: 3.75 → 4
        #expect(schedule.report.currentFrameStride == 4)
        #expect(schedule.currentInterval == .milliseconds(160))
    }

    @Test("A frame the runner skipped (stage busy) keeps the next one due")
    func skippedFrameStaysDue() throws {
        let schedule = try Self.schedule { $0.base = .everyNthFrame(2) }
        #expect(schedule.isDue(pts: .zero))
        schedule.markStarted(pts: .zero)
        #expect(!schedule.isDue(pts: .milliseconds(40)))
        #expect(schedule.isDue(pts: .milliseconds(80)))  // not started: the stage was busy
        #expect(schedule.isDue(pts: .milliseconds(120)))
    }

    @Test("A timestamp that jumps backwards restarts the cadence")
    func backwardsTimestamp() throws {
        let schedule = try Self.schedule()
        schedule.markStarted(pts: .seconds(10))
        #expect(!schedule.isDue(pts: .milliseconds(10_100)))
        #expect(schedule.isDue(pts: .zero))
    }

    @Test("Invalid configurations are rejected with a clear line")
    func validation() {
        #expect(throws: DetectionError.invalidOption("every-Nth-frame stride must be at least 1")) {
            _ = try Self.schedule { $0.base = .everyNthFrame(0) }
        }
        #expect(throws: DetectionError.invalidOption("adaptation step must be greater than 1")) {
            _ = try Self.schedule { $0.step = 1 }
        }
    }
}
