import Foundation
import Synchronization
import StreamLensCore
import StreamLensGStreamer

extension FramePath {
    /// Hands `buffer` (owned) to the output at `pts` (the frame's stream time); true when it was accepted (or there
    /// is no output).
    func push(_ buffer: FrameBuffer, format: VideoFormat, pts: Duration?) -> Bool {
        guard let appSource else {
            buffer.release()
            return true
        }
        if aborted.load(ordering: .sequentiallyConsistent) {
            buffer.release()
            return false
        }
        if pushedFormat !== format {
            if let first = firstPushedFormat {
                keepFirstSize(first, whenChangingTo: format, at: pts)
            } else {
                firstPushedFormat = format
            }
            let padding = outputFitter?.fit(format)
            if let padding { fit.withLock { $0 = padding } }
            appSource.setCaps(of: format)
            pushedFormat = format
        }
        let buffer = keepingTimestampsIncreasing(buffer, format: format, pts: ClockTime.from(pts))
        // The push takes the buffer (transfer full) and blocks while the appsrc queue is full; abort() ends the
        // appsrc's stream, which makes a blocked push return.
        let flow = appSource.push(buffer)
        guard flow == .ok else {
            // EOS after abort() is ours, not the output's failure.
            if aborted.load(ordering: .sequentiallyConsistent) { return false }
            outputFailure.withLock {
                if $0 == nil {
                    let reason = flow.name
                    $0 = .streamError(source: "output", message: "the output refused a frame (\(reason))", debug: nil)
                }
            }
            return false
        }
        return true
    }

    /// An input that changes frame size (or pixel shape, or colours) partway — recordings joined end to end, a stream
    /// switching resolution — made the encoder renegotiate, which MP4 and Matroska muxers refuse: the run failed
    /// there. The output keeps the first format instead: from the first change on, the output's capsfilter pins the
    /// first frame's size, pixel aspect and colorimetry, and `videoscale` scales later frames into it (black borders
    /// keep their shape). Until then the filter is open and `videoscale` passes frames through untouched.
    private func keepFirstSize(_ first: VideoFormat, whenChangingTo format: VideoFormat, at pts: Duration?) {
        guard let firstSizeFilter, sizeChange.withLock({ $0 == nil }) else { return }
        let firstAspect = first.pixelAspectRatio
        let newAspect = format.pixelAspectRatio
        let sameShape = first.width == format.width && first.height == format.height
            && firstAspect.numerator * newAspect.denominator == newAspect.numerator * firstAspect.denominator
            && first.hasSameColorimetry(as: format)
        guard !sameShape else { return }
        // The size the first frames were encoded at (after padding for the encoder, if any).
        let fitted: (width: Int, height: Int) = outputFitter?.fitted(first) ?? (first.width, first.height)
        let aspect = "\(firstAspect.numerator)/\(max(1, firstAspect.denominator))"
        var caps = "video/x-raw,width=\(fitted.width),height=\(fitted.height),pixel-aspect-ratio=\(aspect)"
        if let colorimetryName = first.colorimetryName { caps += ",colorimetry=" + colorimetryName }
        firstSizeFilter.set("caps", capsText: caps)
        sizeChange.withLock {
            $0 = InputSizeChange(
                firstWidth: first.width, firstHeight: first.height, width: format.width, height: format.height,
                at: pts)
        }
    }

    /// Encoders and muxers refuse timestamps that go backwards (concatenated recordings start again at zero, a
    /// damaged file repeats or jumps). When a frame's PTS is not after the last one pushed, or is further ahead than
    /// ``Configuration/timestampJumpLimit``, it and every later frame are shifted by the same amount so that it
    /// lands one frame after the last one; smaller forward jumps (gaps) pass unchanged. `streamTime` is the frame's
    /// PTS in stream time, which the output gets instead of the decoder's (they differ by the segment's start).
    private func keepingTimestampsIncreasing(
        _ buffer: FrameBuffer, format: VideoFormat, pts streamTime: UInt64
    ) -> FrameBuffer {
        let original = buffer.clockPTS
        guard streamTime != ClockTime.none else { return buffer }
        var pts = streamTime &+ ptsShift
        let jumpLimit = configuration.timestampJumpLimit.map { ClockTime.from($0) }
        if let last = lastPushedPTS, pts <= last || jumpLimit.map({ pts - last > $0 }) == true {
            let step = format.frameDuration.map { ClockTime.from($0) } ?? 1_000_000
            ptsShift &+= last &+ step &- pts
            pts = last &+ step
            timestampShifts.add(1, ordering: .relaxed)
        }
        lastPushedPTS = pts
        guard pts != original else { return buffer }
        // Only the buffer's metadata is copied when someone else holds it; the pixels stay shared.
        let writable = buffer.makeWritable()
        writable.clockPTS = pts
        return writable
    }
}
