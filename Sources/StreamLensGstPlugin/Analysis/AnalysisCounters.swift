import StreamLensCore
import StreamLensGStreamer
import Synchronization

/// Counts what an analysis element's stage did (the `analysis` section of the command line's report), for the
/// `streamlens-analysis` message it posts at end-of-stream.
///
/// ## Thread Safety
/// Called from the analysis thread (completions, failures) and the streaming thread (skips); every counter is an
/// atomic.
final class AnalysisCounters: FramePathObserver {
    /// Name of the element message.
    static let messageName = "streamlens-analysis"

    let completed = Atomic<Int>(0)
    let skipped = Atomic<Int>(0)
    let failed = Atomic<Int>(0)
    let detections = Atomic<Int>(0)

    func analysisCompleted(stage: String, pts: Duration, latency: Duration, count: Int) {
        completed.add(1, ordering: .relaxed)
        detections.add(count, ordering: .relaxed)
    }

    func analysisSkipped(stage: String, pts: Duration) { skipped.add(1, ordering: .relaxed) }
    func analysisFailed(stage: String, pts: Duration, error: any Error) { failed.add(1, ordering: .relaxed) }

    // Frame movements are the stats element's business.
    func frameArrived(index: Int, pts: Duration?, at time: Duration, discontinuity: Bool) {}
    func frameDropped(index: Int, pts: Duration?, cause: DropCause, at time: Duration) {}
    func frameOutput(index: Int, pts: Duration?, timing: FrameTiming) {}
    func sinkReportedDrops(total: UInt64) {}

    /// The message fields: the stage's name and the four counts.
    func fields(stage: String) -> [StructureField] {
        [
            StructureField("stage", .string(stage)),
            StructureField("completed", .int(completed.load(ordering: .relaxed))),
            StructureField("skipped", .int(skipped.load(ordering: .relaxed))),
            StructureField("failed", .int(failed.load(ordering: .relaxed))),
            StructureField("detections", .int(detections.load(ordering: .relaxed))),
        ]
    }
}
