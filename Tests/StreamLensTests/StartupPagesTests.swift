import Foundation
import Glibc
import Synchronization
import Testing

@testable import StreamLens

/// Handing back the pages only the run's start used (``StartupPages``): a loaded object's read-only pages leave the
/// resident set and read back the same, its data is kept, and a run does it.
@Suite struct StartupPagesTests {
    @Test func readOnlyPagesLeaveTheResidentSetAndReadBackTheSame() throws {
        // The start of the test program's first segment: its headers, symbol tables and relocations, which only the
        // loader reads. Read whole, every page is mapped; after the release only those the loader reads again for a
        // lazily bound call come back.
        let segment = try #require(Self.programsFirstMapping(upTo: 1 << 20))
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: segment.start), count: segment.count)
        let checksum = Self.checksum(bytes)
        let pages = segment.count / Int(sysconf(Int32(_SC_PAGESIZE)))
        #expect(try #require(Self.mappedPages(of: segment)) == pages)

        let released = try #require(StartupPages.release())
        #expect(released.segments > 10)
        let after = try #require(Self.mappedPages(of: segment))
        #expect(after < pages / 2, "\(after) of \(pages) pages mapped again")
        #expect(Self.checksum(bytes) == checksum)
    }

    @Test func writableDataIsKept() throws {
        // Initialised data and relocated pointers (a class's metadata, a dictionary's hashing) work as before.
        Self.counter.withLock { $0 = 41 }
        let lookup = ["one": 1, "two": 2]
        _ = try #require(StartupPages.release())
        Self.counter.withLock { $0 += 1 }
        #expect(Self.counter.withLock { $0 } == 42)
        #expect(lookup["two"] == 2)
        #expect(String(describing: type(of: StartupPages.Release(segments: 0, kibibytes: 0))) == "Release")
    }

    @Test func statusLinesAreRead() {
        let status = "Name:\tstreamlens\nTracerPid:\t0\nVmRSS:\t  225000 kB\nRssFile:\t    1904 kB\n"
        let read = StartupPages.ProcessStatus(status: status)
        #expect(read?.residentFileKibibytes == 1904)
        #expect(read?.tracerPID == 0)
        #expect(StartupPages.ProcessStatus(status: "TracerPid:\t4711\n")?.tracerPID == 4711)
        #expect(StartupPages.ProcessStatus(status: "Name:\tx\n") == nil)
    }

    @Test func aRunHandsBackItsStartupPagesAndItsOutputIsWhole() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.mp4")
        let reportPath = folder.appendingPathComponent("report.json")
        // A short file: the hand-backs after preroll and as the control loop starts come with every run.
        let result = try await runTool([
            "run", "--input", "videotestsrc num-buffers=45 ! video/x-raw,width=320,height=240,framerate=30/1",
            "--output", output.path, "--report", reportPath.path, "--quiet",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: reportPath)) as? [String: Any])
        let released = try #require(report["startup_pages_released_mb"] as? Double)
        #expect(released > 1, "\(released) MiB")
        #expect(try await decode(output).frames.count == 45)
    }

    private static let counter = Mutex(0)

    /// The first mapping of the test program's own file (offset 0: its ELF headers), at most `limit` bytes of it, from
    /// /proc/self/maps.
    private static func programsFirstMapping(upTo limit: Int) -> (start: UInt, count: Int)? {
        guard let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        else { return nil }
        for line in maps.split(separator: "\n") where line.hasSuffix(" " + program) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "r--p" || fields[1] == "r-xp", fields[2] == "00000000" else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            guard bounds.count == 2 else { continue }
            return (bounds[0], min(limit, Int(bounds[1] - bounds[0])))
        }
        return nil
    }

    /// How many pages of `range` are mapped in this process (present, from /proc/self/pagemap).
    private static func mappedPages(of range: (start: UInt, count: Int)) -> Int? {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let descriptor = open("/proc/self/pagemap", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var entries = [UInt64](repeating: 0, count: range.count / pageSize)
        let wanted = entries.count * 8
        let read = entries.withUnsafeMutableBytes {
            pread(descriptor, $0.baseAddress, wanted, off_t(range.start / UInt(pageSize) * 8))
        }
        guard read == wanted else { return nil }
        return entries.filter { $0 >> 63 == 1 }.count
    }

    private static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        bytes.reduce(into: UInt64(0xcbf2_9ce4_8422_2325)) { hash, byte in hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
}
