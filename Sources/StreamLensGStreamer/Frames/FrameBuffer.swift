internal import CGStreamer
internal import CGStreamerShim

/// One reference to a `GstBuffer` holding a decoded frame, for the frame path above this module.
///
/// Ownership: `.full`. The holder owns the reference and hands it on (``AppSource/push(_:)``,
/// ``makeWritable()``) or gives it up with ``release()`` exactly once; copies of the value share that one reference.
/// It is a plain value, not a class with a `deinit`, because the frame path moves each frame through pool slots,
/// the hold and the output by hand and must not allocate per frame.
///
/// ## Thread Safety
/// GStreamer's buffer reference counts are atomic; the frame's owner passes it from thread to thread through
/// structures that order the handoff (the pool and the frame handoff).
package struct FrameBuffer: @unchecked Sendable {
    let buffer: UnsafeMutablePointer<GstBuffer>

    init(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        self.buffer = buffer
    }

    /// Drops this reference (`gst_buffer_unref`).
    package func release() {
        slx_buffer_unref(buffer)
    }

    /// A new reference to the same buffer (`gst_buffer_ref`).
    package func retained() -> FrameBuffer {
        FrameBuffer(slx_buffer_ref(buffer)!)
    }

    /// No one else holds the buffer (`gst_buffer_is_writable`): it may be written in place.
    package var isWritable: Bool { slx_buffer_is_writable(buffer) != 0 }

    /// Takes this reference and returns a writable one (`gst_buffer_make_writable`): the same buffer when this was
    /// the only reference, otherwise a copy.
    package func makeWritable() -> FrameBuffer {
        FrameBuffer(slx_buffer_make_writable(buffer)!)
    }

    /// The presentation time as a GstClockTime in nanoseconds (``ClockTime/none`` when the buffer has none).
    package var clockPTS: UInt64 {
        get { UInt64(slx_buffer_pts(buffer)) }
        nonmutating set { slx_buffer_set_pts(buffer, GstClockTime(newValue)) }
    }

    /// Duration; nil when the buffer has none.
    package var duration: Duration? { StreamLensGStreamer.duration(fromClockTime: slx_buffer_duration(buffer)) }

    /// The buffer follows a discontinuity (a seek, lost data).
    package var isDiscontinuous: Bool { slx_buffer_is_discont(buffer) != 0 }
}

/// GstClockTime (nanoseconds as `UInt64`) for code above this module that does timestamp arithmetic.
package enum ClockTime {
    /// GST_CLOCK_TIME_NONE.
    package static var none: UInt64 { UInt64(slx_clock_time_none()) }

    /// The GstClockTime of `duration`, ``none`` for nil.
    package static func from(_ duration: Duration?) -> UInt64 {
        UInt64(clockTime(from: duration))
    }
}
