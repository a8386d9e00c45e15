import StreamLensGStreamer

/// Why a run could not start or could not finish. Each case reads as one line: what failed, where, what to do.
public enum RunError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input file does not exist.
    case inputMissing(path: String)
    /// The input path is a folder.
    case inputNotAFile(path: String)
    /// The input file exists but cannot be read.
    case inputUnreadable(path: String)
    /// The input (a URI, a camera, a network stream) could not be opened or read.
    case inputUnavailable(input: String, detail: String)
    /// The input is not something GStreamer can decode as video.
    case inputNotVideo(input: String, detail: String)
    /// The output file cannot be created.
    case outputUnwritable(path: String, reason: String)
    /// `--output` names a file whose extension StreamLens does not encode.
    case unsupportedOutputExtension(path: String, allowed: [String])
    /// A pipeline file or flag is wrong.
    case invalidConfiguration(file: String?, key: String, problem: String)
    /// A GStreamer plugin the input needs is missing.
    case missingPlugin(detail: String)
    /// A GStreamer failure (description, state change, stream error).
    case gstreamer(GStreamerError)
    /// No frame arrived before the start-up timeout.
    case noFrames(input: String, waited: Duration)
    /// A file StreamLens writes (report, events) could not be written.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .inputMissing(let path):
            "input '\(path)' does not exist; check the path"
        case .inputNotAFile(let path):
            "input '\(path)' is a folder; give a video file, a URI, /dev/videoN or a GStreamer source description"
        case .inputUnreadable(let path):
            "input '\(path)' cannot be read (permission denied); check its permissions"
        case .inputUnavailable(let input, let detail):
            "input '\(input)' could not be opened (\(detail)); check the address, that the device or server is there, and permissions"
        case .inputNotVideo(let input, let detail):
            "input '\(input)' is not a video GStreamer can decode (\(detail)); check the file or install gstreamer1.0-libav and gstreamer1.0-plugins-bad/-ugly"
        case .outputUnwritable(let path, let reason):
            "cannot write output '\(path)': \(reason); choose a writable location"
        case .unsupportedOutputExtension(let path, let allowed):
            "output '\(path)' has an unknown extension; use one of .\(allowed.joined(separator: ", .")), 'null', or a GStreamer sink description"
        case .invalidConfiguration(let file, let key, let problem):
            "\(file.map { "\($0): " } ?? "")'\(key)': \(problem)"
        case .missingPlugin(let detail):
            "missing GStreamer plugin: \(detail); install gstreamer1.0-plugins-good, -bad, -ugly and gstreamer1.0-libav (scripts/setup.sh)"
        case .gstreamer(let error):
            error.description
        case .noFrames(let input, let waited):
            "input '\(input)' produced no video frame in \(Int(waited.seconds)) s; check that it has a video stream"
        case .cannotWrite(let path, let reason):
            "cannot write '\(path)': \(reason)"
        }
    }
}
