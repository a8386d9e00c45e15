import Foundation
import Synchronization
import StreamLensCore
import StreamLensGStreamer

// MARK: - Frame-accurate analysis

extension FramePath {
    /// The most frames held for analysis results, whatever the interval: a 1080p I420 frame is 3 MB. With a longer
    /// interval, frames beyond the hold are drawn with the last result before them.
    public static let maximumHeldFrames = 32
    /// The most bytes of frames held: ``maximumHeldFrames`` 1080p frames. A 4K frame is 12 MB, so a 4K run holds at
    /// most 8 (the default 0.3 s interval at 25 fps), whatever interval a pipeline file asks for.
    public static let maximumHeldBytes = maximumHeldFrames * 1920 * 1080 * 3 / 2
    /// A held frame whose next frame has not come from the decoder within this time is drawn with what is known
    /// (a decoder that waits for its own buffers to come back must never wait on the hold).
    static let heldFrameInputWait = Duration.seconds(2)
    /// The output appsrc's own queue (`max-buffers` in the output description).
    static let outputQueueFrames = 2
    /// The deepest output queue a frame-accurate run asks for: one result releases up to a hold of frames at once.
    /// (appsrc also stops at its `max-bytes`, 200 000 by default: at 1080p its queue holds one frame whatever this
    /// asks. Lifting that limit was measured: 2–15 MiB more memory and no steady gain in wall time.)
    static let outputQueueLimit = 8

    /// The frames a run with these lanes holds at most: the longest gap between analysed frames, so that every
    /// frame between two analysed ones (and the later one) can wait for the later one's result. At most
    /// ``maximumHeldFrames`` and ``maximumHeldBytes`` of frames `frameBytes` large. Frames the decoder delivers
    /// meanwhile wait in the pool, which is not emptied into the hold: held frames are 3 MB each at 1080p
    /// (FramePathTests.theHoldIsBoundedInFramesAndInBytes).
    public static func holdLimit(frameGaps: [Int], frameBytes: Int) -> Int {
        let byBytes = maximumHeldBytes / max(1, frameBytes)
        return max(1, min(maximumHeldFrames, byBytes, frameGaps.max() ?? 0))
    }

    /// What the processing thread knows of one lane's results in a frame-accurate run.
    private struct LaneResults {
        /// Results of analysed frames, oldest first: the newest one at or before the oldest held frame, and all later.
        var results: [(frameIndex: Int, detections: Detections)] = []
        /// Storage reused for interpolated boxes.
        var blended: [Detection] = []
        var lastSubmitted = -1
        var lastFinished = -1
        /// A job was handed to the lane and has not finished.
        var outstanding: Bool { lastSubmitted > lastFinished }

        /// Whether the frame `frameIndex` can be drawn: the lane finished a frame at or after it, or nothing it is
        /// running can tell more and the frame cannot wait for later frames (`mustFlush`).
        func isReady(_ frameIndex: Int, mustFlush: Bool) -> Bool {
            lastFinished >= frameIndex || (!outstanding && mustFlush)
        }
    }

