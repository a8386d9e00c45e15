internal import CGStreamer
internal import CGStreamerShim
import StreamLensCore

/// A buffer passing through a StreamLens element (`transform_ip`), as its Swift logic sees it.
///
/// Ownership: `.borrowed` for the duration of the call that passed it; never stored. Metadata (regions of interest)
/// may be added only when GStreamer made the buffer writable for the element (not in passthrough).
public struct BufferHandle {
    let buffer: UnsafeMutablePointer<GstBuffer>

    /// Wraps the `GstBuffer *` the plugin's C layer passed in (borrowed).
    public init(borrowing raw: UnsafeMutableRawPointer) {
        buffer = raw.assumingMemoryBound(to: GstBuffer.self)
    }

    /// The buffer as the frame path's analysis takes it (borrowed: no reference is added).
    package var frameBuffer: FrameBuffer { FrameBuffer(buffer) }

    /// The `GstBuffer *` itself (borrowed), to hand back to the plugin's C layer.
    public var pointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(buffer) }

    /// Presentation time; nil when the buffer has none.
    public var pts: Duration? { StreamLensGStreamer.duration(fromClockTime: slx_buffer_pts(buffer)) }
    /// Duration; nil when the buffer has none.
    public var duration: Duration? { StreamLensGStreamer.duration(fromClockTime: slx_buffer_duration(buffer)) }
    /// The buffer follows a discontinuity (a seek, lost data).
    public var isDiscontinuous: Bool { slx_buffer_is_discont(buffer) != 0 }
    /// The buffer stands for missing data (`GST_BUFFER_FLAG_GAP`).
    public var isGap: Bool { slx_buffer_is_gap(buffer) != 0 }

    /// Maps the buffer as a frame of `format` and lends its planes; unmaps when `body` returns. Nil when the
    /// buffer cannot be mapped.
    ///
    /// Mapping for writing a buffer whose memory is shared (a decoder still holds it) makes GStreamer copy that
    /// memory first: map for writing only when something will be drawn.
    public func withPlanes<Result>(
        format: VideoFormat, writable: Bool, _ body: (YUVPlanes) throws -> Result
    ) rethrows -> Result? {
        try format.withMappedPlanes(buffer, writable: writable, body)
    }
}

extension VideoFormat {
    /// Parses caps the plugin's C layer passed in (`GstCaps *`, borrowed; the format keeps its own reference). Nil
    /// for formats other than I420/NV12.
    public convenience init?(borrowingCaps raw: UnsafeMutableRawPointer) {
        self.init(caps: raw.assumingMemoryBound(to: GstCaps.self))
    }

    /// The nominal frame duration of raw-video caps of any pixel format (`GstCaps *`, borrowed); nil when the caps
    /// are not raw video or give no frame rate.
    public static func frameDuration(ofCaps raw: UnsafeMutableRawPointer) -> Duration? {
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, raw.assumingMemoryBound(to: GstCaps.self)) != 0 else { return nil }
        let numerator = Int64(slx_video_info_fps_n(&info))
        let denominator = Int64(max(1, slx_video_info_fps_d(&info)))
        guard numerator > 0 else { return nil }
        return .nanoseconds(1_000_000_000 * denominator / numerator)
    }

    /// Caps as text (`video/x-raw, format=(string)I420, width=(int)640, …`), for reports and messages.
    public static func description(ofCaps raw: UnsafeMutableRawPointer) -> String {
        guard let text = gst_caps_to_string(raw.assumingMemoryBound(to: GstCaps.self)) else { return "?" }
        defer { g_free(text) }
        return String(cString: text)
    }
}
