import Foundation

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

    private let file: RecordFile?
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
            file = nil
            return
        }
        do { file = try RecordFile(creating: path) } catch {
            throw EventLogError.cannotOpen(path: path, reason: error.reason)
        }
    }

    /// Appends one event as a line.
    public func emit<Event: Encodable>(_ event: Event) {
        listener?(event)
        // A lost event must not stop the video, but the run fails at its end and the file keeps its .partial name
        // (``writeFailure``); a line cut short (a full disk) is removed, so the file ends with a whole event.
        guard let file, let data = try? encoder.encode(event) else { return }
        file.append(data + [0x0A])
    }

    /// Why writing the file failed (its events from then on are lost), or nil.
    public var writeFailure: String? { file?.writeFailure }

    /// Closes the file; later events are discarded.
    public func close() { file?.close() }
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
