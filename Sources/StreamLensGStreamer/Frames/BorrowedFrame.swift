internal import CGStreamer
internal import CGStreamerShim
import StreamLensCore

/// A decoded frame lent to an analysis stage as it is, without a copy: a reference on the buffer and a read
/// mapping, both released in `deinit`.
///
/// While the reference is held, the frame path sees the buffer as shared (`gst_buffer_is_writable` is false), so a
/// compositor that must draw on it while analysis still reads it gets a pooled copy instead: the stage never sees
/// pixels change under it. Releasing the frame as soon as the stage returns lets the frame path draw in place.
///
/// ## Thread Safety
/// Made on the processing thread, read and released on an analysis thread; the lane's mailbox orders the two.
/// GStreamer's buffer reference counts are atomic.
final class BorrowedFrame: @unchecked Sendable {
    let format: VideoFormat
    private let buffer: UnsafeMutablePointer<GstBuffer>
    private var frame = GstVideoFrame()
    /// The frame's own planes, valid while this value lives.
    private(set) var planes: YUVPlanes

    /// Borrows `buffer` (a frame of `format`; a reference is taken). Nil when it cannot be mapped.
    init?(buffer: UnsafeMutablePointer<GstBuffer>, format: VideoFormat) {
        self.format = format
        self.buffer = slx_buffer_ref(buffer)!
        guard gst_video_frame_map(&frame, &format.info, self.buffer, GST_MAP_READ) != 0 else {
            slx_buffer_unref(self.buffer)
            return nil
        }
        planes = format.planes(of: &frame)
    }

    deinit {
        gst_video_frame_unmap(&frame)
        slx_buffer_unref(buffer)
    }
}
