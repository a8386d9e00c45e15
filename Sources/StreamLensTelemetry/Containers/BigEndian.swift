/// Big-endian reads from a byte array, bounds-checked: nil past the end rather than a trap, since every caller reads
/// untrusted files.
extension [UInt8] {
    func uint8(at offset: Int) -> UInt8? { offset >= 0 && offset < count ? self[offset] : nil }

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= count else { return nil }
        return UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }

    func uint32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= count else { return nil }
        var value: UInt32 = 0
        for index in offset..<offset + 4 { value = value << 8 | UInt32(self[index]) }
        return value
    }

    func uint64(at offset: Int) -> UInt64? {
        guard offset >= 0, offset + 8 <= count else { return nil }
        var value: UInt64 = 0
        for index in offset..<offset + 8 { value = value << 8 | UInt64(self[index]) }
        return value
    }

    /// Four bytes as text (`moov`, `GPS5`); nil when they are not printable ASCII.
    func fourCC(at offset: Int) -> String? {
        guard offset >= 0, offset + 4 <= count else { return nil }
        let bytes = self[offset..<offset + 4]
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
