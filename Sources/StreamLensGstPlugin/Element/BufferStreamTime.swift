import StreamLensCore
import StreamLensGStreamer

/// The stream time of the buffers an element sees, shared by the analysis elements and streamlensblur: the sink
/// pad's segment maps each buffer's PTS (events and subtitles then match what players show); a buffer without one is
/// placed a frame after the previous, so schedules still advance.
///
/// ## Thread Safety
/// Not synchronized: the element's streaming thread only.
struct BufferStreamTime {
    /// The sink pad's time segment.
    var segment: TimeSegment?
    private var lastPTS: Duration?

    mutating func presentationTime(of buffer: BufferHandle, format: VideoFormat) -> Duration {
        let pts = buffer.pts.map { segment?.streamTime(of: $0) ?? $0 }
            ?? lastPTS.map { $0 + (format.frameDuration ?? .milliseconds(40)) } ?? .zero
        lastPTS = pts
        return pts
    }

    /// Forgets the previous buffer's time (a start or a flush: the next buffer without a PTS starts at zero).
    mutating func restart() { lastPTS = nil }
}
