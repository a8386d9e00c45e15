import Foundation
import Synchronization

/// A JSON-lines event log (`--events PATH.jsonl`): one JSON object per line, flushed as written so an interrupted
/// run keeps every event it emitted.
///
/// ## Thread Safety
/// Writes are serialized by a mutex; any stage may emit from any thread.
public final class EventLog: Sendable {
    private let handle: Mutex<FileHandle?>
    private let encoder: JSONEncoder
    public let path: String?

    /// Opens (truncating) `path`; nil makes a log that discards events.
    public init(path: String?) throws {
        self.path = path
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = encoder
        guard let path else {
            handle = Mutex(nil)
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let file = FileHandle(forWritingAtPath: path)
        else {
            throw EventLogError.cannotOpen(path: path)
        }
        handle = Mutex(file)
    }

    /// Appends one event as a line.
    public func emit<Event: Encodable>(_ event: Event) {
        guard let data = try? encoder.encode(event) else { return }
        handle.withLock { file in
            guard let file else { return }
            file.write(data)
            file.write(Data([0x0A]))
        }
    }

    /// Closes the file; later events are discarded.
    public func close() {
        handle.withLock { file in
            try? file?.close()
            file = nil
        }
    }
}

/// Errors of the event log.
public enum EventLogError: Error, Sendable, CustomStringConvertible {
    /// The events file could not be created.
    case cannotOpen(path: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path):
            "cannot write events to '\(path)': check that the folder exists and is writable"
        }
    }
}
