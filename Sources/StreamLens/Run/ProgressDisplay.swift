import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The progress line on standard error: redrawn in place on a terminal, silent otherwise (logs stay clean).
final class ProgressDisplay {
    private let enabled: Bool
    private var shown = false

    init(enabled: Bool) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// Replaces the line with `text`.
    func show(_ text: String) {
        guard enabled else { return }
        write("\r\u{1B}[2K" + text)
        shown = true
    }

    /// Prints `text` on its own line above the progress line.
    func printAbove(_ text: String) {
        clear()
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Removes the line.
    func clear() {
        guard shown else { return }
        write("\r\u{1B}[2K")
        shown = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
