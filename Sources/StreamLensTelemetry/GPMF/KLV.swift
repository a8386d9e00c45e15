/// One GPMF key-length-value item (GoPro's GPMF format): an 8-byte header — FourCC key, type character, structure
/// size in bytes, repeat count (big-endian 16 bits) — then `structSize × repeat` bytes of data padded to 4 bytes.
/// Type 0 nests further items (`DEVC` devices, `STRM` streams).
struct KLV: Equatable {
    var key: String
    /// The type character (`l` int32, `S` uint16, `?` complex, 0 nested…).
    var type: UInt8
    var structSize: Int
    var repeatCount: Int
    /// The data bytes (without padding), for a non-nested item.
    var data: [UInt8]
    /// The items inside a nested one.
    var children: [KLV]

    var isNested: Bool { type == 0 }

    /// The items laid end to end in `bytes[range]`, nested ones parsed recursively.
    static func parse(_ bytes: [UInt8], in range: Range<Int>? = nil) throws(TelemetryError) -> [KLV] {
        let range = range ?? 0..<bytes.count
        var items: [KLV] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            // A payload may end in zero padding.
            if bytes.uint32(at: offset) == 0 { break }
            guard let key = bytes.fourCC(at: offset), let type = bytes.uint8(at: offset + 4),
                let structSize = bytes.uint8(at: offset + 5), let repeatCount = bytes.uint16(at: offset + 6)
            else { throw .malformedGPMF(detail: "an unreadable key at byte \(offset)") }
            let length = Int(structSize) * Int(repeatCount)
            let start = offset + 8
            guard start + length <= range.upperBound else {
                throw .malformedGPMF(detail: "'\(key)' of \(length) bytes at byte \(offset) runs past its end")
            }
            var item = KLV(
                key: key, type: type, structSize: Int(structSize), repeatCount: Int(repeatCount), data: [], children: [])
            if type == 0 {
                item.children = try parse(bytes, in: start..<start + length)
            } else {
                item.data = Array(bytes[start..<start + length])
            }
            items.append(item)
            offset = start + (length + 3) / 4 * 4
        }
        return items
    }

    /// Bytes of one value of a simple type, or nil for types read otherwise (`c`, `U`, `?`, nested).
    static func width(of type: UInt8) -> Int? {
        switch type {
        case UInt8(ascii: "b"), UInt8(ascii: "B"): 1
        case UInt8(ascii: "s"), UInt8(ascii: "S"): 2
        case UInt8(ascii: "l"), UInt8(ascii: "L"), UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "q"): 4
        case UInt8(ascii: "j"), UInt8(ascii: "J"), UInt8(ascii: "d"), UInt8(ascii: "Q"): 8
        default: nil
        }
    }

    /// One value of `type` at `offset`, as a number.
    static func value(of type: UInt8, in bytes: [UInt8], at offset: Int) -> Double? {
        switch type {
        case UInt8(ascii: "b"): bytes.uint8(at: offset).map { Double(Int8(bitPattern: $0)) }
        case UInt8(ascii: "B"): bytes.uint8(at: offset).map { Double($0) }
        case UInt8(ascii: "s"): bytes.uint16(at: offset).map { Double(Int16(bitPattern: $0)) }
        case UInt8(ascii: "S"): bytes.uint16(at: offset).map { Double($0) }
        case UInt8(ascii: "l"): bytes.uint32(at: offset).map { Double(Int32(bitPattern: $0)) }
        case UInt8(ascii: "L"): bytes.uint32(at: offset).map { Double($0) }
        case UInt8(ascii: "f"): bytes.uint32(at: offset).map { Double(Float(bitPattern: $0)) }
        case UInt8(ascii: "d"): bytes.uint64(at: offset).map { Double(bitPattern: $0) }
        case UInt8(ascii: "j"): bytes.uint64(at: offset).map { Double(Int64(bitPattern: $0)) }
        case UInt8(ascii: "J"): bytes.uint64(at: offset).map { Double($0) }
        // Fixed point: Q15.16 and Q31.32.
        case UInt8(ascii: "q"): bytes.uint32(at: offset).map { Double(Int32(bitPattern: $0)) / 65_536 }
        case UInt8(ascii: "Q"): bytes.uint64(at: offset).map { Double(Int64(bitPattern: $0)) / 4_294_967_296 }
        default: nil
        }
    }

    /// The element types of one sample: the type character repeated to fill the structure, or for a complex item
    /// (`?`) the stream's `TYPE` string.
    func elementTypes(complexType: String?) -> [UInt8]? {
        if type == UInt8(ascii: "?") {
            guard let complexType else { return nil }
            return Array(complexType.utf8)
        }
        guard let width = Self.width(of: type), width > 0, structSize % width == 0 else { return nil }
        return Array(repeating: type, count: structSize / width)
    }

    /// The samples as rows of numbers, unscaled; nil when the types cannot be read (a `TYPE` that does not fill the
    /// structure, an unknown type character).
    func rows(complexType: String? = nil) -> [[Double]]? {
        guard let types = elementTypes(complexType: complexType) else { return nil }
        let widths = types.compactMap(Self.width(of:))
        guard widths.count == types.count, widths.reduce(0, +) == structSize else { return nil }
        return (0..<repeatCount).map { sample in
            var offset = sample * structSize
            return zip(types, widths).map { type, width in
                defer { offset += width }
                return Self.value(of: type, in: data, at: offset) ?? .nan
            }
        }
    }

    /// The numbers of a small item (`SCAL`, `GPSF`, `GPSP`), all samples flattened.
    var numbers: [Double] { (rows() ?? []).flatMap { $0 } }

    /// The text of a `c` or `U` item, without trailing NULs.
    var text: String {
        String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
    }
}
