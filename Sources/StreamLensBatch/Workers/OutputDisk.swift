import Foundation

/// Whether a file failed because the output folder's disk filled up. Then no other file can be written there
/// either: the batch stops with its files pending, instead of failing every remaining file in turn.
public enum OutputDisk {
    /// Below this many free bytes the folder counts as full: no run writes its video, report and events into less.
    static let reserve: UInt64 = 1 << 20

    /// Why the output folder is full, or nil: the words of the failed run's last error line (or a catalog error)
    /// that say so (the system's "No space left on device" or "Disk quota exceeded", GStreamer's "No space left on
    /// the resource", SQLite's "database or disk is full"), else the folder's free space when under ``reserve``.
    public static func fullness(of folder: String, lastErrorLine: String?) -> String? {
        if let line = lastErrorLine {
            let sayings = [
                String(cString: strerror(ENOSPC)), String(cString: strerror(EDQUOT)), "No space left", "database or disk is full",
            ]
            if let saying = sayings.first(where: { line.contains($0) }) { return saying }
        }
        var status = statvfs()
        guard statvfs(folder, &status) == 0 else { return nil }
        let free = UInt64(status.f_bavail) * UInt64(status.f_frsize)
        return free < reserve ? "\(free / 1024) KiB free" : nil
    }
}
