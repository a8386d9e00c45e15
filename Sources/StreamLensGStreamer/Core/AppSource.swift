internal import CGStreamer
internal import CGStreamerShim

/// An `appsrc` in a ``Pipeline``, where frames go back from Swift into GStreamer.
///
/// Ownership: `.borrowed` from its pipeline (the bin holds the element); keep the pipeline alive while it is used.
///
/// ## Thread Safety
/// GStreamer's appsrc calls are thread-safe; the handle holds no state of its own.
package struct AppSource: @unchecked Sendable {
    let source: UnsafeMutablePointer<GstAppSrc>

    /// Sets the caps the following buffers go out with (`gst_app_src_set_caps`).
    package func setCaps(of format: VideoFormat) {
        gst_app_src_set_caps(source, format.caps)
    }

    /// Hands `buffer` to the source (`gst_app_src_push_buffer`, which takes the reference); blocks while the appsrc
    /// queue is full. ``endOfStream()`` ends the appsrc's stream, which makes a blocked push return.
    package func push(_ buffer: FrameBuffer) -> FlowResult {
        FlowResult(gstValue: gst_app_src_push_buffer(source, buffer.buffer).rawValue)
    }

    /// Ends the stream (`gst_app_src_end_of_stream`): wakes a push blocked on a full queue (it returns EOS) and
    /// touches nothing downstream.
    package func endOfStream() {
        _ = gst_app_src_end_of_stream(source)
    }

    /// The most buffers the appsrc queues (`max-buffers`).
    package func setMaxBuffers(_ count: Int) {
        gst_app_src_set_max_buffers(source, guint64(count))
    }

    /// Counts the frames that reach the muxer or sink downstream (see ``WrittenFrameCount``).
    package func countWrittenFrames() -> WrittenFrameCount {
        WrittenFrameCount(downstreamOf: source)
    }
}

/// An element of a ``Pipeline`` whose properties the frame path sets while it runs (a `videobox`, a `capsfilter`).
///
/// Ownership: `.borrowed` from its pipeline.
///
/// ## Thread Safety
/// Setting a property is thread-safe in GObject.
package struct PipelineElement: @unchecked Sendable {
    let element: UnsafeMutablePointer<GstElement>

    /// Sets an int property.
    package func set(_ property: String, int value: Int) {
        slx_object_set_int(element, property, gint(value))
    }

    /// Sets a string property.
    package func set(_ property: String, string value: String) {
        slx_object_set_string(element, property, value)
    }

    /// Sets a caps property from caps in text form.
    package func set(_ property: String, capsText: String) {
        slx_object_set_caps(element, property, capsText)
    }
}

extension Pipeline {
    /// The appsink named `name`.
    package func appSink(named name: String) throws(GStreamerError) -> AppSink {
        guard let sink = slx_as_app_sink(try child(named: name)) else { throw .elementNotFound(name: name) }
        return AppSink(sink: sink)
    }

    /// The appsrc named `name`.
    package func appSource(named name: String) throws(GStreamerError) -> AppSource {
        guard let source = slx_as_app_src(try child(named: name)) else { throw .elementNotFound(name: name) }
        return AppSource(source: source)
    }

    /// The element named `name`.
    package func element(named name: String) throws(GStreamerError) -> PipelineElement {
        PipelineElement(element: try child(named: name))
    }
}

extension FlowResult {
    /// GStreamer's name for the value (`gst_flow_get_name`: "not-linked", "eos"…), for messages.
    package var name: String {
        String(cString: gst_flow_get_name(GstFlowReturn(rawValue: gstValue)))
    }
}
