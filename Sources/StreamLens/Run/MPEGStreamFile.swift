import Foundation

/// MPEG transport and program streams (`.ts`, `.m2ts`, `.mpg`) declare no duration: GStreamer estimates it from the
/// timestamps it finds, so a complete file whose timestamps jump looks longer than its frames (a QA sweep's
/// `timestamps-jump.ts`, 100 frames all decoded, was said to be "cut short" at 5.1 of 22.8 s). Their frames ending
/// early says nothing about the file.
enum MPEGStreamFile {
    /// Whether the file at `path` starts as a transport stream (a 0x47 sync byte every 188 bytes, or every 192 with
    /// M2TS's 4-byte prefix) or a program stream (a pack header, 00 00 01 BA).
    static func isMPEGStream(at path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let bytes = [UInt8]((try? handle.read(upToCount: 4 + 192 * 2 + 1)) ?? Data())
        func syncs(every stride: Int, from offset: Int) -> Bool {
            bytes.count > offset + 2 * stride && (0...2).allSatisfy { bytes[offset + $0 * stride] == 0x47 }
        }
        if syncs(every: 188, from: 0) || syncs(every: 192, from: 4) { return true }
        return bytes.starts(with: [0x00, 0x00, 0x01, 0xBA])
    }
}
