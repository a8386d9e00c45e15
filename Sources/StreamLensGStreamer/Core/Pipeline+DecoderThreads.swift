internal import CGStreamer
internal import CGStreamerShim

extension Pipeline {
    /// Makes every libav video decoder (`avdec_*`) that `decodebin` (or anything else) adds to this pipeline from now
    /// on decode on `threads` threads (`max-threads`; 0 is libav's own choice, one frame thread per core). Call before
    /// the pipeline prerolls: the decoder reads the setting when it opens the codec.
    ///
    /// One thread is what a frame-accurate file run wants: libav's frame threading keeps a decoding context and
    /// reference frames per thread, about 20 MiB of peak memory at 1080p on two cores (docs/figures/performance.md),
    /// and the run's frames wait for analysis anyway. DecoderThreadTests shows the limit reaching `decodebin`'s
    /// decoder.
    ///
    /// ## Thread Safety
    /// The setting is applied on whichever thread adds the decoder (`deep-element-added` runs where the element is
    /// added, a streaming thread for `decodebin`); it touches only the new element.
    public func limitVideoDecoderThreads(to threads: Int) {
        let callback: @convention(c) (
            UnsafeMutablePointer<GstBin>?, UnsafeMutablePointer<GstBin>?, UnsafeMutablePointer<GstElement>?, gpointer?
        ) -> Void = { _, _, element, context in
            // Decoders of codecs libav cannot thread (msmpeg4, h263…) have no `max-threads`: setting it would print a
            // GLib warning on the user's terminal.
            guard let element, Pipeline.isLibavVideoDecoder(element),
                slx_object_has_property(element, "max-threads") != 0
            else { return }
            slx_object_set_int(element, "max-threads", gint(Int(bitPattern: context)))
        }
        // The thread count travels as the handler's data pointer: nothing to release.
        _ = g_signal_connect_data(
            UnsafeMutableRawPointer(element), "deep-element-added", unsafeBitCast(callback, to: GCallback.self),
            UnsafeMutableRawPointer(bitPattern: threads), nil, GConnectFlags(rawValue: 0))
    }

    /// `max-threads` of each libav video decoder in the pipeline, nested bins included (for checks and tests).
    public func videoDecoderThreads() -> [Int] {
        guard let iterator = gst_bin_iterate_recurse(gcast(element)) else { return [] }
        defer { gst_iterator_free(iterator) }
        var threads: [Int] = []
        var item = GValue()
        while gst_iterator_next(iterator, &item) == GST_ITERATOR_OK {
            if let object = g_value_get_object(&item) {
                let element = UnsafeMutablePointer<GstElement>(OpaquePointer(object))
                if Self.isLibavVideoDecoder(element), slx_object_has_property(element, "max-threads") != 0 {
                    var value = GValue()
                    g_value_init(&value, slx_gtype_int())
                    g_object_get_property(UnsafeMutablePointer(OpaquePointer(object)), "max-threads", &value)
                    threads.append(Int(g_value_get_int(&value)))
                    g_value_unset(&value)
                }
            }
            g_value_reset(&item)
        }
        g_value_unset(&item)
        return threads
    }

    /// Whether `element` was made by a libav video decoder factory (`avdec_*`, class "Codec/Decoder/Video").
    private static func isLibavVideoDecoder(_ element: UnsafeMutablePointer<GstElement>) -> Bool {
        guard let factory = gst_element_get_factory(element), let name = slx_object_name(UnsafeMutableRawPointer(factory)),
            String(cString: name).hasPrefix("avdec_"),
            let klass = gst_element_factory_get_metadata(factory, "klass")
        else { return false }
        return String(cString: klass).contains("Video")
    }
}
