internal import CGStreamer
internal import CGStreamerShim
import StreamLensCore

/// A decoded frame lent to an analysis stage as it is, without a copy: a reference on the buffer and a read
/// mapping from ``lend(_:format:)`` until ``giveBack()``. One per lane, reused for every frame (no allocation per
/// frame).
///
/// While the reference is held, the frame path sees the buffer as shared (`gst_buffer_is_writable` is false), so a
/// compositor that must draw on it while analysis still reads it gets a pooled copy instead: the stage never sees
/// pixels change under it. Giving the frame back as soon as the stage returns lets the frame path draw in place.
///
/// ## Thread Safety
/// Lent on the processing thread, read and given back on an analysis thread; the lane's mailbox orders the two.
/// GStreamer's buffer reference counts are atomic.
package final class BorrowedFrame: @unchecked Sendable {
    private var buffer: UnsafeMutablePointer<GstBuffer>?
    private var frame = GstVideoFrame()
    /// The lent frame's format and planes; valid from ``lend(_:format:)`` until ``giveBack()``.
    package private(set) var lent: (planes: YUVPlanes, format: VideoFormat)?

    package init() {}

    /// Lends `buffer` (a frame of `format`; a reference is taken). False when it cannot be mapped. Nothing may be
    /// lent already.
    package func lend(_ buffer: FrameBuffer, format: VideoFormat) -> Bool {
        precondition(self.buffer == nil, "BorrowedFrame.lend while a frame is lent")
        let reference = slx_buffer_ref(buffer.buffer)!
        guard gst_video_frame_map(&frame, &format.info, reference, GST_MAP_READ) != 0 else {
            slx_buffer_unref(reference)
            return false
        }
        self.buffer = reference
        lent = (format.planes(of: &frame), format)
        return true
    }

    /// Unmaps the frame and drops the reference (nothing happens when nothing is lent).
    package func giveBack() {
        guard let buffer else { return }
        lent = nil
        gst_video_frame_unmap(&frame)
        slx_buffer_unref(buffer)
        self.buffer = nil
    }

    deinit { giveBack() }
}
