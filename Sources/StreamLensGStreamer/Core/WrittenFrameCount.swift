internal import CGStreamer
internal import CGStreamerShim
import Synchronization

/// Counts the frames that reach the output's muxer or sink, downstream of the appsrc that the frame path feeds.
///
/// A frame handed to the output is not yet written: an element that fails takes the frame it failed on and the ones
/// queued before it with it (`identity error-after=60` left 59 frames in the file while the run counted 60), and an
/// encoder stopped hard keeps the frames of its look-ahead. The count is taken where frames are still one buffer each
/// and nothing after can lose one on its own: the sink pad of the first muxer (`mp4mux`, `matroskamux`, …) or sink
/// (`fakesink`, `filesink` behind a parser, a sink bin) that the appsrc's frames reach through elements with one
/// output each. Frames that go through a payloader (RTP: several packets a frame) or a split (`tee`) are not
/// counted: ``count`` is then nil and the frames handed over stand.
///
/// ## Thread Safety
/// The probe increments an atomic on the streaming thread; ``count`` reads it from any thread.
package final class WrittenFrameCount: Sendable {
    private let frames = Atomic<Int>(0)

    /// Frames that reached the counting pad so far; nil when no such pad was found.
    package var count: Int? { isCounting ? frames.load(ordering: .relaxed) : nil }
    private let isCounting: Bool

    /// Looks downstream of `source` for the pad to count at and puts a buffer probe on it.
    init(downstreamOf source: UnsafeMutablePointer<GstAppSrc>) {
        let sourceElement = UnsafeMutableRawPointer(source).assumingMemoryBound(to: GstElement.self)
        guard let pad = Self.countingPad(downstreamOf: sourceElement) else {
            isCounting = false
            return
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        isCounting = true
        let callback: GstPadProbeCallback = { _, info, context in
            guard let info, let context else { return GST_PAD_PROBE_OK }
            let counter = Unmanaged<WrittenFrameCount>.fromOpaque(context).takeUnretainedValue()
            let isList = info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue != 0
            let added = isList ? Int(gst_buffer_list_length(OpaquePointer(info.pointee.data))) : 1
            counter.frames.add(added, ordering: .relaxed)
            return GST_PAD_PROBE_OK
        }
        // The probe keeps its own reference, released when the pad goes (GDestroyNotify).
        let context = Unmanaged.passRetained(self).toOpaque()
        let types = GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue)
        gst_pad_add_probe(pad, types, callback, context) { context in
            if let context { Unmanaged<WrittenFrameCount>.fromOpaque(context).release() }
        }
    }

    /// The sink pad of the first muxer or sink reached from `start` through elements with one source pad each (a
    /// new reference), or nil past a payloader, a split, or an unlinked pad. Read before the pipeline plays.
    private static func countingPad(downstreamOf start: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstPad>? {
        var element = start
        gst_object_ref(UnsafeMutableRawPointer(element))
        for _ in 0..<64 {
            // `element` holds a reference here.
            let peer = onlySourcePadsPeer(of: element)
            gst_object_unref(UnsafeMutableRawPointer(element))
            guard let peer else { return nil }
            guard let next = gst_pad_get_parent_element(peer) else {
                gst_object_unref(UnsafeMutableRawPointer(peer))
                return nil
            }
            let klass = slx_element_klass(next).map { String(cString: $0) } ?? ""
            if klass.contains("Muxer") || slx_element_is_sink(next) != 0 {
                gst_object_unref(UnsafeMutableRawPointer(next))
                return peer
            }
            gst_object_unref(UnsafeMutableRawPointer(peer))
            if klass.contains("Payloader") {
                gst_object_unref(UnsafeMutableRawPointer(next))
                return nil
            }
            element = next
        }
        gst_object_unref(UnsafeMutableRawPointer(element))
        return nil
    }

    /// The pad linked to `element`'s one source pad (a new reference); nil with none or several.
    private static func onlySourcePadsPeer(of element: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstPad>? {
        guard element.pointee.numsrcpads == 1, let pads = element.pointee.srcpads,
            let pad = pads.pointee.data?.assumingMemoryBound(to: GstPad.self)
        else { return nil }
        return gst_pad_get_peer(pad)
    }
}
