internal import CGStreamer
internal import CGStreamerShim

/// Process-wide GStreamer set-up.
public enum GStreamer {
    /// Initializes GStreamer once; later calls return the first result.
    public static func initialize() throws(GStreamerError) {
        if let failure = initialization { throw failure }
    }

    private static let initialization: GStreamerError? = {
        var error: UnsafeMutablePointer<GError>?
        if gst_init_check(nil, nil, &error) == 0 {
            return .initializationFailed(message: takeMessage(error))
        }
        return nil
    }()

    /// GStreamer's version, e.g. "1.22.0".
    public static var version: String {
        guard let text = gst_version_string() else { return "unknown" }
        defer { g_free(text) }
        let full = String(cString: text)
        let prefix = "GStreamer "
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full
    }

}

/// Reads a GError's message and frees it.
func takeMessage(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return "unknown error" }
    defer { g_error_free(error) }
    return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
}

/// Nanoseconds of a GstClockTime, nil for GST_CLOCK_TIME_NONE.
func duration(fromClockTime time: GstClockTime) -> Duration? {
    time == slx_clock_time_none() ? nil : .nanoseconds(Int64(bitPattern: UInt64(time)))
}

/// GstClockTime of a duration, GST_CLOCK_TIME_NONE for nil.
func clockTime(from duration: Duration?) -> GstClockTime {
    guard let duration else { return slx_clock_time_none() }
    let (seconds, attoseconds) = duration.components
    return GstClockTime(seconds) * 1_000_000_000 + GstClockTime(attoseconds / 1_000_000_000)
}

/// Reinterprets one GObject pointer type as another (the C casts GST_ELEMENT(), GST_OBJECT(), …).
@inline(__always)
func gcast<Target>(_ pointer: UnsafeMutableRawPointer, to _: Target.Type = Target.self) -> UnsafeMutablePointer<Target> {
    pointer.assumingMemoryBound(to: Target.self)
}

@inline(__always)
func gcast<Source, Target>(_ pointer: UnsafeMutablePointer<Source>, to _: Target.Type = Target.self) -> UnsafeMutablePointer<Target> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: Target.self)
}
