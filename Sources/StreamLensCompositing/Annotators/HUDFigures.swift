import StreamLensCore
import Synchronization

/// The numbers the plugin's streamlensannotate HUD shows: the frame rate through the element over about the last
/// second (wall clock; during the first second, over the frames so far, so that a file pipeline that ends within
/// it does not show 0), and the frames missing from the stream so far (a PTS step longer than 1.5 frame durations
/// counts the frames that should have been in it) — what the element can see of drops upstream.
///
/// ## Thread Safety
/// The streaming thread records frames and the HUD annotator reads the snapshot (on the same thread); a mutex keeps
/// it safe anyway.
public final class HUDFigures: Sendable {
    private struct State {
        var windowStart: Duration?
        var framesInWindow = 0
        var framesPerSecond = 0.0
        var measuredWholeSecond = false
        var lastPTS: Duration?
        var missingFrames = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// A frame passed at `now` (monotonic clock).
    public func frame(pts: Duration?, frameDuration: Duration?, at now: Duration) {
        state.withLock { state in
            if let start = state.windowStart {
                state.framesInWindow += 1
                let elapsed = now - start
                if elapsed >= .seconds(1) || (!state.measuredWholeSecond && elapsed > .zero) {
                    state.framesPerSecond = Double(state.framesInWindow) / (elapsed / .seconds(1))
                }
                if elapsed >= .seconds(1) {
                    state.windowStart = now
                    state.framesInWindow = 0
                    state.measuredWholeSecond = true
                }
            } else {
                state.windowStart = now
            }
            if let pts, let frameDuration, frameDuration > .zero, let last = state.lastPTS, pts > last {
                let step = pts - last
                if step * 2 > frameDuration * 3 {
                    state.missingFrames += Int((step / frameDuration).rounded()) - 1
                }
            }
            if let pts { state.lastPTS = pts }
        }
    }

    /// A new timeline starts (flush, new stream): gaps are not measured across it.
    public func restart() {
        state.withLock { $0.lastPTS = nil }
    }

    public var snapshot: HUDSnapshot {
        state.withLock { HUDSnapshot(framesPerSecond: $0.framesPerSecond, droppedFrames: $0.missingFrames) }
    }
}
