internal import CLoadedCode
import Foundation
import StreamLensStats

/// Hands back the resident pages of the program's and its libraries' code that only the run's start used.
///
/// Starting a run executes and reads far more of its 230 loaded objects than running it does: the dynamic loader's
/// symbol tables, every library's initialisers, GStreamer's plugin loading, the engines' parsers (ONNX and protobuf,
/// Tesseract's tables), the argument parser — and the kernel maps up to 64 KiB of cached file around each page it
/// faults in. Those pages stay mapped, and counted in the process's resident memory, until it exits: on the 1080p
/// dashcam job 68 MiB of file pages were resident, of which the rest of the run touches about 30 (the peak memory
/// figures are in docs/figures/performance.md; StartupPagesTests shows the pages leave and read back the same).
///
/// ``release()`` unmaps (`MADV_DONTNEED`) every loaded object's read-only segments — code, constants, unwind
/// tables — never its writable ones (data, and relocated data made read-only after the loader's work), whose pages
/// are the process's own. The kernel keeps the files' pages cached, so what the run still uses comes back on its
/// next touch without a disk read (a minor fault per 64 KiB) — unless memory grows so short meanwhile that the kernel
/// reclaims them from the cache, which it would then do to pages still mapped as well. Not while a debugger is
/// attached: its breakpoints are copied pages of the code, which unmapping would throw away.
enum StartupPages {
    /// What one release unmapped.
    struct Release: Equatable, Sendable {
        /// Read-only segments unmapped.
        var segments: Int
        /// How far the process's resident file pages fell (other threads may touch pages back meanwhile).
        var kibibytes: Int
    }

    /// Unmaps the read-only segments of every loaded object; nil where nothing was released (no /proc, or a debugger
    /// attached).
    static func release() -> Release? {
        guard let status = ProcessStatus.read(), status.tracerPID == 0, let before = status.residentFileKibibytes
        else { return nil }
        let segments = Int(slcode_release_read_only_segments())
        let after = ProcessStatus.read()?.residentFileKibibytes ?? before
        return Release(segments: segments, kibibytes: max(0, before - after))
    }

    /// The lines of /proc/self/status that a release needs.
    struct ProcessStatus: Equatable {
        /// `RssFile`: resident pages mapped from files, KiB.
        var residentFileKibibytes: Int?
        /// `TracerPid`: the process tracing this one (a debugger), 0 for none.
        var tracerPID: Int

        static func read(path: String = "/proc/self/status") -> ProcessStatus? {
            (try? String(contentsOfFile: path, encoding: .utf8)).flatMap(ProcessStatus.init(status:))
        }

        /// Parses a `/proc/<pid>/status` text; nil without its `TracerPid` line.
        init?(status: String) {
            guard let tracer = ProcessResources.statusField("TracerPid", inStatus: status) else { return nil }
            residentFileKibibytes = ProcessResources.statusField("RssFile", inStatus: status)
            tracerPID = tracer
        }
    }
}
