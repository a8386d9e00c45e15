import Synchronization
import StreamLensCore

/// A FramePathObserver that remembers everything, for assertions.
final class RecordingObserver: FramePathObserver {
    struct State {
        var arrivals: [(index: Int, pts: Duration?)] = []
        var drops: [(index: Int, cause: DropCause)] = []
        var outputs: [(index: Int, pts: Duration?, timing: FrameTiming)] = []
        var skipped: [String: Int] = [:]
        var analysed: [String: Int] = [:]
        var failures: [String: Int] = [:]
    }
    let state = Mutex(State())

    func frameArrived(index: Int, pts: Duration?, at time: Duration, discontinuity: Bool) {
        state.withLock { $0.arrivals.append((index, pts)) }
    }
    func frameDropped(index: Int, pts: Duration?, cause: DropCause, at time: Duration) {
        state.withLock { $0.drops.append((index, cause)) }
    }
    func frameOutput(index: Int, pts: Duration?, timing: FrameTiming) {
        state.withLock { $0.outputs.append((index, pts, timing)) }
    }
    func analysisSkipped(stage: String, pts: Duration) { state.withLock { $0.skipped[stage, default: 0] += 1 } }
    func analysisCompleted(stage: String, pts: Duration, latency: Duration, count: Int) {
        state.withLock { $0.analysed[stage, default: 0] += 1 }
    }
    func analysisFailed(stage: String, pts: Duration, error: any Error) {
        state.withLock { $0.failures[stage, default: 0] += 1 }
    }
    func sinkReportedDrops(total: UInt64) {}

    var decoded: Int { state.withLock { $0.arrivals.count } }
    var output: Int { state.withLock { $0.outputs.count } }
    var dropped: Int { state.withLock { $0.drops.count } }
}
