import Foundation
import Synchronization
import StreamLensCore
import StreamLensGStreamer

// MARK: - Streaming thread

extension FramePath: AppSinkDelegate {
    package func appSinkHasSample(_ sink: AppSink) -> FlowResult {
        // The sample is let go inside pullFrame: when no one else (a decoder's reference list) holds the buffer, ours
        // is then the only reference and compositing can write to it without a copy.
        let buffer: FrameBuffer
        let streamTime: Duration?
        switch sink.pullFrame(currentFormat: currentFormat) {
        case .endOfStream: return .endOfStream
        case .empty: return .ok
        case .unsupportedFormat: return .notNegotiated
        case .frame(let pulled, let format, let time):
            if format !== currentFormat {
                currentFormat = format
                negotiated.withLock { $0 = format }
            }
            buffer = pulled
            streamTime = time
        }
        let clock = configuration.clock
        let arrival = clock.now()
        let frameIndex = decodedFrames
        decodedFrames += 1
        arrivedFrames.store(decodedFrames, ordering: .relaxed)
        let pts = continuingAfterReopen(followingOn(streamTime, buffer: buffer), arrival: arrival)
        let observer = configuration.observer
        if stopCutsAtGap.load(ordering: .sequentiallyConsistent) {
            if !cutByStop, let pts, let last = lastArrivedPTS, let step = currentFormat?.frameDuration,
                FrameStep.skipsFrames(pts - last, nominal: step)
            {
                cutByStop = true
            }
            if cutByStop {
                buffer.release()
                observer?.frameCutByStop(index: frameIndex, pts: pts, at: arrival)
                return .ok
            }
        }
        if let pts {
            lastArrivedPTS = pts
            lastTimedArrival = arrival
        }
        observer?.frameArrived(index: frameIndex, pts: pts, at: arrival, discontinuity: buffer.isDiscontinuous)
        switch pool.admit() {
        case .admitted(let slot, let waited):
            slots[slot] = Slot(
                buffer: buffer, format: currentFormat, frameIndex: frameIndex, pts: pts,
                arrival: arrival, poolWait: waited)
            handoff.push(slot)
            return .ok
        case .dropped:
            buffer.release()
            observer?.frameDropped(index: frameIndex, pts: pts, cause: .poolFull, at: clock.now())
            return .ok
        case .closed:
            buffer.release()
            let cause = abortCause.withLock { $0 } ?? refusedCause.withLock { $0 }
            observer?.frameDropped(index: frameIndex, pts: pts, cause: cause, at: clock.now())
            return .endOfStream
        }
    }

    /// A decoder that stamps every frame with the same time (libav's GIF decoder: all at 0, each 100 ms long) is
    /// read as frames following one another, each its own duration (or the format's frame duration) after the last:
    /// the analysis schedule, the report and the events see the times the output gets. Other timestamps that go
    /// backwards or jump (joined recordings) keep their own time here; the output alone is kept in order
    /// (``keepingTimestampsIncreasing(_:format:pts:)``).
    private func followingOn(_ pts: Duration?, buffer: FrameBuffer) -> Duration? {
        defer { lastDecoderPTS = pts }
        guard let pts, pts == lastDecoderPTS, let last = lastArrivedPTS else { return pts }
        let ownLength = buffer.duration.flatMap { $0 > .zero ? $0 : nil }
        return (ownLength ?? currentFormat?.frameDuration).map { last + $0 } ?? pts
    }

    /// A reopened live input (a fresh pipeline after an outage) may stamp its frames from its own start again:
    /// rtspsrc's first frame after a reconnect was at 0, so the output squeezed the outage out (a 30 s run gave a
    /// 22 s file), the timeline repeated its times and events would have too. Its times are moved onto the run's:
    /// its first frame comes as long after the last one before the outage as it arrived after it, so the outage is
    /// a gap in the timeline, as in the real scene. An input whose times already go on is left as it is.
    private func continuingAfterReopen(_ pts: Duration?, arrival: Duration) -> Duration? {
        guard let pts else { return nil }
        if inputReopened.exchange(false, ordering: .sequentiallyConsistent), let last = lastArrivedPTS,
            let lastArrival = lastTimedArrival
        {
            reopenedInputOffset = pts < last ? last + (arrival - lastArrival) - pts : .zero
        }
        return pts + reopenedInputOffset
    }

    package func appSinkReachedEndOfStream() {
        // A restartable input's end is decided by the runner (it may reconnect).
        if !configuration.inputRestarts { handoff.finish() }
    }
}
