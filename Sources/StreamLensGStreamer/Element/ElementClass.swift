internal import CGStreamer
internal import CGStreamerShim

/// The class of a StreamLens element while GObject initialises it (`class_init`): where its properties are
/// installed, from specifications the plugin builds out of the option schema.
///
/// Ownership: `.borrowed` — the class structure lives as long as the type, which is never unloaded.
///
/// ## Thread Safety
/// GObject runs `class_init` once, on the thread that first needs the type, with the type lock held.
public struct ElementClass {
    let klass: UnsafeMutablePointer<GObjectClass>

    /// Wraps the `GObjectClass *` passed to `class_init` (borrowed).
    public init(borrowing raw: UnsafeMutableRawPointer) {
        klass = raw.assumingMemoryBound(to: GObjectClass.self)
    }

    /// One property: its name, its one-line nick, its blurb (what gst-inspect prints) and its type with range and
    /// default.
    public struct PropertySpec: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case string(default: String?)
            case double(ClosedRange<Double>, default: Double)
            case int(ClosedRange<Int>, default: Int)
            case bool(default: Bool)
        }

        public let name: String
        public let nick: String
        public let blurb: String
        public let kind: Kind

        public init(name: String, nick: String, blurb: String, kind: Kind) {
            self.name = name
            self.nick = nick
            self.blurb = blurb
            self.kind = kind
        }
    }

    /// Installs `properties` with ids 1, 2, …; the element's set/get_property forward by name, so the ids only
    /// need to be distinct. Every property is read-write, set at construction, changeable up to READY, and shows its
    /// default in the docs. GLib copies the strings (the specs are not static).
    public func install(_ properties: [PropertySpec]) {
        let flags = slx_element_property_flags()
        for (index, property) in properties.enumerated() {
            let spec: UnsafeMutablePointer<GParamSpec>? = switch property.kind {
            case .string(let defaultValue):
                g_param_spec_string(property.name, property.nick, property.blurb, defaultValue, flags)
            case .double(let range, let defaultValue):
                g_param_spec_double(
                    property.name, property.nick, property.blurb, range.lowerBound, range.upperBound, defaultValue, flags)
            case .int(let range, let defaultValue):
                g_param_spec_int(
                    property.name, property.nick, property.blurb, gint(clamping: range.lowerBound),
                    gint(clamping: range.upperBound), gint(clamping: defaultValue), flags)
            case .bool(let defaultValue):
                g_param_spec_boolean(property.name, property.nick, property.blurb, defaultValue ? 1 : 0, flags)
            }
            g_object_class_install_property(klass, guint(index + 1), spec)
        }
    }
}
