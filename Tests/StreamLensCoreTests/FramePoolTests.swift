import Foundation
import Testing
@testable import StreamLensCore

@Suite struct FramePoolTests {
    @Test func dropPolicyRefusesWhenEverySlotIsBusy() {
        let pool = FramePool(configuration: PoolConfiguration(capacity: 3, policy: .drop), clock: ManualClock())
        var slots: [Int] = []
        for _ in 0..<3 {
            guard case .admitted(let slot, let waited) = pool.admit() else {
                Issue.record("expected a free slot")
                return
            }
            #expect(waited == .zero)
            slots.append(slot)
        }
        #expect(Set(slots) == [0, 1, 2])
        #expect(pool.admit() == .dropped)
        pool.release(slot: slots[1])
        #expect(pool.admit() == .admitted(slot: slots[1], waited: .zero))
        #expect(pool.usage.peakBusySlots == 3)
    }

    @Test func blockPolicyWaitsForARelease() async throws {
        let clock = ManualClock()
        let pool = FramePool(configuration: PoolConfiguration(capacity: 1, policy: .block), clock: clock)
        guard case .admitted(let first, _) = pool.admit() else {
            Issue.record("expected a slot")
            return
        }
        let admitted = DispatchSemaphore(value: 0)
        let result = ResultBox()
        Thread {
            result.admission = pool.admit()
            admitted.signal()
        }.start()
        // The second admission must still be waiting.
        #expect(admitted.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
        clock.advance(by: .milliseconds(40))
        pool.release(slot: first)
        #expect(admitted.wait(timeout: .now() + .seconds(5)) == .success)
        #expect(result.admission == .admitted(slot: first, waited: .milliseconds(40)))
        #expect(pool.usage.blockedAdmissions == 1)
        #expect(pool.usage.totalBlocked == .milliseconds(40))
    }

    @Test func closeWakesAWaitingProducer() {
        let pool = FramePool(configuration: PoolConfiguration(capacity: 1, policy: .block), clock: ManualClock())
        _ = pool.admit()
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox()
        Thread {
            result.admission = pool.admit()
            done.signal()
        }.start()
        pool.close()
        #expect(done.wait(timeout: .now() + .seconds(5)) == .success)
        #expect(result.admission == .closed)
        #expect(pool.admit() == .closed)
    }

    @Test func automaticPolicyIsLosslessForFilesAndDropsForLiveSources() {
        #expect(BackpressurePolicy.automatic(isLive: false) == .block)
        #expect(BackpressurePolicy.automatic(isLive: true) == .drop)
    }
}

@Suite struct FrameHandoffTests {
    @Test func deliversSlotsInOrderThenEnds() {
        let handoff = FrameHandoff(capacity: 3)
        handoff.push(2)
        handoff.push(0)
        handoff.push(1)
        handoff.finish()
        #expect(handoff.next() == 2)
        #expect(handoff.next() == 0)
        #expect(handoff.next() == 1)
        #expect(handoff.next() == nil)
    }
}

@Suite struct FixedIntervalScheduleTests {
    @Test(arguments: [
        // (interval ms, frame pts ms, expected analysed pts ms)
        (300, [0, 40, 80, 120, 160, 200, 240, 280, 320, 360, 400, 640], [0, 320, 640]),
        (0, [0, 40, 80], [0, 40, 80]),
        // A timestamp jump backwards restarts the cadence.
        (300, [0, 400, 100, 200], [0, 400, 100]),
    ])
    func analysesOneFramePerInterval(intervalMilliseconds: Int, pts: [Int], expected: [Int]) {
        let schedule = FixedIntervalSchedule(interval: .milliseconds(intervalMilliseconds))
        var analysed: [Int] = []
        for time in pts where schedule.isDue(pts: .milliseconds(time)) {
            schedule.markStarted(pts: .milliseconds(time))
            analysed.append(time)
        }
        #expect(analysed == expected)
    }
}

private final class ResultBox: @unchecked Sendable {
    var admission: FramePool.Admission?
}
