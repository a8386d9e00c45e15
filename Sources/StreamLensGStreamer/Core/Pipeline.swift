import Foundation
import Synchronization
internal import CGStreamer
internal import CGStreamerShim

/// An owned GStreamer pipeline built from a `gst-launch`-style description.
///
/// Ownership: the pipeline adopts the floating reference from `gst_parse_launch` (`gst_object_ref_sink`), and
/// `deinit` is its only release site, after taking the pipeline to NULL.
///
/// ## Thread Safety
/// GStreamer's element and bus calls are thread-safe; the wrapper holds no mutable Swift state beyond `label`.
public final class Pipeline: @unchecked Sendable {
    /// A name for messages ("input", "output").
    public let label: String
    /// The description it was built from.
    public let pipelineDescription: String
    let element: UnsafeMutablePointer<GstElement>
    private let bus: UnsafeMutablePointer<GstBus>

    /// Parses `description` into a pipeline (`gst_parse_launch`, floating → sunk).
    public init(_ description: String, label: String) throws(GStreamerError) {
        try GStreamer.initialize()
        self.label = label
        self.pipelineDescription = description
        var error: UnsafeMutablePointer<GError>?
        let parsed = gst_parse_launch_full(description, nil, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        if let error {
            let message = takeMessage(error)
            if let parsed { gst_object_unref(UnsafeMutableRawPointer(parsed)) }
            throw .invalidDescription(description: description, message: message)
        }
        guard let parsed else { throw .invalidDescription(description: description, message: "nothing was built") }
        gst_object_ref_sink(UnsafeMutableRawPointer(parsed))
        // A description with one element yields that element, not a bin: wrap it so state and bus behave alike.
        if slx_is_bin(parsed) != 0 {
            element = parsed
        } else {
            let pipeline = gst_pipeline_new(label)!
            gst_object_ref_sink(UnsafeMutableRawPointer(pipeline))
            gst_bin_add(gcast(pipeline), parsed)
            gst_object_unref(UnsafeMutableRawPointer(parsed))
            element = pipeline
        }
        bus = gst_element_get_bus(element)
    }

    deinit {
        gst_element_set_state(element, GST_STATE_NULL)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        gst_object_unref(UnsafeMutableRawPointer(element))
    }

    /// The result of asking the pipeline to change state.
    public enum StateChange: Sendable, Equatable {
        case success
        case async
        /// Succeeded, but the pipeline is live: it produces data only in PLAYING and never prerolls.
        case noPreroll
    }

    public enum State: String, Sendable {
        case null, ready, paused, playing
        var gstState: GstState {
            switch self {
            case .null: GST_STATE_NULL
            case .ready: GST_STATE_READY
            case .paused: GST_STATE_PAUSED
            case .playing: GST_STATE_PLAYING
            }
        }
    }

    /// Requests a state; throws when GStreamer says FAILURE (the bus usually holds the reason as an ERROR).
    @discardableResult
    public func setState(_ state: State) throws(GStreamerError) -> StateChange {
        switch gst_element_set_state(element, state.gstState) {
        case GST_STATE_CHANGE_FAILURE: throw .stateChangeFailed(pipeline: label, state: state.rawValue.uppercased())
        case GST_STATE_CHANGE_ASYNC: return .async
        case GST_STATE_CHANGE_NO_PREROLL: return .noPreroll
        default: return .success
        }
    }

    /// Requests a state without letting a stuck element hold the caller: the change runs on a thread of its own and
    /// the caller waits at most `limit`. Returns the outcome, `nil` when the change did not return in time (it goes
    /// on in the background; the pipeline stays alive until it returns). Throws like ``setState(_:)``.
    ///
    /// Going to NULL or READY joins the streaming threads, which never return if an element is blocked in a system
    /// call (a sink writing to a pipe nobody reads): this is the way out for those. `stopWaiting`, asked every 50 ms,
    /// ends the wait early (an interrupt), with `nil` as for a timeout.
    @discardableResult
    public func setState(
        _ state: State, within limit: Duration, stopWaiting: () -> Bool = { false }
    ) throws(GStreamerError) -> StateChange? {
        let result = Mutex<GstStateChangeReturn?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            let change = gst_element_set_state(element, state.gstState)
            result.withLock { $0 = change }
            done.signal()
        }
        thread.name = "streamlens-state-\(label)"
        thread.start()
        let deadline = DispatchTime.now() + .nanoseconds(Int(limit.nanoseconds))
        while done.wait(timeout: min(deadline, .now() + .milliseconds(50))) != .success {
            if DispatchTime.now() >= deadline || stopWaiting() { return nil }
        }
        switch result.withLock({ $0 }) {
        case GST_STATE_CHANGE_FAILURE: throw .stateChangeFailed(pipeline: label, state: state.rawValue.uppercased())
        case GST_STATE_CHANGE_ASYNC: return .async
        case GST_STATE_CHANGE_NO_PREROLL: return .noPreroll
        default: return .success
        }
    }

    /// Waits up to `timeout` for a pending asynchronous state change; returns the outcome.
    public func waitForState(timeout: Duration) -> StateChange? {
        var current = GST_STATE_VOID_PENDING
        var pending = GST_STATE_VOID_PENDING
        switch gst_element_get_state(element, &current, &pending, clockTime(from: timeout)) {
        case GST_STATE_CHANGE_SUCCESS: return .success
        case GST_STATE_CHANGE_NO_PREROLL: return .noPreroll
        case GST_STATE_CHANGE_ASYNC: return .async
        default: return nil
        }
    }

