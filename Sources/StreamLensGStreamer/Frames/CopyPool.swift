internal import CGStreamer
internal import CGStreamerShim

/// A `GstVideoBufferPool` of frames in one format, for the copies compositing needs: buffers return to the pool when
/// the output releases them, so steady state allocates nothing. Used by the frame path and the drawing elements
/// (``WritableFrames``).
package final class CopyPool {
    package let format: VideoFormat
    private let pool: UnsafeMutablePointer<GstBufferPool>

    package init?(format: VideoFormat) {
        self.format = format
        guard let pool = gst_video_buffer_pool_new() else { return nil }
        self.pool = pool
        let config = gst_buffer_pool_get_config(pool)
        gst_buffer_pool_config_set_params(config, format.caps, guint(format.info.size), 0, 0)
        guard gst_buffer_pool_set_config(pool, config) != 0, gst_buffer_pool_set_active(pool, 1) != 0 else {
            gst_object_unref(UnsafeMutableRawPointer(pool))
            return nil
        }
    }

    deinit {
        gst_buffer_pool_set_active(pool, 0)
        gst_object_unref(UnsafeMutableRawPointer(pool))
    }

    /// A pooled buffer holding the pixels and timestamps of `source` (borrowed); a new reference for the caller.
    package func copy(of source: FrameBuffer) -> FrameBuffer? {
        copy(of: source.buffer).map(FrameBuffer.init)
    }

    func copy(of source: UnsafeMutablePointer<GstBuffer>) -> UnsafeMutablePointer<GstBuffer>? {
        var target: UnsafeMutablePointer<GstBuffer>?
        guard gst_buffer_pool_acquire_buffer(pool, &target, nil) == GST_FLOW_OK, let target else { return nil }
        var from = GstVideoFrame()
        var to = GstVideoFrame()
        guard gst_video_frame_map(&from, &format.info, source, GST_MAP_READ) != 0 else {
            slx_buffer_unref(target)
            return nil
        }
        defer { gst_video_frame_unmap(&from) }
        guard gst_video_frame_map(&to, &format.info, target, GST_MAP_WRITE) != 0 else {
            slx_buffer_unref(target)
            return nil
        }
        _ = gst_video_frame_copy(&to, &from)
        gst_video_frame_unmap(&to)
        _ = gst_buffer_copy_into(target, source, slx_buffer_copy_metadata(), 0, gsize.max)
        return target
    }
}
