import StreamLensCore
import Testing
@testable import StreamLensStats

/// Jitter worked out by hand: D = Δarrival − ΔPTS, J += (|D| − J) / 16 starting from 0.
struct JitterCase: CustomTestStringConvertible, Sendable {
    let name: String
    let pts: [Double]
    let arrivals: [Double]
    /// The RFC 3550 estimate after the last frame.
    let rfc3550: Double
    let p50: Double
    let max: Double
    let samples: Int
    var testDescription: String { name }
}

@Suite("Arrival jitter")
struct ArrivalJitterTests {
    static let cases: [JitterCase] = [
        // Perfectly paced 25 fps: every D is 0.
        JitterCase(name: "steady", pts: [0, 40, 80, 120], arrivals: [1000, 1040, 1080, 1120], rfc3550: 0, p50: 0, max: 0, samples: 3),
        // Frame 2 arrives 10 ms late, frame 3 on time: D = 0, +10, −10 → J = 0, 0.625, 0.625 + (10 − 0.625)/16 = 1.2109375.
        JitterCase(name: "one late frame", pts: [0, 40, 80, 120], arrivals: [0, 40, 90, 120], rfc3550: 1.2109375, p50: 10, max: 10, samples: 3),
        // Frame 2 is 20 ms late and frame 3 arrives 20 ms early: D = 0, 20, −40 → J = 0, 1.25, 1.25 + 38.75/16 = 3.671875.
        JitterCase(name: "late then early", pts: [0, 40, 80, 120], arrivals: [0, 40, 100, 100], rfc3550: 3.671875, p50: 20, max: 40, samples: 3),
        // Pairs arriving together at 30 fps: |D| = 33 every time.
        // J1 = 33/16 = 2.0625; J2 = 2.0625 + 30.9375/16 = 3.99609375; J3 = 3.99609375 + 29.00390625/16 = 5.808837890625;
        // J4 = 5.808837890625 + 27.191162109375/16 = 7.5082855224609375.
        JitterCase(name: "bursts of two", pts: [0, 33, 66, 99, 132], arrivals: [0, 0, 66, 66, 132], rfc3550: 7.5082855224609375, p50: 33, max: 33, samples: 4),
        // A frame without PTS resets the comparison: only 0→40 (|D| = 5) and 120→160 (|D| = 0) count.
        // J = 5/16 = 0.3125, then 0.3125 − 0.3125/16 = 0.29296875.
        JitterCase(name: "missing pts", pts: [0, 40, -1, 120, 160], arrivals: [0, 45, 80, 120, 160], rfc3550: 0.29296875, p50: 0, max: 5, samples: 2),
    ]

    @Test(arguments: cases)
    func knownArrivalPatternsGiveKnownJitter(_ jitterCase: JitterCase) {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        for (pts, arrival) in zip(jitterCase.pts, jitterCase.arrivals) {
            source.arrive(ptsMilliseconds: pts < 0 ? nil : pts, atMilliseconds: arrival)
        }
        let report = recorder.makeReport(context: testContext())
        #expect(abs(report.jitterMilliseconds.rfc3550 - jitterCase.rfc3550) < 1e-9)
        #expect(withinHistogramPrecision(report.jitterMilliseconds.p50, jitterCase.p50))
        #expect(report.jitterMilliseconds.max == jitterCase.max)
        #expect(report.jitterMilliseconds.count == jitterCase.samples)
    }

    @Test func discontinuityRestartsTheComparison() {
        var jitter = ArrivalJitter()
        jitter.frameArrived(pts: ms(0), at: ms(0), discontinuity: false)
        jitter.frameArrived(pts: ms(40), at: ms(40), discontinuity: false)
        // PTS restarts at 0 after a seek: without the flag this would be |D| = 40 + 40 = 80 ms.
        jitter.frameArrived(pts: ms(0), at: ms(80), discontinuity: true)
        jitter.frameArrived(pts: ms(40), at: ms(120), discontinuity: false)
        #expect(jitter.histogram.count == 2)
        #expect(jitter.histogram.max == .zero)
    }
}

