internal import CGStreamer
internal import CGStreamerShim

/// The events on an element's sink pad that StreamLens elements act on.
public enum SinkPadEvent: Sendable, Equatable {
    /// The stream ended: finish analysis (flushing its events) and write reports before end-of-stream goes on.
    case endOfStream
    /// A flush ended (after a seek): the next buffer starts a new timeline.
    case flushStop
    /// A new stream starts on the pad.
    case streamStart
    /// Upstream says nothing will come for a while (`GST_EVENT_GAP`), from `pts` on.
    case gap(pts: Duration?)
    /// A new time segment: how the buffers' timestamps map to stream time.
    case segment(TimeSegment)
    case other

    /// Reads the `GstEvent *` the plugin's C layer passed in (borrowed).
    public init(borrowing raw: UnsafeMutableRawPointer) {
        let event = raw.assumingMemoryBound(to: GstEvent.self)
        switch slx_event_type(event) {
        case GST_EVENT_EOS: self = .endOfStream
        case GST_EVENT_FLUSH_STOP: self = .flushStop
        case GST_EVENT_STREAM_START: self = .streamStart
        case GST_EVENT_GAP:
            var timestamp: GstClockTime = 0
            var length: GstClockTime = 0
            gst_event_parse_gap(event, &timestamp, &length)
            self = .gap(pts: duration(fromClockTime: timestamp))
        case GST_EVENT_SEGMENT:
            var segment: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event, &segment)
            guard let segment, segment.pointee.format == GST_FORMAT_TIME else {
                self = .other
                return
            }
            self = .segment(TimeSegment(segment.pointee))
        default: self = .other
        }
    }
}

/// A time segment, kept to place buffers in stream time (what players show): an MP4 whose edit list starts at 80 ms
/// (B-frames) has its first frame's PTS at 80 ms and its stream time at 0.
public struct TimeSegment: @unchecked Sendable, Equatable {
    private var segment: GstSegment

    init(_ segment: GstSegment) {
        self.segment = segment
    }

    /// `pts` in stream time (`gst_segment_to_stream_time`); `pts` itself outside the segment.
    public func streamTime(of pts: Duration) -> Duration {
        var segment = segment
        let streamTime = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, clockTime(from: pts))
        return duration(fromClockTime: streamTime) ?? pts
    }

    public static func == (a: TimeSegment, b: TimeSegment) -> Bool {
        var first = a.segment, second = b.segment
        return gst_segment_is_equal(&first, &second) != 0
    }
}
