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
        default: self = .other
        }
    }
}
