internal import CGStreamer
internal import CGStreamerShim

/// What an appsink tells its owner, on the sink's streaming thread.
protocol AppSinkDelegate: AnyObject, Sendable {
    /// A sample is ready; pull it with `gst_app_sink_pull_sample`. Must not throw or wait on analysis.
    func appSinkHasSample(_ sink: UnsafeMutablePointer<GstAppSink>) -> GstFlowReturn
    /// The stream ended.
    func appSinkReachedEndOfStream()
}

/// Installs `delegate` as the appsink's callbacks (the callback struct, not signals).
///
/// Ownership: the delegate is retained (`Unmanaged.passRetained`) for as long as the appsink keeps the callbacks and
/// released exactly once in the `GDestroyNotify`.
func installCallbacks(on sink: UnsafeMutablePointer<GstAppSink>, delegate: any AppSinkDelegate) {
    final class Box: @unchecked Sendable {
        let delegate: any AppSinkDelegate
        init(_ delegate: any AppSinkDelegate) { self.delegate = delegate }
    }
    var callbacks = GstAppSinkCallbacks()
    callbacks.new_sample = { sink, userData in
        guard let sink, let userData else { return GST_FLOW_ERROR }
        return Unmanaged<Box>.fromOpaque(userData).takeUnretainedValue().delegate.appSinkHasSample(sink)
    }
    callbacks.eos = { _, userData in
        guard let userData else { return }
        Unmanaged<Box>.fromOpaque(userData).takeUnretainedValue().delegate.appSinkReachedEndOfStream()
    }
    let context = Unmanaged.passRetained(Box(delegate)).toOpaque()
    gst_app_sink_set_callbacks(sink, &callbacks, context) { userData in
        guard let userData else { return }
        Unmanaged<AnyObject>.fromOpaque(userData).release()
    }
}
