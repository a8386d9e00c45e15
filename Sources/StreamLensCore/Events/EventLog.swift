import Foundation
import Synchronization

/// A JSON-lines event log (`--events PATH.jsonl`): one JSON object per line, flushed as written so an interrupted
/// run keeps every event it emitted. A listener, when given, also hears every event as a value (the GStreamer
/// elements turn them into bus messages).
///
/// ## Thread Safety
/// Writes are serialized by a mutex; any stage may emit from any thread. The listener is called on the emitting
/// thread, outside the mutex.
public final class EventLog: Sendable {
    /// Hears each event as it is emitted, before it is written.
    public typealias Listener = @Sendable (any Encodable) -> Void

    private let handle: Mutex<FileHandle?>
    private let firstWriteFailure = Mutex<String?>(nil)
    private let encoder: JSONEncoder
    private let listener: Listener?
    public let path: String?

    /// Opens (truncating) `path`; nil makes a log that writes no file (it still calls `listener`).
    public init(path: String?, listener: Listener? = nil) throws {
        self.path = path
        self.listener = listener
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = encoder
        guard let path else {
            handle = Mutex(nil)
            return
        }
        do { handle = Mutex(try NewFile.create(at: path)) } catch {
            throw EventLogError.cannotOpen(path: path, reason: error.reason)
        }
    }

    /// Appends one event as a line.
    public func emit<Event: Encodable>(_ event: Event) {
        listener?(event)
        guard let data = try? encoder.encode(event) else { return }
        handle.withLock { openFile in
            guard let file = openFile else { return }
            // write(contentsOf:) throws where write(_:) would trap (a full disk): a lost event must not stop the
            // video, but the run fails at its end and the file keeps its .partial name (``writeFailure``). Nothing
            // is written after a failed line.
            let lineStart = try? file.offset()
            do { try file.write(contentsOf: data + [0x0A]) } catch {
                firstWriteFailure.withLock { $0 = $0 ?? WriteFailure.reason(of: error) }
                // A line cut short (a full disk) is removed: the file ends with a whole event.
                if let lineStart { try? file.truncate(atOffset: lineStart) }
                try? file.close()
                openFile = nil
            }
        }
    }

    /// Why writing the file failed (its events from then on are lost), or nil.
    public var writeFailure: String? { firstWriteFailure.withLock { $0 } }

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
    case cannotOpen(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot write events to '\(path)': \(reason); check that the folder exists, is writable and has room"
        }
    }
}
