internal import CGStreamer

/// The `GstFlowReturn` values StreamLens elements return from `transform_ip` or see come back from a push.
public enum FlowResult: Sendable, Equatable {
    case ok
    /// Downstream is flushing (a seek or a state change to READY).
    case flushing
    case endOfStream
    case notNegotiated
    case error
    /// Any other value (custom or rarely used ones), with GStreamer's number.
    case other(Int32)

    /// The `GstFlowReturn` number, for the plugin's C layer.
    public var gstValue: Int32 {
        switch self {
        case .ok: GST_FLOW_OK.rawValue
        case .flushing: GST_FLOW_FLUSHING.rawValue
        case .endOfStream: GST_FLOW_EOS.rawValue
        case .notNegotiated: GST_FLOW_NOT_NEGOTIATED.rawValue
        case .error: GST_FLOW_ERROR.rawValue
        case .other(let value): value
        }
    }

    /// Reads a `GstFlowReturn` number from the plugin's C layer.
    public init(gstValue: Int32) {
        switch gstValue {
        case GST_FLOW_OK.rawValue: self = .ok
        case GST_FLOW_FLUSHING.rawValue: self = .flushing
        case GST_FLOW_EOS.rawValue: self = .endOfStream
        case GST_FLOW_NOT_NEGOTIATED.rawValue: self = .notNegotiated
        case GST_FLOW_ERROR.rawValue: self = .error
        default: self = .other(gstValue)
        }
    }
}
