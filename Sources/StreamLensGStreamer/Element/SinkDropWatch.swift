internal import CGStreamer
internal import CGStreamerShim
import Synchronization

/// Listens on an element's pipeline bus for the QoS messages sinks post when they drop late buffers, and reports
/// the total dropped — the same figure the command line takes from its output pipeline (`late_at_sink`).
///
/// It uses the bus's synchronous `sync-message::qos` signal (`gst_bus_enable_sync_message_emission`), which leaves
/// the application's own bus handling untouched. Each sink reports a running total; with several sinks (a tee),
/// the largest total counts, so a frame dropped by two branches counts once. It also says when the whole pipeline
/// reached end-of-stream (`sync-message::eos`: every sink has its last frame), so that a report can wait for the
/// drops of frames that were still queued downstream when end-of-stream passed its element.
///
/// ## Thread Safety
/// The callback runs on the posting sink's streaming thread; the per-sink totals sit behind a mutex whose critical
/// section calls no C. ``stop()`` is called once, from the state-change thread.
public final class SinkDropWatch: @unchecked Sendable {
    private let bus: UnsafeMutablePointer<GstBus>
    private var handler: gulong = 0
    private var endHandler: gulong = 0

    /// Starts listening on the bus of the pipeline `element` belongs to; nil when it has none yet.
    /// - Parameters:
    ///   - dropped: called with the new total whenever it grows.
    ///   - pipelineEnded: called once the pipeline posts end-of-stream, on the thread of the sink that got it last
    ///     and before the application sees the message (a message posted from here reaches the bus first).
    public init?(
        element: ElementHandle, dropped: @escaping @Sendable (UInt64) -> Void,
        pipelineEnded: @escaping @Sendable () -> Void = {}
    ) {
        // The top-level pipeline's bus: an element's own bus is its bin's internal one, which forwards messages
        // upwards and drops them before any sync-message signal.
        let pipeline = Self.topLevel(of: element.element)
        defer { gst_object_unref(UnsafeMutableRawPointer(pipeline)) }
        guard let bus = gst_element_get_bus(pipeline) else { return nil }
        self.bus = bus
        gst_bus_enable_sync_message_emission(bus)
        let listener = Listener(report: dropped, ended: pipelineEnded, pipeline: UInt(bitPattern: pipeline))
        let callback: @convention(c) (UnsafeMutablePointer<GstBus>?, UnsafeMutablePointer<GstMessage>?, gpointer?) -> Void = {
            _, message, context in
            guard let message, let context else { return }
            Unmanaged<Listener>.fromOpaque(context).takeUnretainedValue().heard(message)
        }
        let release: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { context, _ in
            if let context { Unmanaged<Listener>.fromOpaque(context).release() }
        }
        // Each signal holds one reference to the listener, dropped in `release` when its handler is disconnected.
        handler = g_signal_connect_data(
            UnsafeMutableRawPointer(bus), "sync-message::qos", unsafeBitCast(callback, to: GCallback.self),
            Unmanaged.passRetained(listener).toOpaque(), release, GConnectFlags(rawValue: 0))
        endHandler = g_signal_connect_data(
            UnsafeMutableRawPointer(bus), "sync-message::eos", unsafeBitCast(callback, to: GCallback.self),
            Unmanaged.passRetained(listener).toOpaque(), release, GConnectFlags(rawValue: 0))
    }

    /// The outermost bin holding `element` (or the element itself), with a reference the caller releases.
    private static func topLevel(of element: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstElement> {
        var current = UnsafeMutablePointer<GstObject>(OpaquePointer(element))
        gst_object_ref(UnsafeMutableRawPointer(current))
        while let parent = gst_object_get_parent(current) {
            gst_object_unref(UnsafeMutableRawPointer(current))
            current = parent
        }
        return UnsafeMutablePointer<GstElement>(OpaquePointer(current))
    }

    /// Stops listening and releases the bus.
    public func stop() {
        guard handler != 0 else { return }
        g_signal_handler_disconnect(UnsafeMutableRawPointer(bus), handler)
        g_signal_handler_disconnect(UnsafeMutableRawPointer(bus), endHandler)
        handler = 0
        endHandler = 0
        gst_bus_disable_sync_message_emission(bus)
        gst_object_unref(UnsafeMutableRawPointer(bus))
    }

    deinit { stop() }

    /// Keeps each sink's latest total; passes on the pipeline's end-of-stream.
    private final class Listener: Sendable {
        let report: @Sendable (UInt64) -> Void
        let ended: @Sendable () -> Void
        /// The top-level pipeline, only compared with a message's source.
        let pipeline: UInt
        let totals = Mutex<[UInt: UInt64]>([:])

        init(report: @escaping @Sendable (UInt64) -> Void, ended: @escaping @Sendable () -> Void, pipeline: UInt) {
            self.report = report
            self.ended = ended
            self.pipeline = pipeline
        }

        func heard(_ message: UnsafeMutablePointer<GstMessage>) {
            guard let source = slx_message_source(message) else { return }
            if message.pointee.type == GST_MESSAGE_EOS {
                if UInt(bitPattern: source) == pipeline { ended() }
                return
            }
            guard slx_is_base_sink(UnsafeMutableRawPointer(source)) != 0 else { return }
            var format = GST_FORMAT_UNDEFINED
            var processed: guint64 = 0
            var dropped: guint64 = 0
            gst_message_parse_qos_stats(message, &format, &processed, &dropped)
            let sink = UInt(bitPattern: source)
            let largest: UInt64? = totals.withLock { totals in
                guard UInt64(dropped) > totals[sink, default: 0] else { return nil }
                totals[sink] = UInt64(dropped)
                return totals.values.max()
            }
            if let largest { report(largest) }
        }
    }
}
