import Foundation
#if canImport(Glibc)
import Glibc
#endif
import StreamLensCore

/// A file written as `NAME.partial` in the same folder and renamed to `NAME` only once it is complete, so that a
/// failed or interrupted run never leaves a half-written file under the final name and never replaces a good file
/// with a broken one. `rename(2)` in one folder is atomic: readers see the old file or the new one, nothing between.
///
/// When `NAME` is a symlink, the target is what gets replaced (the link stays), so the partial file sits next to
/// the target.
struct PartialFile: Sendable, Equatable {
    /// The name the finished file gets (a symlink's target when `NAME` is a symlink).
    let destination: String

    /// The suffix every partial file carries (batch jobs look for it).
    static let suffix = ".partial"

    init(path: String) {
        destination = FileOnDisk.isSymlink(path) ? (FileOnDisk.realPath(path) ?? path) : path
    }

    /// Where the file is written until it is complete.
    var partialPath: String { destination + Self.suffix }

    /// Removes a partial file left by an earlier run that died (it would otherwise be appended to or mistaken for
    /// this run's output).
    func removeStale() {
        if FileOnDisk.size(of: partialPath) != nil { unlink(partialPath) }
    }

    /// Renames the partial file to its final name, replacing what was there.
    func commit() throws(RunError) {
        guard rename(partialPath, destination) == 0 else {
            throw .cannotWrite(path: destination, reason: "renaming '\(partialPath)' failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the partial file.
    func discard() {
        unlink(partialPath)
    }

    /// Settles a file written alongside a run (events, subtitles, timeline) as the run ended: renamed after a run
    /// that finished or was interrupted (its rows are all there); kept as `NAME.partial` after a run that failed
    /// partway or when writing the file failed (`writeFailure`: its rows stop there), removed after a run that failed
    /// before its first frame — so a failed run never replaces a good file. Returns the summary line for a kept
    /// file, `what` naming it ("events").
    func settle(after ending: RunEnding, what: String, writeFailure: String? = nil) -> String? {
        if let writeFailure, ending != .failedBeforeStart {
            return "\(what) kept as \(partialPath): writing it failed (\(writeFailure)), so it keeps its .partial name"
        }
        switch ending {
        case .finished:
            do { try commit() } catch { return "\(what) kept as \(partialPath): \(error)" }
            return nil
        case .stoppedPartway:
            return "\(what) kept as \(partialPath): the run did not finish, so it keeps its .partial name"
        case .failedBeforeStart:
            discard()
            return nil
        }
    }

    /// Writes `data` to the partial name and renames it (unless `keepingPartialName`): the file appears whole or not
    /// at all.
    static func write(_ data: Data, to path: String, keepingPartialName: Bool = false) throws(RunError) {
        let file = PartialFile(path: path)
        do {
            try data.write(to: URL(fileURLWithPath: file.partialPath))
        } catch {
            file.discard()
            throw .cannotWrite(
                path: path, reason: WriteFailure.reason(of: error) + "; check that the folder exists, is writable and has room")
        }
        if !keepingPartialName { try file.commit() }
    }
}

/// How a run ended, for the files written alongside it (``PartialFile/settle(after:what:)``).
enum RunEnding: Sendable, Equatable {
    /// The input ended or the run was interrupted: the files hold everything the run saw, and take their names.
    case finished
    /// The run failed after frames went through, or was interrupted with
    /// ``RunConfiguration/interruptedRunKeepsPartial``: the files hold part of it.
    case stoppedPartway
    /// The run failed (or was interrupted) before any frame went through: the files hold nothing.
    case failedBeforeStart
}
