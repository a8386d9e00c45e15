internal import CGStreamer
internal import CGStreamerShim

/// One field of a `GstStructure` an element writes (element messages, region-of-interest parameters).
public struct StructureField: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case int(Int)
        case uint64(UInt64)
        case double(Double)
        case string(String)
        case bool(Bool)
        /// A `GstValueArray` of ints (`< 1, 2, 3 >` in caps notation), e.g. a box `[x, y, w, h]`.
        case intArray([Int])
    }

    public var name: String
    public var value: Value

    public init(_ name: String, _ value: Value) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == StructureField {
    /// A new `GstStructure` named `name` holding these fields; the caller owns it (full).
    func makeStructure(named name: String) -> UnsafeMutablePointer<GstStructure> {
        let structure = gst_structure_new_empty(name)!
        for field in self { field.set(on: structure) }
        return structure
    }
}

extension StructureField {
    /// Sets this field on `structure` (borrowed).
    func set(on structure: UnsafeMutablePointer<GstStructure>) {
        var value = GValue()
        switch self.value {
        case .int(let number):
            g_value_init(&value, slx_gtype_int())
            g_value_set_int(&value, gint(clamping: number))
        case .uint64(let number):
            g_value_init(&value, slx_gtype_uint64())
            g_value_set_uint64(&value, guint64(number))
        case .double(let number):
            g_value_init(&value, slx_gtype_double())
            g_value_set_double(&value, number)
        case .string(let text):
            g_value_init(&value, slx_gtype_string())
            g_value_set_string(&value, text)
        case .bool(let flag):
            g_value_init(&value, slx_gtype_boolean())
            g_value_set_boolean(&value, flag ? 1 : 0)
        case .intArray(let numbers):
            g_value_init(&value, gst_value_array_get_type())
            for number in numbers {
                var element = GValue()
                g_value_init(&element, slx_gtype_int())
                g_value_set_int(&element, gint(clamping: number))
                // Takes ownership of the element's contents.
                gst_value_array_append_and_take_value(&value, &element)
            }
        }
        // Takes ownership of the value's contents.
        gst_structure_take_value(structure, name, &value)
    }
}

/// Reads typed fields of a borrowed `GstStructure`.
struct StructureReader {
    let structure: UnsafePointer<GstStructure>

    func double(_ field: String) -> Double? {
        var value: gdouble = 0
        return gst_structure_get_double(structure, field, &value) != 0 ? value : nil
    }

    func int(_ field: String) -> Int? {
        var value: gint = 0
        return gst_structure_get_int(structure, field, &value) != 0 ? Int(value) : nil
    }

    func string(_ field: String) -> String? {
        gst_structure_get_string(structure, field).map { String(cString: $0) }
    }
}