    /// Frames wait in a first-in first-out hold (frames leave the pool when they enter it, so that the decoder can
    /// deliver the later frames whose analysis they wait for) until every lane has results that bracket them; then
    /// they are drawn in order, each with the results of its own analysis or boxes interpolated between the two
    /// analysed frames around it. At most ``holdLimit(frameGaps:)`` frames are held: when the hold is
    /// full or the input ended, the oldest frame waits only for analyses already running, then is drawn with what
    /// is known. After ``abort(cause:)`` held frames are dropped at once.
    func processFramesInSync() {
        var laneResults = Array(repeating: LaneResults(), count: lanes.count)
        var held: [TakenFrame] = []
        var holdLimit = Self.maximumHeldFrames
        held.reserveCapacity(holdLimit)
        var drawn: [String: Detections] = [:]
        var inputEnded = false
        var inputPaused = false
        var sized = false

        func collect(_ index: Int) {
            lanes[index].takeFinishedJobs { job in
                laneResults[index].lastFinished = max(laneResults[index].lastFinished, job.frameIndex)
                if let detections = job.detections { laneResults[index].results.append((job.frameIndex, detections)) }
            }
        }

        while true {
            if aborted.load(ordering: .sequentiallyConsistent) {
                for frame in held { deliver(frame, detections: [:], analysisLag: nil, poolSlot: nil) }
                held.removeAll()
                processFramesWithNewestResults()
                return
            }
            for index in lanes.indices { collect(index) }
            // The oldest frame may not wait for frames after it: the hold is full, the input ended or paused.
            var mustFlush: Bool { inputEnded || inputPaused || held.count >= holdLimit }
            while let head = held.first, laneResults.allSatisfy({ $0.isReady(head.frameIndex, mustFlush: mustFlush) }) {
                held.removeFirst()
                deliverSynced(head, laneResults: &laneResults, drawn: &drawn)
            }
            if held.isEmpty && inputEnded { return }
            if mustFlush && !held.isEmpty {
                // It waits for an analysis already running (an abort ends the wait).
                if let index = laneResults.indices.first(where: { laneResults[$0].outstanding }) {
                    lanes[index].waitUntilIdle()
                    collect(index)
                }
                continue
            }
            let next = held.isEmpty ? handoff.next().map(FrameHandoff.Next.slot) ?? .finished
                : handoff.next(waitingAtMost: Self.heldFrameInputWait)
            switch next {
            case .finished:
                inputEnded = true
            case .timedOut:
                inputPaused = true
            case .slot(let slotIndex):
                inputPaused = false
                guard let frame = take(slot: slotIndex) else {
                    pool.release(slot: slotIndex)
                    continue
                }
                if !sized {
                    sized = true
                    let frameDuration = frame.format.frameDuration ?? .milliseconds(33)
                    holdLimit = Self.holdLimit(
                        frameGaps: lanes.map { $0.schedule.maximumFrameGap(frameDuration: frameDuration) },
                        frameBytes: frame.format.frameByteCount)
                    // One result releases up to an interval of frames at once: an output queue that takes them all
                    // keeps the encoder busy with them while the next analysed frame is analysed (measured: the
                    // frame-accurate wall times in docs/figures/performance.md).
                    let releasedTogether = min(holdLimit, Self.outputQueueLimit)
                    if let appSource, releasedTogether > Self.outputQueueFrames {
                        appSource.setMaxBuffers(releasedTogether)
                    }
                }
                let submitted = submitForAnalysis(frame, waitForLanes: true, onIdle: collect)
                for index in lanes.indices where submitted & (1 << UInt64(index)) != 0 {
                    laneResults[index].lastSubmitted = frame.frameIndex
                }
                held.append(frame)
                pool.release(slot: slotIndex)
            }
        }
    }

    /// Draws a held frame with, per lane, the results of its own analysis, boxes interpolated between the analysed
    /// frames before and after it, or (when there is no later result) the last result before it; then drops the
    /// results no later frame needs.
    private func deliverSynced(_ frame: TakenFrame, laneResults: inout [LaneResults], drawn: inout [String: Detections]) {
        // Emptying the dictionary first leaves each lane's blend storage uniquely referenced: reused, not copied.
        drawn.removeAll(keepingCapacity: true)
        let pts = frame.pts ?? .zero
        var analysisLag: Duration?
        for index in laneResults.indices {
            let name = lanes[index].stage.name
            guard let beforeIndex = laneResults[index].results.lastIndex(where: { $0.frameIndex <= frame.frameIndex })
            else { continue }
            let before = laneResults[index].results[beforeIndex]
            let lag: Duration
            if before.frameIndex == frame.frameIndex {
                drawn[name] = before.detections
                lag = .zero
            } else if beforeIndex + 1 < laneResults[index].results.count {
                let after = laneResults[index].results[beforeIndex + 1]
                let fraction = Double(frame.frameIndex - before.frameIndex) / Double(after.frameIndex - before.frameIndex)
                DetectionInterpolation.blend(
                    before.detections, after.detections, fraction: fraction, into: &laneResults[index].blended)
                drawn[name] = Detections(pts: before.detections.pts, source: name, items: laneResults[index].blended)
                lag = max(.zero, min(pts - before.detections.pts, after.detections.pts - pts))
            } else {
                drawn[name] = before.detections
                lag = max(.zero, pts - before.detections.pts)
            }
            analysisLag = max(analysisLag ?? .zero, lag)
            configuration.observer?.analysisDrawn(stage: name, lag: lag)
            // Later frames need at most the newest result at or before this one.
            if beforeIndex > 0 { laneResults[index].results.removeFirst(beforeIndex) }
        }
        deliver(frame, detections: drawn, analysisLag: analysisLag, poolSlot: nil)
    }
}
