internal import CGStreamer
internal import CGStreamerShim
import StreamLensCore

/// A sample pulled from an appsink by hand (``AppSink/withNextSample(timeout:_:)``), lent for the duration of the
/// call: its buffer's times, its caps as a raw-video description and its frame as planes.
///
/// Ownership: `.borrowed`; never stored.
package struct DecodedSample {
    private let sample: OpaquePointer

    init(sample: OpaquePointer) {
        self.sample = sample
    }

    /// The caps of a raw-video sample, as read by `gst_video_info_from_caps`.
    package struct VideoDescription {
        package var width: Int
        package var height: Int
        /// 0 when the caps state no rate (a GIF's variable delays).
        package var frameRateNumerator: Int
        package var frameRateDenominator: Int
        /// The frames are A420: I420 plus a full-resolution alpha plane.
        package var isA420: Bool
        fileprivate var info: GstVideoInfo
    }

    /// The sample has both a buffer and caps (a frame to read).
    package var hasFrame: Bool { gst_sample_get_caps(sample) != nil && gst_sample_get_buffer(sample) != nil }

    /// The buffer's presentation time; nil when it has none.
    package var pts: Duration? {
        gst_sample_get_buffer(sample).flatMap { StreamLensGStreamer.duration(fromClockTime: slx_buffer_pts($0)) }
    }

    /// The buffer's duration; nil when it has none.
    package var duration: Duration? {
        gst_sample_get_buffer(sample).flatMap { StreamLensGStreamer.duration(fromClockTime: slx_buffer_duration($0)) }
    }

    /// The frame's raw-video description; nil when the caps cannot be read as raw video.
    package var videoDescription: VideoDescription? {
        guard let caps = gst_sample_get_caps(sample) else { return nil }
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0 else { return nil }
        return VideoDescription(
            width: Int(info.width), height: Int(info.height), frameRateNumerator: Int(slx_video_info_fps_n(&info)),
            frameRateDenominator: Int(slx_video_info_fps_d(&info)),
            isA420: slx_video_info_format(&info) == GST_VIDEO_FORMAT_A420, info: info)
    }

    /// Maps the sample's A420 frame (described by `description`) for reading and lends its planes: luma, U and V at
    /// chroma resolution, alpha at full resolution. Unmaps when `body` returns; nil when the frame cannot be mapped.
    package func withMappedA420Planes<Result, Failure: Error>(
        _ description: VideoDescription,
        _ body: (_ luma: Plane, _ u: Plane, _ v: Plane, _ alpha: Plane) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard let buffer = gst_sample_get_buffer(sample) else { return nil }
        var info = description.info
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ) != 0 else { return nil }
        defer { gst_video_frame_unmap(&frame) }
        let width = description.width, height = description.height
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        func plane(_ index: UInt32, _ planeWidth: Int, _ planeHeight: Int) -> Plane {
            Plane(
                base: slx_video_frame_plane_data(&frame, index), stride: Int(slx_video_frame_plane_stride(&frame, index)),
                width: planeWidth, height: planeHeight)
        }
        // A420 planes: 0 Y, 1 U, 2 V, 3 A.
        return try body(
            plane(0, width, height), plane(1, chromaWidth, chromaHeight), plane(2, chromaWidth, chromaHeight),
            plane(3, width, height))
    }
}

extension GStreamer {
    /// The `file://` URI of a local path (`gst_filename_to_uri`, which makes a relative path absolute).
    /// Throws GLib's message when the path cannot be made a URI.
    package static func uri(forPath path: String) throws(URIFailure) -> String {
        var error: UnsafeMutablePointer<GError>?
        guard let uri = gst_filename_to_uri(path, &error) else {
            throw URIFailure(message: takeMessage(error))
        }
        defer { g_free(uri) }
        return String(cString: uri)
    }
}

/// A path that could not be made a URI, with GLib's message.
package struct URIFailure: Error {
    package let message: String
}
