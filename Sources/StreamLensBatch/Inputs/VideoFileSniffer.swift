import Foundation

/// Tells video files in a folder apart from everything else (reports, thumbnails, logs a dashcam writes beside its
/// recordings): by extension, and for any other name by the container's signature in the first bytes.
enum VideoFileSniffer {
    static let videoExtensions: Set<String> = [
        "mp4", "m4v", "mov", "mkv", "webm", "avi", "ts", "mts", "m2ts", "flv", "wmv", "asf", "mpg", "mpeg", "3gp", "ogv",
    ]

    /// Files the batch itself writes (a batch's output folder may sit inside its input folder).
    static let ownSuffixes = [".partial", ".report.json", ".events.jsonl", ".vtt", ".sqlite", ".sqlite-journal",
                              ".sqlite-wal", ".sqlite-shm"]

    static func isVideo(path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        if ownSuffixes.contains(where: name.hasSuffix) { return false }
        let ext = (name as NSString).pathExtension.lowercased()
        if videoExtensions.contains(ext) { return true }
        if ["json", "jsonl", "txt", "csv", "html", "jpg", "jpeg", "png", "gif", "log", "yaml", "yml"].contains(ext) {
            return false
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 16), head.count >= 12 else { return false }
        return hasVideoSignature(Array(head))
    }

    /// ISO BMFF (`ftyp` at 4: mp4, mov, 3gp), EBML (mkv, webm), RIFF AVI, FLV, ASF.
    static func hasVideoSignature(_ head: [UInt8]) -> Bool {
        if Array(head[4..<8]) == Array("ftyp".utf8) { return true }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return true }
        if head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("AVI ".utf8) { return true }
        if head.starts(with: Array("FLV".utf8)) { return true }
        if head.starts(with: [0x30, 0x26, 0xB2, 0x75]) { return true }
        return false
    }
}
