import Foundation
import Synchronization
import StreamLensCore
import StreamLensGStreamer

// MARK: - Processing thread

extension FramePath {
    /// A frame taken from the pool, on its way to the output.
    struct TakenFrame {
        var buffer: FrameBuffer
        var format: VideoFormat
        var frameIndex: Int
        var pts: Duration?
        var arrival: Duration
        var poolWait: Duration
    }

    func processFrames() {
        // Without analysis there is nothing to wait for: frames take the plain path.
        if configuration.synchronizesAnalysis && !lanes.isEmpty {
            processFramesInSync()
        } else {
            processFramesWithNewestResults()
        }
        for lane in lanes { lane.stop() }
        appSource?.endOfStream()
    }

    /// Takes the frame in `slotIndex` out of the pool slot (the slot itself stays taken); nil for an empty slot.
    func take(slot slotIndex: Int) -> TakenFrame? {
        let slot = slots[slotIndex]
        slots[slotIndex].buffer = nil
        guard let buffer = slot.buffer, let format = slot.format else { return nil }
        return TakenFrame(
            buffer: buffer, format: format, frameIndex: slot.frameIndex, pts: slot.pts, arrival: slot.arrival,
            poolWait: slot.poolWait)
    }

    /// Hands the frame to every lane it is due for; returns the lanes (as bits) that took it. `waitForLanes`: a busy
    /// lane is waited for (lossless runs); otherwise it skips the frame.
    func submitForAnalysis(_ frame: TakenFrame, waitForLanes: Bool, onIdle: (Int) -> Void = { _ in }) -> UInt64 {
        let pts = frame.pts ?? .zero
        var submitted: UInt64 = 0
        for (index, lane) in lanes.enumerated() where lane.isDue(pts: pts) {
            if waitForLanes {
                lane.waitUntilIdle()
                onIdle(index)
            }
            if lane.isIdle {
                if lane.submit(buffer: frame.buffer, format: frame.format, pts: pts, frameIndex: frame.frameIndex) {
                    submitted |= 1 << UInt64(index)
                }
            } else if lane.countsMissedAnalysis(pts: pts) {
                configuration.observer?.analysisSkipped(stage: lane.stage.name, pts: pts)
            }
        }
        return submitted
    }

    /// Draws `detections` on the frame, pushes it (or counts it dropped) and reports its timing. `poolSlot`: the
    /// slot it still holds, released once the frame has left.
    func deliver(
        _ frame: TakenFrame, detections: [String: Detections], analysisLag: Duration?, poolSlot: Int?
    ) {
        let clock = configuration.clock
        var buffer = frame.buffer
        let compositeStart = clock.now()
        let context = CompositeContext(
            pts: frame.pts ?? .zero, frameIndex: frame.frameIndex, latestDetections: detections)
        if configuration.compositors.contains(where: { $0.willDraw(context) }) {
            buffer = makeWritable(buffer, format: frame.format)
            _ = frame.format.withMappedPlanes(buffer, writable: true) { planes in
                for stage in configuration.compositors { stage.composite(onto: planes, context: context) }
            }
        }
        let pushStart = clock.now()
        let delivered = push(buffer, format: frame.format, pts: frame.pts)
        let outputAt = clock.now()
        if let poolSlot { pool.release(slot: poolSlot) }
        if delivered {
            outputFrames.add(1, ordering: .relaxed)
            configuration.observer?.frameOutput(
                index: frame.frameIndex, pts: frame.pts,
                timing: FrameTiming(
                    arrival: frame.arrival, poolWait: frame.poolWait, compositeTime: pushStart - compositeStart,
                    pushTime: outputAt - pushStart, outputAt: outputAt, analysisLag: analysisLag))
        } else {
            configuration.observer?.frameDropped(
                index: frame.frameIndex, pts: frame.pts, cause: undeliveredCause, at: outputAt)
        }
    }

    /// Live behaviour: every frame is drawn at once with each stage's newest result, whatever frame it came from.
    func processFramesWithNewestResults() {
        let lossless = configuration.pool.policy == .block
        while let slotIndex = handoff.next() {
            guard let frame = take(slot: slotIndex) else {
                pool.release(slot: slotIndex)
                continue
            }
            _ = submitForAnalysis(frame, waitForLanes: lossless)
            let pts = frame.pts ?? .zero
            let detections = configuration.compositors.isEmpty ? [:] : board.snapshot()
            var analysisLag: Duration?
            for (stage, result) in detections {
                let lag = pts - result.pts
                analysisLag = max(analysisLag ?? .zero, lag)
                configuration.observer?.analysisDrawn(stage: stage, lag: lag)
            }
            deliver(frame, detections: detections, analysisLag: analysisLag, poolSlot: slotIndex)
        }
    }
}
