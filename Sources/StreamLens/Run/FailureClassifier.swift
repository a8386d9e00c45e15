import StreamLensGStreamer

/// Turns a GStreamer error into the clearest ``RunError`` for the user: which input or output, what is wrong with
/// it, what to do.
struct FailureClassifier {
    let configuration: RunConfiguration

    /// Elements that open the input: uridecodebin names its source "source"; cameras and network sources keep
    /// their factory names.
    private static let sourceElements = [
        "source", "filesrc", "v4l2src", "rtspsrc", "souphttpsrc", "udpsrc", "srtsrc", "srtclientsrc", "tcpclientsrc",
    ]

    /// - Parameter framesSeen: a frame came out of the decoder before the error (the input was readable).
    func classify(_ error: GStreamerError, input: Pipeline, output: Pipeline?, framesSeen: Bool) -> RunError {
        if case .stateChangeFailed(let pipeline, _) = error {
            // The reason is usually an ERROR already on the bus.
            let bus = pipeline == "output" ? output : input
            while let message = bus?.nextMessage(timeout: .milliseconds(100)) {
                if case .error(let detailed) = message {
                    return classify(detailed, input: input, output: output, framesSeen: framesSeen)
                }
            }
        }
        guard let (source, message, debug) = error.elementFailure else { return .gstreamer(error) }
        let inputName = configuration.input.label
        if !framesSeen, readsAFile {
            // A stream nothing could be linked to: decodebin found only audio (or data) streams.
            if debug?.contains("reason not-linked") == true { return .inputHasNoVideo(input: inputName) }
            let notDecodable = message.contains("Could not determine type of stream")
                || message.contains("No decoder available") || message.contains("not-negotiated")
                || source.hasPrefix("typefind") || source.contains("decodebin")
            if notDecodable { return .inputNotVideo(input: inputName, detail: message) }
            if case .damagedData = error { return .inputDamaged(input: inputName, detail: "\(source): \(message)") }
        }
        if Self.sourceElements.contains(where: source.hasPrefix) {
            switch configuration.input {
            case .uri(let uri) where !framesSeen:
                // The network sources rarely say why a server cannot be reached: find out.
                return .inputUnavailable(input: inputName, detail: ServerProbe.unreachableReason(for: uri) ?? message)
            case .uri, .camera, .file:
                return framesSeen
                    ? .inputFailedPartway(input: inputName, detail: message)
                    : .inputUnavailable(input: inputName, detail: message)
            case .description: break
            }
        }
        if case .file(let path, _) = configuration.output, source.hasPrefix("filesink") {
            return .outputUnwritable(path: path, reason: message)
        }
        return .gstreamer(error)
    }

    /// The input is a file, whichever way it was given (path, `file://` URI).
    private var readsAFile: Bool {
        switch configuration.input {
        case .file: true
        case .uri(let uri): uri.hasPrefix("file:")
        case .camera, .description: false
        }
    }
}
