import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Memory and CPU the process has used so far.
public enum ProcessResources {
    /// Peak resident set size (`VmHWM` in `/proc/self/status`) in MiB; nil where there is no such file.
    static func peakResidentMegabytes(statusPath: String = "/proc/self/status") -> Double? {
        guard let status = try? String(contentsOfFile: statusPath, encoding: .utf8) else { return nil }
        return peakResidentMegabytes(fromStatus: status)
    }

    /// Parses the `VmHWM:   12345 kB` line of a `/proc/<pid>/status` text.
    static func peakResidentMegabytes(fromStatus status: String) -> Double? {
        statusField("VmHWM", inStatus: status).map { Double($0) / 1024 }
    }

    /// The number of a `/proc/<pid>/status` line (`TracerPid:\t0`, `RssFile:\t   1904 kB`: kB for sizes); nil when the
    /// text has no such line.
    public static func statusField(_ name: String, inStatus status: String) -> Int? {
        for line in status.split(separator: "\n") {
            let fields = line.split { $0 == " " || $0 == "\t" }
            if fields.count >= 2, fields[0].dropLast() == name, fields[0].last == ":" { return Int(fields[1]) }
        }
        return nil
    }

    /// User plus system CPU time of this process, in seconds.
    static func cpuSeconds() -> Double? {
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return nil }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
