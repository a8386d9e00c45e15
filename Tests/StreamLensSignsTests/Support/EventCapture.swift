import Foundation
import StreamLensCore
import StreamLensSigns

/// A real event log in a temporary file, read back as decoded events.
final class EventCapture {
    let path: String
    let log: EventLog

    init() throws {
        path = NSTemporaryDirectory() + "signs-events-\(UUID().uuidString).jsonl"
        log = try EventLog(path: path)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Every line written so far, decoded.
    func events() throws -> [SpeedLimitEvent] {
        let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        return try text.split(separator: "\n").map {
            try JSONDecoder().decode(SpeedLimitEvent.self, from: Data($0.utf8))
        }
    }
}
