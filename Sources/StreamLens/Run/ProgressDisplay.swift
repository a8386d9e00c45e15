import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The progress line on standard error: redrawn in place on a terminal, silent otherwise (logs stay clean).
///
/// ## Thread Safety
/// A mutex serializes drawing: the control loop redraws, warnings may come from other threads.
final class ProgressDisplay: Sendable {
    private let enabled: Bool
    private let shown = Mutex(false)

    init(enabled: Bool) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// Replaces the line with `text`.
    func show(_ text: String) {
        guard enabled else { return }
        shown.withLock { shown in
            write("\r\u{1B}[2K" + text)
            shown = true
        }
    }

    /// Prints `text` on its own line above the progress line.
    func printAbove(_ text: String) {
        shown.withLock { shown in
            if shown { write("\r\u{1B}[2K") }
            shown = false
            write(text + "\n")
        }
    }

    /// Removes the line.
    func clear() {
        shown.withLock { shown in
            if shown { write("\r\u{1B}[2K") }
            shown = false
        }
    }

    private func write(_ text: String) {
        // write(contentsOf:) throws where write(_:) traps (a closed standard error must not crash the run).
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }
}
