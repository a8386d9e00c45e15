internal import CGStreamer
internal import CGStreamerShim

/// A StreamLens element as its Swift logic sees it: a borrowed `GstElement` it can post messages and errors from.
///
/// Ownership: `.borrowed`. The element owns its logic and frees it in `finalize`, so the pointer is valid for the
/// logic's whole life; the handle never adds or drops a reference.
///
/// ## Thread Safety
/// Posting messages is thread-safe in GStreamer (the bus serializes); the handle holds no mutable state.
public struct ElementHandle: @unchecked Sendable {
    let element: UnsafeMutablePointer<GstElement>

    /// Wraps the `GstElement *` the plugin's C layer passed in (borrowed).
    public init(borrowing raw: UnsafeMutableRawPointer) {
        element = raw.assumingMemoryBound(to: GstElement.self)
    }

    /// The element's name (`streamlensdetect0`, or the `name=` given in a pipeline description).
    public var name: String {
        slx_object_name(UnsafeMutableRawPointer(element)).map { String(cString: $0) } ?? "streamlens"
    }

    /// The default of the element's property `name`, from its GParamSpec; nil for no such property.
    public func defaultValue(of name: String) -> PropertyValue? {
        guard let klass = slx_object_class(UnsafeMutableRawPointer(element)),
            let spec = g_object_class_find_property(klass, name),
            let value = g_param_spec_get_default_value(spec)
        else { return nil }
        return PropertyValue(gValue: UnsafeRawPointer(value))
    }

    /// Posts an element message (`GST_MESSAGE_ELEMENT`) whose structure is `name` with `fields`; applications read
    /// it from the bus (`gst-launch-1.0 -m` prints it).
    public func postMessage(named name: String, fields: [StructureField]) {
        let structure = fields.makeStructure(named: name)
        // gst_message_new_element takes the structure; gst_element_post_message takes the message.
        guard let message = gst_message_new_element(gcast(element), structure) else { return }
        _ = gst_element_post_message(element, message)
    }

    /// What kind of failure an error or warning reports (its GStreamer error domain and code).
    public enum Problem: Sendable {
        /// A property value is wrong (`GST_LIBRARY_ERROR_SETTINGS`).
        case settings
        /// A file the element needs is missing or unreadable (`GST_RESOURCE_ERROR_NOT_FOUND`).
        case notFound
        /// A file the element writes cannot be written (`GST_RESOURCE_ERROR_OPEN_WRITE`).
        case cannotWrite
        /// Something else failed while streaming (`GST_STREAM_ERROR_FAILED`).
        case failed
    }

    /// Posts an ERROR message, as `GST_ELEMENT_ERROR` does: the pipeline stops, the application shows `text`.
    public func postError(_ problem: Problem, _ text: String, debug: String? = nil, function: String = #function, line: Int = #line) {
        post(GST_MESSAGE_ERROR, problem, text, debug: debug, function: function, line: line)
    }

    /// Posts a WARNING message, as `GST_ELEMENT_WARNING` does: the pipeline goes on.
    public func postWarning(_ problem: Problem, _ text: String, debug: String? = nil, function: String = #function, line: Int = #line) {
        post(GST_MESSAGE_WARNING, problem, text, debug: debug, function: function, line: line)
    }

    private func post(_ type: GstMessageType, _ problem: Problem, _ text: String, debug: String?, function: String, line: Int) {
        let (domain, code): (GQuark, Int32) = switch problem {
        case .settings: (gst_library_error_quark(), Int32(GST_LIBRARY_ERROR_SETTINGS.rawValue))
        case .notFound: (gst_resource_error_quark(), Int32(GST_RESOURCE_ERROR_NOT_FOUND.rawValue))
        case .cannotWrite: (gst_resource_error_quark(), Int32(GST_RESOURCE_ERROR_OPEN_WRITE.rawValue))
        case .failed: (gst_stream_error_quark(), Int32(GST_STREAM_ERROR_FAILED.rawValue))
        }
        // gst_element_message_full takes both strings (transfer full).
        gst_element_message_full(
            element, type, domain, code, g_strdup(text), debug.map { g_strdup($0) } ?? nil, "StreamLensGstPlugin",
            function, gint(line))
    }

    /// Logs `text` through GLib's `g_warning` (what GObject does for a bad property value): printed on standard
    /// error, fatal only under `G_DEBUG=fatal-warnings`.
    public static func logWarning(_ text: String) {
        slx_log_warning(text)
    }

    /// Whether the stream arriving on the element's sink pad comes from a live source (a latency query upstream);
    /// false when nothing answers.
    public func isUpstreamLive() -> Bool {
        guard let pad = gst_element_get_static_pad(element, "sink") else { return false }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        guard let query = gst_query_new_latency() else { return false }
        defer { gst_query_unref(query) }
        guard gst_pad_peer_query(pad, query) != 0 else { return false }
        var live: gboolean = 0
        gst_query_parse_latency(query, &live, nil, nil)
        return live != 0
    }
}

extension ElementHandle {
    /// Whether the element's upstream is live, from a latency query on its sink pad's peer; nil when nobody
    /// answered (no peer yet, or nothing upstream knows). Call it on the streaming thread, where upstream is linked
    /// and answers.
    public func upstreamIsLive() -> Bool? {
        guard let pad = gst_element_get_static_pad(element, "sink") else { return nil }
        defer { gst_object_unref(pad) }
        guard let query = gst_query_new_latency() else { return nil }
        defer { gst_query_unref(query) }
        guard gst_pad_peer_query(pad, query) != 0 else { return nil }
        var live: gboolean = 0
        gst_query_parse_latency(query, &live, nil, nil)
        return live != 0
    }
}
