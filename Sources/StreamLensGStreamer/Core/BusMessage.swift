internal import CGStreamer
internal import CGStreamerShim

/// The bus messages StreamLens acts on, as Swift values (the GstMessage is freed by the caller).
public enum BusMessage: Sendable, Equatable {
    /// The whole pipeline reached end-of-stream.
    case endOfStream
    /// An element failed; the run cannot go on.
    case error(GStreamerError)
    /// An element warned; the run goes on.
    case warning(source: String, message: String)
    /// An element skipped data it could not decode, demux or parse (a stream-error warning, e.g. a decoder
    /// concealing a damaged frame); the run goes on.
    case dataWarning(source: String, message: String)
    /// A sink dropped (or processed) buffers for lateness: `dropped` and `processed` are the element's totals.
    case qualityOfService(source: String, processed: UInt64, dropped: UInt64, jitter: Duration)
    /// Decoding needs a plugin that is not installed (`missing-plugin` element message).
    case missingPlugin(detail: String)
    /// Latency changed; the application should recalculate it.
    case latencyChanged
    /// Anything else.
    case other

    init(_ message: UnsafeMutablePointer<GstMessage>, pipeline: UnsafeMutablePointer<GstElement>) {
        let source = slx_message_source_name(message).map { String(cString: $0) } ?? "pipeline"
        switch slx_message_type(message) {
        case GST_MESSAGE_EOS:
            self = .endOfStream
        case GST_MESSAGE_ERROR:
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            gst_message_parse_error(message, &error, &debug)
            let debugText = debug.map { String(cString: $0) }
            g_free(debug)
            let damaged = Self.isDamagedData(error)
            let text = takeMessage(error)
            self = .error(
                damaged
                    ? .damagedData(source: source, message: text, debug: debugText)
                    : .streamError(source: source, message: text, debug: debugText))
        case GST_MESSAGE_WARNING:
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            gst_message_parse_warning(message, &error, &debug)
            g_free(debug)
            let damaged = Self.isDamagedData(error)
            let text = takeMessage(error)
            self = damaged ? .dataWarning(source: source, message: text) : .warning(source: source, message: text)
        case GST_MESSAGE_QOS:
            var format = GST_FORMAT_UNDEFINED
            var processed: guint64 = 0
            var dropped: guint64 = 0
            gst_message_parse_qos_stats(message, &format, &processed, &dropped)
            var jitter: gint64 = 0
            var proportion: gdouble = 0
            var quality: gint = 0
            gst_message_parse_qos_values(message, &jitter, &proportion, &quality)
            self = .qualityOfService(source: source, processed: UInt64(processed), dropped: UInt64(dropped), jitter: .nanoseconds(jitter))
        case GST_MESSAGE_ELEMENT:
            if gst_is_missing_plugin_message(message) != 0 {
                let detail = gst_missing_plugin_message_get_description(message)
                defer { g_free(detail) }
                self = .missingPlugin(detail: detail.map { String(cString: $0) } ?? "unknown")
            } else {
                self = .other
            }
        case GST_MESSAGE_LATENCY:
            self = .latencyChanged
        default:
            self = .other
        }
    }

    /// A GStreamer stream error (or warning) about the data itself: it could not be decoded, demuxed or parsed.
    /// Missing decoders, unknown types, encoder and muxer failures are other codes.
    private static func isDamagedData(_ error: UnsafeMutablePointer<GError>?) -> Bool {
        guard let error, error.pointee.domain == gst_stream_error_quark() else { return false }
        let code = UInt32(bitPattern: error.pointee.code)
        return code == GST_STREAM_ERROR_DECODE.rawValue || code == GST_STREAM_ERROR_DEMUX.rawValue
            || code == GST_STREAM_ERROR_FORMAT.rawValue
    }
}
