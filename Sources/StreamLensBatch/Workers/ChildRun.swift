import Foundation
import Synchronization

/// One `streamlens run` of one file, in a child process.
///
/// Why a child process and not an in-process `RunSession` per worker: a run owns process-wide state (the SIGINT /
/// SIGTERM handlers of its graceful shutdown, the progress line on stderr, GStreamer's registry and plugin state),
/// so N of them in one process would fight over signals and output; and a file that crashes a decoder, OpenCV or
/// Tesseract would take every other worker's file down with it. A child costs one process start (≈ 0.1 s, measured:
/// docs/figures/performance.md) per file of minutes, runs exactly what `streamlens run` runs (same events, same report), and its
/// crash is one failed file.
///
/// The child gets `PR_SET_PDEATHSIG` (through util-linux `setpriv`) so that it dies with the thread that started it:
/// a batch killed with SIGKILL leaves no orphan still writing the outputs its resumed run will write again. That is
/// why each child is started and waited for on a thread of its own, which lives exactly as long as the child.
public struct ChildRun: Sendable {
    /// How a child ended.
    public enum Outcome: Sendable, Equatable {
        case exited(Int32)
        case killedBySignal(Int32)
    }

    public var executable: String
    public var arguments: [String]

    public init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// The result: how it ended and the last line it wrote to stderr.
    public struct Result: Sendable {
        public var outcome: Outcome
        public var lastErrorLine: String?
        public var processID: Int32
    }

    /// What `run` puts before its error line (the batch says which file instead).
    static let errorPrefix = "streamlens: error: "

    static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Starts the child and waits for it without holding a thread of Swift's cooperative pool. `started` hears the
    /// process id (to forward a stop signal).
    public func run(started: @escaping @Sendable (Int32) -> Void) async throws -> Result {
        let executable = executable
        let arguments = arguments
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                let process = Process()
                if let setpriv = Self.setpriv {
                    process.executableURL = URL(fileURLWithPath: setpriv)
                    process.arguments = ["--pdeathsig", "KILL", "--", executable] + arguments
                } else {
                    process.executableURL = URL(fileURLWithPath: executable)
                    process.arguments = arguments
                }
                let errors = Pipe()
                process.standardError = errors
                process.standardOutput = FileHandle.nullDevice
                process.standardInput = FileHandle.nullDevice
                do { try process.run() } catch {
                    continuation.resume(throwing: error)
                    return
                }
                started(process.processIdentifier)
                let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                let outcome: Outcome = process.terminationReason == .uncaughtSignal
                    ? .killedBySignal(process.terminationStatus) : .exited(process.terminationStatus)
                let lastLine = errorText.split(whereSeparator: \.isNewline)
                    .map { $0.replacingOccurrences(of: "\r", with: "").trimmingCharacters(in: .whitespaces) }
                    .last { !$0.isEmpty }
                    .map { $0.hasPrefix(Self.errorPrefix) ? String($0.dropFirst(Self.errorPrefix.count)) : $0 }
                continuation.resume(returning: Result(outcome: outcome, lastErrorLine: lastLine, processID: process.processIdentifier))
            }
            thread.name = "streamlens-batch-child"
            thread.start()
        }
    }
}
