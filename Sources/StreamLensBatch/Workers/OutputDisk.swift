import Foundation

/// Whether a file failed because the output folder's disk filled up. Then no other file can be written there
/// either: the batch stops with its files pending, instead of failing every remaining file in turn.
enum OutputDisk {
    /// Below this many free bytes the folder counts as full: no run writes its video, report and events into less.
    static let reserve: UInt64 = 1 << 20

    /// Why the output folder is full, or nil: the words of the failed run's last error line that say so (the
    /// system's "No space left on device" or "Disk quota exceeded", GStreamer's "No space left on the resource"),
    /// else the folder's free space when it is under ``reserve``.
    static func fullness(of folder: String, lastErrorLine: String?) -> String? {
        if let line = lastErrorLine {
            let sayings = [String(cString: strerror(ENOSPC)), String(cString: strerror(EDQUOT)), "No space left"]
            if let saying = sayings.first(where: { line.contains($0) }) { return saying }
        }
        var status = statvfs()
        guard statvfs(folder, &status) == 0 else { return nil }
        let free = UInt64(status.f_bavail) * UInt64(status.f_frsize)
        return free < reserve ? "\(free / 1024) KiB free" : nil
    }
}
