internal import CGStreamer
internal import CGStreamerShim
import StreamLensCore

/// The negotiated raw-video format of a stream (from its caps), made once per caps change, never per frame.
///
/// ## Thread Safety
/// Immutable after `init`; the `GstVideoInfo` copy is only read.
public final class VideoFormat: @unchecked Sendable {
    /// I420 or NV12.
    public let layout: PixelLayout
    public let width: Int
    public let height: Int
    /// Frames per second as a fraction; 0/1 when the stream does not say (variable rate, stills).
    public let frameRateNumerator: Int
    public let frameRateDenominator: Int
    /// The caps as text, for messages.
    public let capsDescription: String
    var info: GstVideoInfo
    /// The caps the frames go out with: the stream's, with square pixels where it gave no valid pixel shape.
    let caps: UnsafeMutablePointer<GstCaps>
    /// The caps as the stream gave them (to tell a change of format).
    private let sourceCaps: UnsafeMutablePointer<GstCaps>

    /// Parses `caps` (borrowed; a reference is taken). Nil for formats other than I420/NV12.
    init?(caps: UnsafeMutablePointer<GstCaps>) {
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0 else { return nil }
        switch slx_video_info_format(&info) {
        case GST_VIDEO_FORMAT_I420: layout = .i420
        case GST_VIDEO_FORMAT_NV12: layout = .nv12
        default: return nil
        }
        self.info = info
        sourceCaps = gst_caps_ref(caps)
        if info.par_n <= 0 || info.par_d <= 0 {
            // A demuxer that does not know the pixel shape says so with -1/1 (avidemux on ffmpeg's raw BGR AVI): no
            // converter or encoder downstream takes that, and square pixels are what players assume.
            self.info.par_n = 1
            self.info.par_d = 1
            self.caps = gst_video_info_to_caps(&self.info)
        } else {
            self.caps = gst_caps_ref(caps)
        }
        width = Int(info.width)
        height = Int(info.height)
        frameRateNumerator = Int(slx_video_info_fps_n(&info))
        frameRateDenominator = Int(max(1, slx_video_info_fps_d(&info)))
        let text = gst_caps_to_string(caps)
        capsDescription = text.map { String(cString: $0) } ?? "?"
        g_free(text)
    }

    deinit {
        slx_caps_unref(caps)
        slx_caps_unref(sourceCaps)
    }

    /// Nominal duration of one frame, nil when the rate is unknown.
    public var frameDuration: Duration? {
        guard frameRateNumerator > 0 else { return nil }
        return .nanoseconds(Int64(1_000_000_000) * Int64(frameRateDenominator) / Int64(frameRateNumerator))
    }

    /// Bytes of one frame in this format (`GstVideoInfo.size`).
    package var frameByteCount: Int { Int(info.size) }

    /// The pixel aspect ratio (1/1 where the stream gave none).
    package var pixelAspectRatio: (numerator: Int, denominator: Int) { (Int(info.par_n), Int(info.par_d)) }

    /// The colorimetry as GStreamer names it in caps ("bt709", "bt601", or its four numbers); nil when it has none.
    package var colorimetryName: String? {
        var colorimetry = info.colorimetry
        guard let text = gst_video_colorimetry_to_string(&colorimetry) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The same colorimetry as `other` (`gst_video_colorimetry_is_equal`).
    package func hasSameColorimetry(as other: VideoFormat) -> Bool {
        var mine = info.colorimetry
        var theirs = other.info.colorimetry
        return gst_video_colorimetry_is_equal(&mine, &theirs) != 0
    }

    /// The frames are in the BT.601 colour matrix.
    package var usesBT601Matrix: Bool { info.colorimetry.matrix == GST_VIDEO_COLOR_MATRIX_BT601 }

    /// True when `caps` describe the same format (cheap pointer check first).
    func matches(_ other: UnsafeMutablePointer<GstCaps>) -> Bool {
        other == sourceCaps || gst_caps_is_equal(other, sourceCaps) != 0
    }
}

extension VideoFormat {
    /// Maps `buffer` as a video frame and lends its planes; unmaps when `body` returns.
    /// - Parameter writable: map for writing (the buffer must be writable).
    package func withMappedPlanes<Result>(
        _ buffer: FrameBuffer, writable: Bool, _ body: (YUVPlanes) throws -> Result
    ) rethrows -> Result? {
        try withMappedPlanes(buffer.buffer, writable: writable, body)
    }

    func withMappedPlanes<Result>(
        _ buffer: UnsafeMutablePointer<GstBuffer>, writable: Bool, _ body: (YUVPlanes) throws -> Result
    ) rethrows -> Result? {
        var frame = GstVideoFrame()
        let flags = writable ? GstMapFlags(GST_MAP_READ.rawValue | GST_MAP_WRITE.rawValue) : GST_MAP_READ
        guard gst_video_frame_map(&frame, &info, buffer, flags) != 0 else { return nil }
        defer { gst_video_frame_unmap(&frame) }
        return try body(planes(of: &frame))
    }

    /// The planes of a mapped frame in this format.
    func planes(of frame: inout GstVideoFrame) -> YUVPlanes {
        let luma = slx_video_frame_plane_data(&frame, 0)!
        let chroma = slx_video_frame_plane_data(&frame, 1)!
        switch layout {
        case .i420:
            return YUVPlanes(
                layout: .i420, width: width, height: height,
                lumaBase: luma, lumaStride: Int(slx_video_frame_plane_stride(&frame, 0)),
                chromaBase: chroma, chromaStride: Int(slx_video_frame_plane_stride(&frame, 1)),
                vBase: slx_video_frame_plane_data(&frame, 2), vStride: Int(slx_video_frame_plane_stride(&frame, 2)))
        case .nv12:
            return YUVPlanes(
                layout: .nv12, width: width, height: height,
                lumaBase: luma, lumaStride: Int(slx_video_frame_plane_stride(&frame, 0)),
                chromaBase: chroma, chromaStride: Int(slx_video_frame_plane_stride(&frame, 1)))
        }
    }
}
