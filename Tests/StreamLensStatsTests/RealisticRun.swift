import StreamLensCore
@testable import StreamLensStats

/// A 20 s, 30 fps run with everything a report shows: arrival jitter, a 2 s source stall at 5 s, a blocked
/// downstream from 10 s to 12 s, pool-full drops from 14 s, a PTS gap at 18 s, an analysis stage that skips.
/// Deterministic (a fixed linear congruential sequence stands in for randomness).
enum RealisticRun {
    static func makeReport() -> RunReport {
        let recorder = RunRecorder(configuration: RecorderConfiguration(poolCapacity: 3))
        recorder.setNominalFrameDuration(ms(1000.0 / 30))
        var source = SyntheticSource(recorder: recorder)
        var seed: UInt64 = 42
        func noise() -> Double {  // in [-1, 1)
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 52) - 1
        }
        let frameMilliseconds = 1000.0 / 30
        var nextPoll = 100.0
        var ptsFrame = 0
        for frame in 0..<570 {
            var arrival = Double(frame) * frameMilliseconds + 4 * noise()
            if arrival >= 5000 { arrival += 2000 }  // the source goes silent for 2 s at 5 s
            if frame == 540 { ptsFrame += 3 }  // three frames missing from the source at 18 s
            let pts = Double(ptsFrame) * frameMilliseconds
            ptsFrame += 1
            while nextPoll < arrival {
                source.clock.set(max(source.clock.now(), ms(nextPoll)))
                recorder.poll(at: ms(nextPoll))
                nextPoll += 100
            }
            let arrivalTime = max(arrival, source.clock.now().reportMilliseconds)
            let index = source.arrive(ptsMilliseconds: pts, atMilliseconds: arrivalTime)
            let time = arrivalTime
            let dropped = (time > 14_000 && frame % 40 == 0) || (16_000...16_200).contains(time)
            if dropped {
                recorder.frameDropped(index: index, pts: ms(pts), cause: .poolFull, at: ms(time))
                continue
            }
            let blocked = (10_000..<12_000).contains(time) ? 12 + 6 * noise() : 0
            let composite = 3 + noise()
            let push = 2 + 0.5 * noise() + (blocked > 0 ? 9 : 0)
            let latency = blocked + composite + push + 1.5
            source.output(
                index: index, ptsMilliseconds: pts, arrivalMilliseconds: time, outputMilliseconds: time + latency,
                poolWait: blocked, composite: composite, push: push,
                analysisLag: frame < 10 ? nil : 40 + 20 * noise())
            if frame % 10 == 0 {
                recorder.analysisCompleted(stage: "ocr", pts: ms(pts), latency: ms(45 + 15 * noise()), count: frame % 3)
            } else if frame % 10 == 5 && time > 10_000 {
                recorder.analysisSkipped(stage: "ocr", pts: ms(pts))
            }
        }
        recorder.sinkReportedDrops(total: 2)
        recorder.finish(at: source.clock.now() + ms(50))
        return recorder.makeReport(
            context: RunContext(
                input: "media/city-walk.webm", output: "out/annotated.mkv", live: false, policy: .block,
                poolCapacity: 3, streamlensVersion: "0.1.0", gstreamerVersion: "1.22.0"))
    }
}
