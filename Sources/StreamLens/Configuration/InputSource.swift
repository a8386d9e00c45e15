import Foundation

/// Where frames come from, as the user gave it in `--input` or `source.input`.
public enum InputSource: Sendable, Equatable {
    /// A media file (anything `decodebin` plays) or a still image.
    case file(path: String)
    /// A URI: `file://`, `rtsp://`, `http(s)://`…
    case uri(String)
    /// A V4L2 camera device, `/dev/videoN`.
    case camera(device: String)
    /// A GStreamer source description ending in raw video, e.g.
    /// `videotestsrc is-live=true ! video/x-raw,width=1280,height=720,framerate=30/1`.
    case description(String)

    /// Name of the appsink that hands frames to StreamLens.
    static let sinkName = "streamlens_sink"

    /// Classifies the text of `--input`. A file that exists under that name is that file, whatever its name holds
    /// (a recording named `a ! b.mp4` was taken for a pipeline description, in a batch too).
    public init(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !text.hasPrefix("/dev/video"), FileManager.default.fileExists(atPath: text) {
            self = .file(path: text)
        } else if trimmed.contains("!") || Self.looksLikeElement(trimmed) {
            self = .description(trimmed)
        } else if trimmed.hasPrefix("/dev/video") {
            self = .camera(device: trimmed)
        } else if trimmed.contains("://") {
            self = .uri(trimmed)
        } else {
            self = .file(path: trimmed)
        }
    }

    /// A lone element name with properties, like `videotestsrc num-buffers=10` (no path separators, no dot-extension).
    private static func looksLikeElement(_ text: String) -> Bool {
        guard let first = text.split(separator: " ").first else { return false }
        return text.contains("=") && !first.contains("/") && !first.contains(".")
    }

    /// Checks what can be checked before GStreamer starts: the file exists, is a regular file (a FIFO would block
    /// the reader until someone writes to it) and is readable.
    public func validate() throws(RunError) {
        guard case .file(let path) = self else { return }
        guard FileManager.default.fileExists(atPath: path) else { throw .inputMissing(path: path) }
        if let kind = FileOnDisk.nonRegularKind(at: path) { throw .inputNotAFile(path: path, kind: kind) }
        guard FileManager.default.isReadableFile(atPath: path) else { throw .inputUnreadable(path: path) }
        if FileOnDisk.size(of: path) == 0 { throw .inputEmpty(path: path) }
    }

    /// A source reached over the network (rtsp, http, udp/rtp, srt, rist, tcp), by URI scheme or by its source element.
    public var isNetwork: Bool { networkKind != nil }

    /// A source that may come back after it is lost: network sources and cameras. Live runs reopen these by
    /// default (`--reconnect`).
    public var mayReconnect: Bool {
        if case .camera = self { return true }
        return isNetwork
    }

    /// Whether the source will most likely report itself live, for a run that ends before it could say (a camera
    /// that is not there): cameras and network streams, but not HTTP, which mostly serves files.
    var isExpectedLive: Bool {
        if case .camera = self { return true }
        if case .uri(let uri) = self, uri.lowercased().hasPrefix("http") { return false }
        return isNetwork
    }

    /// A connected source (rtsp, http, srt, tcp) whose silence means the connection is gone: the runner reopens it
    /// after a few seconds without data. Datagram sources (udp/rtp) are silent when the sender pauses; reopening
    /// them would not help.
    public var silenceMeansLost: Bool { networkKind == .connected }

    private enum NetworkKind { case connected, datagram }

    private var networkKind: NetworkKind? {
        let connected = ["rtsp", "rtsps", "rtspt", "rtspu", "http", "https", "srt", "rist", "tcp"]
        let datagram = ["udp", "rtp"]
        switch self {
        case .uri(let uri):
            let scheme = uri.split(separator: ":").first.map { $0.lowercased() } ?? ""
            if connected.contains(scheme) { return .connected }
            if datagram.contains(scheme) { return .datagram }
            return nil
        case .description(let description):
            let elements = description.split(whereSeparator: { $0 == "!" || $0.isWhitespace }).map(String.init)
            if elements.contains(where: { ["rtspsrc", "souphttpsrc", "srtsrc", "srtclientsrc", "tcpclientsrc", "ristsrc"].contains($0) }) {
                return .connected
            }
            if elements.contains(where: { ["udpsrc", "rtpsrc"].contains($0) }) { return .datagram }
            return nil
        case .file, .camera:
            return nil
        }
    }

    /// Extensions of still-image files (one-frame inputs). Not GIF: it may be animated.
    static let stillImageExtensions: Set<String> = ["png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp", "pnm", "ppm"]

    /// The part of the input pipeline that produces decoded video.
    var producer: String {
        switch self {
        case .file(let path):
            // filesrc + decodebin rather than uridecodebin: the same decoders without the URI source bin's extra
            // layer (measured a few per cent cheaper on the 1080p benchmark clip).
            // A still image decodes to one frame with no rate and no duration, which MP4 and Matroska muxers write
            // as a video of length 0; imagefreeze gives it 25 fps and one frame's duration.
            let still = Self.stillImageExtensions.contains((path as NSString).pathExtension.lowercased())
            return "filesrc location=\(quoted(path)) ! decodebin" + (still ? " ! imagefreeze num-buffers=1" : "")
        case .uri(let uri):
            return "uridecodebin uri=\(quoted(uri))"
        case .camera(let device):
            return "v4l2src device=\(quoted(device)) ! decodebin"
        case .description(let description):
            return description
        }
    }

    /// The whole input pipeline: producer → (conversion only when the decoder's format is not I420/NV12) →
    /// (rotation only when the stream says it is rotated) → appsink.
    ///
    /// `videoconvert` is in passthrough (no copy, no conversion) whenever the decoder already produces I420 or NV12,
    /// which H.264/H.265/VP8/VP9/MPEG-4 decoders do; 10-bit, 4:2:2 and 4:4:4 decoders' output is converted to I420.
    /// `videoflip video-direction=auto` applies the stream's `image-orientation` tag (phone videos carry a rotation
    /// in their container) so that analysis and output see the picture upright; see ``orientation``.
    var pipelineDescription: String {
        "\(producer) ! videoconvert ! \(orientation) ! video/x-raw,format={ I420, NV12 } "
            + "! appsink name=\(Self.sinkName) sync=false enable-last-sample=false max-buffers=1 qos=false"
    }

    /// The `videoflip` that turns rotated recordings upright.
    ///
    /// For decoded files and URIs it starts with `method=horizontal-flip` before `video-direction=auto`: that is what
    /// puts it in passthrough. GStreamer 1.22's videoflip updates passthrough only when its method changes, and a
    /// fresh element asked for `auto` (or `identity`) sees no change, so it copied every frame into a buffer pool of
    /// its own, which grew with the frames held downstream (measured: 56 MiB at peak in a sync run of the 1080p
    /// dashcam job, docs/figures/performance.md). The switch from a flip to `auto` sets passthrough; an orientation tag
    /// turns it off again. Cameras and source descriptions keep the copy: a capture driver has few buffers of its
    /// own, and the copy hands each one back at once instead of holding it in the frame pool.
    var orientation: String {
        switch self {
        case .file, .uri: "videoflip method=horizontal-flip video-direction=auto"
        case .camera, .description: "videoflip video-direction=auto"
        }
    }

    /// Short text for reports.
    public var label: String {
        switch self {
        case .file(let path): path
        case .uri(let uri): uri
        case .camera(let device): device
        case .description(let description): description
        }
    }
}

/// Quotes a property value for a GStreamer pipeline description.
func quoted(_ value: String) -> String {
    "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
