internal import CGStreamer
internal import CGStreamerShim

/// The value of one GObject property of a StreamLens element, as Swift sees it.
///
/// The plugin's C layer passes `GValue` pointers through unchanged; this is where they are read and written, so the
/// element layer never touches GLib types.
public enum PropertyValue: Sendable, Equatable {
    case string(String?)
    case double(Double)
    case int(Int)
    case bool(Bool)

    /// Reads a `GValue` holding a string, double, int or boolean (borrowed, for the duration of the call); nil for
    /// any other type.
    public init?(gValue raw: UnsafeRawPointer) {
        let value = raw.assumingMemoryBound(to: GValue.self)
        switch slx_value_type(value) {
        case slx_gtype_string(): self = .string(g_value_get_string(value).map { String(cString: $0) })
        case slx_gtype_double(): self = .double(g_value_get_double(value))
        case slx_gtype_int(): self = .int(Int(g_value_get_int(value)))
        case slx_gtype_boolean(): self = .bool(g_value_get_boolean(value) != 0)
        default: return nil
        }
    }

    /// Stores the value into a `GValue` already initialised to the matching type (GObject's get_property does
    /// that); a value of another type is left untouched.
    public func store(into raw: UnsafeMutableRawPointer) {
        let value = raw.assumingMemoryBound(to: GValue.self)
        switch (self, slx_value_type(value)) {
        case (.string(let text), slx_gtype_string()): g_value_set_string(value, text)
        case (.double(let number), slx_gtype_double()): g_value_set_double(value, number)
        case (.int(let number), slx_gtype_int()): g_value_set_int(value, gint(clamping: number))
        case (.bool(let flag), slx_gtype_boolean()): g_value_set_boolean(value, flag ? 1 : 0)
        default: break
        }
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number, when this is a double or an int.
    public var doubleValue: Double? {
        switch self {
        case .double(let number): number
        case .int(let number): Double(number)
        default: nil
        }
    }

    /// The number, when this is an int.
    public var intValue: Int? {
        if case .int(let number) = self { return number }
        return nil
    }

    /// The flag, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }
}
