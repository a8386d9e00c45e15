internal import CGStreamer
internal import CGStreamerShim

/// An `appsink` in a ``Pipeline``, where decoded frames leave GStreamer for Swift.
///
/// Ownership: `.borrowed` from its pipeline (the bin holds the element); keep the pipeline alive while it is used.
///
/// ## Thread Safety
/// GStreamer's appsink calls are thread-safe; the handle holds no state of its own.
package struct AppSink: @unchecked Sendable {
    let sink: UnsafeMutablePointer<GstAppSink>

    /// What ``pullFrame(currentFormat:)`` got from the sink.
    package enum PulledFrame {
        /// The sink is at end-of-stream (or flushing): nothing more will come.
        case endOfStream
        /// A sample without a buffer or caps: nothing to do with it.
        case empty
        /// The frame's caps are not raw I420/NV12 video.
        case unsupportedFormat
        /// A decoded frame: its buffer (a new reference for the caller), its format (`currentFormat` itself while
        /// the caps match it, a new ``VideoFormat`` when they changed) and its PTS in stream time.
        case frame(FrameBuffer, format: VideoFormat, streamTime: Duration?)
    }

    /// Pulls the sample the sink has ready (`gst_app_sink_pull_sample`; call it from ``AppSinkDelegate``'s
    /// `appSinkHasSample`, where one is waiting). The sample is let go before this returns: when no one else (a
    /// decoder's reference list) holds the buffer, the caller's reference is then the only one and compositing can
    /// write to it without a copy.
    package func pullFrame(currentFormat: VideoFormat?) -> PulledFrame {
        guard let sample = gst_app_sink_pull_sample(sink) else { return .endOfStream }
        defer { slx_sample_unref(sample) }
        guard let sampleBuffer = gst_sample_get_buffer(sample), let caps = gst_sample_get_caps(sample) else {
            return .empty
        }
        var format: VideoFormat
        if let currentFormat, currentFormat.matches(caps) {
            format = currentFormat
        } else {
            guard let parsed = VideoFormat(caps: caps) else { return .unsupportedFormat }
            format = parsed
        }
        let buffer = slx_buffer_ref(sampleBuffer)!
        // Stream time, as players count it: the frame at the start of the file's segment is at 0 (an MP4 with
        // B-frames starts its first frame at 80 ms and says so in its edit list).
        let streamTime = slx_sample_stream_time(sample, slx_buffer_pts(sampleBuffer))
        return .frame(FrameBuffer(buffer), format: format, streamTime: duration(fromClockTime: streamTime))
    }

    /// The sink has reached end-of-stream.
    package var isEndOfStream: Bool { gst_app_sink_is_eos(sink) != 0 }

    /// Waits up to `timeout` for a sample and lends it to `body`; nil when none came in time.
    package func withNextSample<Result, Failure: Error>(
        timeout: Duration, _ body: (DecodedSample) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard let sample = gst_app_sink_try_pull_sample(sink, clockTime(from: timeout)) else { return nil }
        defer { slx_sample_unref(sample) }
        return try body(DecodedSample(sample: sample))
    }
}

/// What an appsink tells its owner, on the sink's streaming thread.
package protocol AppSinkDelegate: AnyObject, Sendable {
    /// A sample is ready; pull it with ``AppSink/pullFrame(currentFormat:)``. Must not throw or wait on analysis.
    func appSinkHasSample(_ sink: AppSink) -> FlowResult
    /// The stream ended.
    func appSinkReachedEndOfStream()
}

extension AppSink {
    /// Installs `delegate` as the appsink's callbacks (the callback struct, not signals).
    ///
    /// Ownership: the delegate is retained (`Unmanaged.passRetained`) for as long as the appsink keeps the callbacks
    /// and released exactly once in the `GDestroyNotify`.
    package func installCallbacks(delegate: any AppSinkDelegate) {
        final class Box: @unchecked Sendable {
            let delegate: any AppSinkDelegate
            init(_ delegate: any AppSinkDelegate) { self.delegate = delegate }
        }
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { sink, userData in
            guard let sink, let userData else { return GST_FLOW_ERROR }
            let result = Unmanaged<Box>.fromOpaque(userData).takeUnretainedValue().delegate.appSinkHasSample(
                AppSink(sink: sink))
            return GstFlowReturn(rawValue: result.gstValue)
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
}
