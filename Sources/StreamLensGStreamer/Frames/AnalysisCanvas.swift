internal import CGStreamer
internal import CGStreamerShim
import StreamLensCore

/// A downscaled I420 copy of source frames for one analysis stage, made with GStreamer's own converter
/// (`GstVideoConverter`) into a buffer allocated once and kept mapped for the canvas's lifetime.
///
/// ## Thread Safety
/// ``draw(from:of:)`` runs on the processing thread while the analysis thread is idle; ``planes`` is read by the
/// analysis thread between a `draw` and the next. The handoff (the lane's mailbox) orders the two.
package final class AnalysisCanvas: @unchecked Sendable {
    let width: Int
    let height: Int
    package let sourceFormat: VideoFormat
    private var info = GstVideoInfo()
    private let buffer: UnsafeMutablePointer<GstBuffer>
    private var frame = GstVideoFrame()
    private let converter: OpaquePointer
    /// The canvas's planes, valid while the canvas lives.
    package private(set) var planes: YUVPlanes

    /// A canvas of `targetWidth` (height keeps the source aspect ratio, both even) for frames of `sourceFormat`, in
    /// the source's colours or converted to BT.601.
    package init?(sourceFormat: VideoFormat, targetWidth: Int?, colours: AnalysisColours = .source) {
        // At least 2 × 2: a frame 1 pixel wide rounded down to an even width left a canvas of width 0.
        let width = max(2, min(sourceFormat.width, max(16, targetWidth ?? sourceFormat.width)) & ~1)
        let height = max(2, Int((Double(sourceFormat.height) * Double(width) / Double(sourceFormat.width)).rounded())) & ~1
        self.width = width
        self.height = height
        self.sourceFormat = sourceFormat
        gst_video_info_set_format(&info, GST_VIDEO_FORMAT_I420, guint(width), guint(height))
        // The converter only scales and converts; it insists that rate and aspect match the source.
        info.fps_n = sourceFormat.info.fps_n
        info.fps_d = sourceFormat.info.fps_d
        info.par_n = sourceFormat.info.par_n
        info.par_d = sourceFormat.info.par_d
        // And that interlacing matches: an interlaced source (a camcorder's or broadcast MPEG-2 .ts) is scaled field
        // by field into a canvas with its fields interleaved — an ordinary picture to the analysers. Without this
        // the converter refused with a GStreamer CRITICAL and the stage never ran.
        info.interlace_mode = sourceFormat.info.interlace_mode
        // Colours: the source's unless the stage asks for BT.601. Left at the format's default for this size (BT.601
        // below 720 rows) for every stage, the converter turned each pixel of a BT.709 source (HD video) from one
        // matrix to the other on top of the scaling: 3–4 times the converter's time for HOG's canvas, and a luma
        // that was not the source's (FramePathTests.aDownscaledCopyKeepsTheSourcesColoursUnlessTheStageAsksForBT601).
        switch colours {
        case .source:
            info.colorimetry = sourceFormat.info.colorimetry
            info.chroma_site = sourceFormat.info.chroma_site
        case .bt601:
            _ = gst_video_colorimetry_from_string(&info.colorimetry, GST_VIDEO_COLORIMETRY_BT601)
        }
        guard let buffer = gst_buffer_new_allocate(nil, info.size, nil) else { return nil }
        self.buffer = buffer
        // Cubic scaling is the converter's default; one thread keeps it off the second core the decoder uses.
        // At most four taps: a 1080p frame scaled to 640 would otherwise get six (a filter as wide as the scale),
        // 10.9 ms a frame instead of 4.7 (both measured with a matrix conversion as well) on the processing thread,
        // which waits for it in frame-accurate runs.
        // The converter takes ownership of its configuration structure.
        let config = gst_structure_from_string(
            "GstVideoConverter, GstVideoConverter.threads=(uint)1, GstVideoConverter.resampler-taps=(uint)4", nil)
        guard let converter = gst_video_converter_new(&sourceFormat.info, &info, config) else {
            slx_buffer_unref(buffer)
            return nil
        }
        self.converter = converter
        guard gst_video_frame_map(&frame, &info, buffer, GstMapFlags(GST_MAP_READ.rawValue | GST_MAP_WRITE.rawValue)) != 0 else {
            gst_video_converter_free(converter)
            slx_buffer_unref(buffer)
            return nil
        }
        let luma = slx_video_frame_plane_data(&frame, 0)!
        planes = YUVPlanes(
            layout: .i420, width: width, height: height,
            lumaBase: luma, lumaStride: Int(slx_video_frame_plane_stride(&frame, 0)),
            chromaBase: slx_video_frame_plane_data(&frame, 1)!, chromaStride: Int(slx_video_frame_plane_stride(&frame, 1)),
            vBase: slx_video_frame_plane_data(&frame, 2), vStride: Int(slx_video_frame_plane_stride(&frame, 2)))
    }

    deinit {
        gst_video_frame_unmap(&frame)
        gst_video_converter_free(converter)
        slx_buffer_unref(buffer)
    }

    /// Scales `buffer` (a frame of ``sourceFormat``, borrowed) into the canvas. False when the frame could not be
    /// mapped.
    package func draw(from buffer: FrameBuffer) -> Bool {
        var source = GstVideoFrame()
        guard gst_video_frame_map(&source, &sourceFormat.info, buffer.buffer, GST_MAP_READ) != 0 else { return false }
        gst_video_converter_frame(converter, &source, &frame)
        gst_video_frame_unmap(&source)
        return true
    }
}
