/// Errors of the GStreamer layer. Each reads as one line a user can act on.
public enum GStreamerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// GStreamer itself could not start.
    case initializationFailed(message: String)
    /// A pipeline description did not parse (unknown element, bad property, bad syntax).
    case invalidDescription(description: String, message: String)
    /// A named element was not found in a pipeline.
    case elementNotFound(name: String)
    /// A required element factory is not installed.
    case missingElement(factory: String, package: String)
    /// The pipeline refused to change state.
    case stateChangeFailed(pipeline: String, state: String)
    /// An element posted an ERROR message on the bus.
    case streamError(source: String, message: String, debug: String?)
    /// An element posted an ERROR because the data it reads is damaged (a GStreamer stream error while decoding,
    /// demuxing or parsing): what came before it may still have been good.
    case damagedData(source: String, message: String, debug: String?)
    /// Decoding needs a plugin that is not installed.
    case missingPlugin(detail: String)

    public var description: String {
        switch self {
        case .initializationFailed(let message):
            "GStreamer failed to initialize: \(message); check the GStreamer installation (scripts/setup.sh)"
        case .invalidDescription(let description, let message):
            "invalid pipeline description '\(description)': \(message); check element names and properties with gst-inspect-1.0"
        case .elementNotFound(let name):
            "pipeline has no element named '\(name)'"
        case .missingElement(let factory, let package):
            "GStreamer element '\(factory)' is not installed; install \(package)"
        case .stateChangeFailed(let pipeline, let state):
            "the \(pipeline) pipeline could not go to \(state); run with GST_DEBUG=3 for details"
        case .streamError(let source, let message, _), .damagedData(let source, let message, _):
            "\(source): \(message)"
        case .missingPlugin(let detail):
            "missing GStreamer plugin: \(detail); install gstreamer1.0-plugins-good, -bad, -ugly and gstreamer1.0-libav"
        }
    }

    /// The element that failed and what it said, for stream errors of either kind; nil for the others.
    public var elementFailure: (source: String, message: String, debug: String?)? {
        switch self {
        case .streamError(let source, let message, let debug), .damagedData(let source, let message, let debug):
            (source, message, debug)
        default:
            nil
        }
    }
}
