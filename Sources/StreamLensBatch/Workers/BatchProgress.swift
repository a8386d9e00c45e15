import Foundation

/// The batch's progress line on stderr: files done of the total, frames per second over the files finished in this
/// run, and the time left at that pace. Redrawn in place on a terminal, one line per finished file otherwise.
///
/// ## Thread Safety
/// An actor; `note` only writes one line to stderr.
public actor BatchProgress {
    private let total: Int
    private var finished: Int
    private var failed: Int
    private var framesThisRun = 0
    private var filesThisRun = 0
    private let started = ContinuousClock.now
    private let enabled: Bool
    private let terminal = isatty(STDERR_FILENO) == 1

    /// `alreadyFinished`: files done or failed before this run started (they count as done in the line).
    public init(total: Int, alreadyFinished: Int, alreadyFailed: Int, enabled: Bool) {
        self.total = total
        finished = alreadyFinished
        failed = alreadyFailed
        self.enabled = enabled
    }

    func finished(file: String, frames: Int, failed fileFailed: Bool) {
        finished += 1
        filesThisRun += 1
        framesThisRun += frames
        if fileFailed { failed += 1 }
        guard enabled else { return }
        let text = (terminal ? "\r\u{1B}[K" : "") + line + (terminal ? "" : "\n")
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    /// The progress line, e.g. `batch: 4/6 files (1 failed) · 812 frames/s · ETA 0:42`.
    var line: String {
        let elapsed = (ContinuousClock.now - started).seconds
        let framesPerSecond = elapsed > 0 ? Double(framesThisRun) / elapsed : 0
        var text = "batch: \(finished)/\(total) files"
        if failed > 0 { text += " (\(failed) failed)" }
        text += " · \(Int(framesPerSecond.rounded())) frames/s"
        if filesThisRun > 0, finished < total {
            let left = elapsed / Double(filesThisRun) * Double(total - finished)
            text += " · ETA \(Int(left) / 60):" + String(format: "%02d", Int(left) % 60)
        }
        return text
    }

    /// Files and frames finished by this run (for the summary's throughput).
    public var thisRun: (files: Int, frames: Int) { (filesThisRun, framesThisRun) }

    /// Ends the progress line (a terminal's line is left in place).
    public func end() {
        if enabled, terminal, filesThisRun > 0 { try? FileHandle.standardError.write(contentsOf: Data("\n".utf8)) }
    }

    /// A one-line notice (lost leases).
    nonisolated func note(_ message: String) {
        try? FileHandle.standardError.write(contentsOf: Data("streamlens batch: \(message)\n".utf8))
    }
}
