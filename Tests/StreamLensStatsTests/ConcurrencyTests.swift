import Dispatch
import Foundation
import StreamLensCore
import Testing
@testable import StreamLensStats

@Suite("Recorder under concurrent threads")
struct ConcurrencyTests {
    /// Four threads play the decoder, processing and analysis roles at once, as in a real run; counts must add up
    /// exactly and the CSV must hold one row per frame.
    @Test func countsAddUpWhenThreadsReportAtOnce() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("concurrent-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TimelineWriter(path: path)
        let recorder = RunRecorder(configuration: RecorderConfiguration(poolCapacity: 3), timeline: writer)
        let framesPerThread = 5000
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for frame in 0..<framesPerThread {
                let index = thread * framesPerThread + frame
                let time = ms(Double(index))
                recorder.frameArrived(index: index, pts: time, at: time, discontinuity: false)
                if frame % 7 == 0 {
                    recorder.frameDropped(index: index, pts: time, cause: .poolFull, at: time)
                } else {
                    recorder.frameOutput(
                        index: index, pts: time,
                        timing: FrameTiming(
                            arrival: time, poolWait: .zero, compositeTime: ms(1), pushTime: ms(1),
                            outputAt: time + ms(3), analysisLag: nil))
                }
                if frame % 10 == 0 {
                    recorder.analysisCompleted(stage: "stage\(thread % 2)", pts: time, latency: ms(5), count: 1)
                }
                if frame % 100 == 0 {
                    recorder.poll(at: time)
                    _ = recorder.snapshot()
                }
            }
        }
        recorder.finish(at: ms(Double(4 * framesPerThread)))
        let report = recorder.makeReport(context: testContext())
        let drops = 4 * ((framesPerThread + 6) / 7)
        #expect(report.frames.decoded == 4 * framesPerThread)
        #expect(report.frames.dropped["pool_full"] == drops)
        #expect(report.frames.output == 4 * framesPerThread - drops)
        #expect(report.latencyMilliseconds.count == report.frames.output)
        #expect(report.analysis["stage0"]?.completed == 2 * framesPerThread / 10)
        #expect(report.timeline.arrivals.reduce(0, +) == 4 * framesPerThread)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1 + 4 * framesPerThread)
        // Rows are whole: every row has ten fields.
        #expect(lines.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 10 })
    }
}
