import StreamLensCore
import Testing
@testable import StreamLensStats

@Suite("Progress line")
struct ProgressLineTests {
    static func snapshot(
        decoded: Int = 1234, fps: Double = 29.94, elapsed: Duration = .seconds(40), position: Duration? = .seconds(48),
        dropped: [DropCause: Int] = [.poolFull: 3], gaps: Int = 0, stalled: Bool = false
    ) -> RunSnapshot {
        var all = Dictionary(uniqueKeysWithValues: DropCause.allCases.map { ($0, 0) })
        all.merge(dropped) { $1 }
        return RunSnapshot(
            elapsed: elapsed, decoded: decoded, output: decoded - all.values.reduce(0, +), dropped: all, gaps: gaps,
            mediaPosition: position, framesPerSecond: fps, isStalled: stalled, stalls: stalled ? 1 : 0,
            blockedEpisodes: 0)
    }

    @Test func fileRunShowsSpeedDropsAndETA() {
        // 48 s of media in 40 s: 1.2× real time; 98.4 s left of media → 82 s.
        let line = ProgressLine.render(snapshot: Self.snapshot(), totalDuration: .milliseconds(146_400))
        #expect(line == "frames 1234  29.9 fps  1.20× real time  drops 3 (pool_full 3)  ETA 1:22")
    }

    @Test func liveRunHasNoETAAndShowsStalls() {
        let line = ProgressLine.render(
            snapshot: Self.snapshot(dropped: [.poolFull: 2, .lateAtSink: 5], gaps: 4, stalled: true), totalDuration: nil)
        #expect(line == "frames 1234  29.9 fps  1.20× real time  drops 7 (pool_full 2, late_at_sink 5)  gaps 4  STALLED")
    }

    @Test func beforeTheFirstOutput() {
        let line = ProgressLine.render(
            snapshot: Self.snapshot(decoded: 0, fps: 0, elapsed: .zero, position: nil, dropped: [:]),
            totalDuration: .seconds(60))
        #expect(line == "frames 0  0.0 fps  drops 0")
    }

    @Test(arguments: [
        (Duration.seconds(0), "0:00"), (.milliseconds(41_200), "0:42"), (.seconds(599), "9:59"),
        (.seconds(3600 + 62), "1:01:02"),
    ])
    func clockFormat(duration: Duration, text: String) {
        #expect(ProgressLine.clock(duration) == text)
    }

    @Test func snapshotFromARecorderRendersTheSameNumbers() {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        // 100 frames of 40 ms media arriving every 20 ms: 2× real time, 50 fps.
        for frame in 0..<100 {
            let index = source.arrive(ptsMilliseconds: Double(frame) * 40, atMilliseconds: Double(frame) * 20)
            source.output(
                index: index, ptsMilliseconds: Double(frame) * 40, arrivalMilliseconds: Double(frame) * 20,
                outputMilliseconds: Double(frame) * 20)
            if frame % 5 == 0 { recorder.poll(at: ms(Double(frame) * 20)) }
        }
        // 3960 ms of media done in 1980 ms; 10 s total: 6040 ms left at 2× → 3.02 s → 0:04.
        let line = ProgressLine.render(snapshot: recorder.snapshot(), totalDuration: .seconds(10))
        #expect(line == "frames 100  50.0 fps  2.00× real time  drops 0  ETA 0:04")
    }
}