@Suite("Source gaps")
struct GapDetectorTests {
    struct GapCase: CustomTestStringConvertible, Sendable {
        let name: String
        let pts: [Double]
        let discontinuities: Set<Int>
        let events: Int
        let missing: Int
        var testDescription: String { name }
    }

    static let cases: [GapCase] = [
        GapCase(name: "no gap", pts: [0, 40, 80, 120], discontinuities: [], events: 0, missing: 0),
        // 80 → 200 is 3 frame durations: frames at 120 and 160 never came.
        GapCase(name: "two frames missing", pts: [0, 40, 80, 200, 240], discontinuities: [], events: 1, missing: 2),
        // Exactly 1.5 × 40 = 60 ms is jitter in the timestamps, not a gap; 61 ms is a gap of one frame.
        GapCase(name: "threshold", pts: [0, 60, 121], discontinuities: [], events: 1, missing: 1),
        // The first buffer's discontinuity flag is normal; a later one is a gap event, with no frame missing here.
        GapCase(name: "flags", pts: [0, 40, 80, 120], discontinuities: [0, 2], events: 1, missing: 0),
        // A flagged jump over a damaged stretch (1.68 s → 2.44 s of a 25 fps file): one gap, 18 frames missing.
        GapCase(name: "flagged jump", pts: [1640, 1680, 2440, 2480], discontinuities: [0, 2], events: 1, missing: 18),
        // A flagged jump of a minute (a restarted clock, not lost frames): a gap, nothing counted as missing.
        GapCase(name: "flagged minute", pts: [0, 40, 60_040], discontinuities: [0, 2], events: 1, missing: 0),
        GapCase(name: "two gaps", pts: [0, 400, 440, 1000], discontinuities: [], events: 2, missing: 9 + 13),
    ]

    @Test(arguments: cases)
    func gapsAreCountedFromTimestamps(_ gapCase: GapCase) {
        let recorder = RunRecorder()
        recorder.setNominalFrameDuration(ms(40))
        var source = SyntheticSource(recorder: recorder)
        for (index, pts) in gapCase.pts.enumerated() {
            let arrival = source.arrive(
                ptsMilliseconds: pts, atMilliseconds: pts, discontinuity: gapCase.discontinuities.contains(index))
            source.output(index: arrival, ptsMilliseconds: pts, arrivalMilliseconds: pts, outputMilliseconds: pts + 1)
        }
        let report = recorder.makeReport(context: testContext())
        #expect(report.frames.gaps == gapCase.events)
        #expect(report.frames.missingFrames == gapCase.missing)
        // Gaps are not drops.
        #expect(report.frames.droppedTotal == 0)
        #expect(report.frames.output == gapCase.pts.count)
    }

    /// Frames a stop cut off (after a hole the stopped demuxer left) are decoded and dropped as interrupted, not
    /// a gap of the source.
    @Test func framesCutByAStopAreInterruptedDropsNotAGap() {
        let recorder = RunRecorder()
        recorder.setNominalFrameDuration(ms(40))
        var source = SyntheticSource(recorder: recorder)
        for pts in [0.0, 40, 80] {
            let arrival = source.arrive(ptsMilliseconds: pts, atMilliseconds: pts)
            source.output(index: arrival, ptsMilliseconds: pts, arrivalMilliseconds: pts, outputMilliseconds: pts + 1)
        }
        recorder.frameCutByStop(index: 3, pts: ms(160), at: ms(160))
        let report = recorder.makeReport(context: testContext())
        #expect(report.frames.gaps == 0)
        #expect(report.frames.decoded == 4)
        #expect(report.frames.dropped["interrupted"] == 1)
        #expect(report.frames.output == 3)
        // The plotted arrivals count every decoded frame (the cut one was left out: 3 against 4 decoded).
        #expect(report.timeline.arrivals.reduce(0, +) == 4)
    }

    @Test func withoutNominalDurationOnlyFlagsCount() {
        var gaps = GapDetector()
        gaps.frameArrived(pts: ms(0), discontinuity: true)
        gaps.frameArrived(pts: ms(5000), discontinuity: false)
        gaps.frameArrived(pts: ms(5040), discontinuity: true)
        #expect(gaps.events == 1)
        #expect(gaps.discontinuities == 1)
    }
}