    /// Sends end-of-stream into the pipeline (to its sources), so that every element drains and muxers finalize.
    public func sendEndOfStream() {
        _ = gst_element_send_event(element, gst_event_new_eos())
    }

    /// Waits up to `timeout` for the next bus message of interest; nil on timeout.
    public func nextMessage(timeout: Duration) -> BusMessage? {
        let types = GstMessageType(
            GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_WARNING.rawValue
                | GST_MESSAGE_QOS.rawValue | GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_LATENCY.rawValue)
        guard let message = gst_bus_timed_pop_filtered(bus, clockTime(from: timeout), types) else { return nil }
        defer { slx_message_unref(message) }
        return BusMessage(message, pipeline: element)
    }

    /// Makes this pipeline run on `other`'s clock and base time, so that both see the same running time (used for
    /// a live input and its output pipeline).
    public func shareClockAndBaseTime(with other: Pipeline) {
        if let timeline = other.timeline { adopt(timeline) }
    }

    /// The clock and base time running time is measured against; nil before the pipeline has a clock (PLAYING).
    public var timeline: PipelineTimeline? {
        guard let clock = gst_pipeline_get_clock(gcast(element)) else { return nil }
        return PipelineTimeline(clock: clock, baseTime: gst_element_get_base_time(element))
    }

    /// Runs this pipeline on `timeline` (before PLAYING): its running time continues that of the pipeline the
    /// timeline came from. A reopened live input keeps its timestamps on the line of the one it replaces.
    public func adopt(_ timeline: PipelineTimeline) {
        gst_pipeline_use_clock(gcast(element), timeline.clock)
        // Without a start time the pipeline keeps the base time it is given instead of taking a new one.
        gst_element_set_start_time(element, slx_clock_time_none())
        gst_element_set_base_time(element, timeline.baseTime)
    }

    /// The element named `name` (borrowed by the returned wrapper for the pipeline's lifetime).
    func child(named name: String) throws(GStreamerError) -> UnsafeMutablePointer<GstElement> {
        guard let child = gst_bin_get_by_name(gcast(element), name) else { throw .elementNotFound(name: name) }
        // The bin keeps its own reference for as long as the pipeline lives.
        gst_object_unref(UnsafeMutableRawPointer(child))
        return child
    }
}

extension Pipeline {
    /// Recomputes and redistributes the pipeline latency after a LATENCY message.
    public func recalculateLatency() {
        _ = gst_bin_recalculate_latency(gcast(element))
    }
}

extension Pipeline {
    /// The media duration, when the pipeline knows it (files); nil for live and unknown-length sources.
    public func queryDuration() -> Duration? {
        var nanoseconds: gint64 = -1
        guard gst_element_query_duration(element, GST_FORMAT_TIME, &nanoseconds) != 0, nanoseconds > 0 else { return nil }
        return .nanoseconds(nanoseconds)
    }
}

extension Pipeline {
    /// Buffers a sink named `sinkName` has rendered so far (its `stats` property), for checks and tests.
    public func renderedFrames(sinkName: String) -> Int {
        guard let sink = try? child(named: sinkName) else { return 0 }
        guard let stats = slx_object_get_structure(UnsafeMutableRawPointer(sink), "stats") else { return 0 }
        defer { gst_structure_free(stats) }
        var rendered: guint64 = 0
        _ = gst_structure_get_uint64(stats, "rendered", &rendered)
        return Int(rendered)
    }
}

extension Pipeline {
    /// Buffers the pipeline's sink elements have rendered so far: grows while an output still writes, whatever its
    /// elements (a slow encoder draining its look-ahead after the last frame).
    public func renderedBuffersInSinks() -> Int {
        guard let iterator = gst_bin_iterate_sinks(gcast(element)) else { return 0 }
        defer { gst_iterator_free(iterator) }
        var total = 0
        var item = GValue()
        while gst_iterator_next(iterator, &item) == GST_ITERATOR_OK {
            if let sink = g_value_get_object(&item), slx_object_has_property(sink, "stats") != 0,
                let stats = slx_object_get_structure(sink, "stats")
            {
                var rendered: guint64 = 0
                _ = gst_structure_get_uint64(stats, "rendered", &rendered)
                gst_structure_free(stats)
                total += Int(rendered)
            }
            g_value_reset(&item)
        }
        g_value_unset(&item)
        return total
    }
}

extension Pipeline {
    /// The raw-video format negotiated on the input of the element named `elementName`, once data has flowed to it
    /// (after preroll for files); nil before, or when it is not I420/NV12.
    public func negotiatedFormat(atInputOf elementName: String) -> VideoFormat? {
        guard let element = try? child(named: elementName), let pad = gst_element_get_static_pad(element, "sink") else {
            return nil
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        guard let caps = gst_pad_get_current_caps(pad) else { return nil }
        defer { slx_caps_unref(caps) }
        return VideoFormat(caps: caps)
    }
}

/// A pipeline's clock and base time (see ``Pipeline/timeline``).
///
/// Ownership: holds a reference to the clock (`.full`, from `gst_pipeline_get_clock`), released in `deinit`.
///
/// ## Thread Safety
/// Immutable; GStreamer clocks are thread-safe.
public final class PipelineTimeline: @unchecked Sendable {
    let clock: UnsafeMutablePointer<GstClock>
    let baseTime: GstClockTime

    init(clock: UnsafeMutablePointer<GstClock>, baseTime: GstClockTime) {
        self.clock = clock
        self.baseTime = baseTime
    }

    deinit { gst_object_unref(UnsafeMutableRawPointer(clock)) }
}
