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

    /// Classifies the text of `--input`.
    public init(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.contains("!") || Self.looksLikeElement(trimmed) {
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

    /// Checks what can be checked before GStreamer starts (the file exists and is readable).
    public func validate() throws(RunError) {
        guard case .file(let path) = self else { return }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .inputMissing(path: path)
        }
        guard !isDirectory.boolValue else { throw .inputNotAFile(path: path) }
        guard FileManager.default.isReadableFile(atPath: path) else { throw .inputUnreadable(path: path) }
    }

    /// The part of the input pipeline that produces decoded video.
    var producer: String {
        switch self {
        case .file(let path):
            // filesrc + decodebin rather than uridecodebin: the same decoders without the URI source bin's extra
            // layer (measured a few per cent cheaper on the 1080p benchmark clip).
            return "filesrc location=\(quoted(path)) ! decodebin"
        case .uri(let uri):
            return "uridecodebin uri=\(quoted(uri))"
        case .camera(let device):
            return "v4l2src device=\(quoted(device)) ! decodebin"
        case .description(let description):
            return description
        }
    }

    /// The whole input pipeline: producer → (conversion only when the decoder's format is not I420/NV12) → appsink.
    ///
    /// `videoconvert` is in passthrough (no copy, no conversion) whenever the decoder already produces I420 or NV12,
    /// which H.264/H.265/VP8/VP9/MPEG-4 decoders do.
    var pipelineDescription: String {
        "\(producer) ! videoconvert ! video/x-raw,format={ I420, NV12 } "
            + "! appsink name=\(Self.sinkName) sync=false enable-last-sample=false max-buffers=1 qos=false"
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
