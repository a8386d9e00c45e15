import Foundation
import StreamLensCore
import Synchronization

/// Writes speed-limit events as WebVTT subtitles (`--subtitles PATH.vtt`) that any player shows beside the video.
///
/// The file starts with the `WEBVTT` header; each event becomes one numbered cue `HH:MM:SS.mmm --> HH:MM:SS.mmm`
/// holding, for example, `Speed limit 60 km/h`. A sign is often in view for under a second, so a cue lasts at least
/// ``minimumCueDuration``. Cues are written as events arrive, so an interrupted run leaves a valid file.
///
/// ## Thread Safety
/// Writes are serialized by a mutex; any thread may append.
public final class WebVTTWriter: Sendable {
    public let path: String
    /// Shortest time a cue stays on screen, in seconds.
    public let minimumCueDuration: Double
    private let state: Mutex<(file: FileHandle?, cues: Int, failure: String?)>

    /// Creates (truncating) `path` and writes the header.
    public init(path: String, minimumCueDuration: Double = 2) throws {
        precondition(minimumCueDuration > 0, "cues need a positive duration")
        self.path = path
        self.minimumCueDuration = minimumCueDuration
        do { state = Mutex((try NewFile.create(at: path, header: Data("WEBVTT\n\n".utf8)), 0, nil)) } catch {
            throw SignsError.cannotOpenSubtitles(path: path, reason: error.reason)
        }
    }

    /// Appends a cue showing `text` from `start` to `end` seconds (stretched to ``minimumCueDuration``).
    public func appendCue(start: Double, end: Double, text: String) {
        let start = max(0, start)
        let end = max(end, start + minimumCueDuration)
        // A cue's text ends at the first blank line: keep it on lines of its own.
        let body = text.split(whereSeparator: \.isNewline).joined(separator: "\n")
        state.withLock { state in
            guard let file = state.file else { return }
            state.cues += 1
            let cue = "\(state.cues)\n\(Self.timestamp(start)) --> \(Self.timestamp(end))\n\(body)\n\n"
            // write(contentsOf:) throws where write(_:) would trap (a full disk): a lost cue must not stop the video,
            // but the run fails at its end and the file keeps its .partial name (``writeFailure``).
            let cueStart = try? file.offset()
            do { try file.write(contentsOf: Data(cue.utf8)) } catch {
                state.failure = WriteFailure.reason(of: error)
                // A cue cut short (a full disk) is removed: the file ends with whole cues.
                if let cueStart { try? file.truncate(atOffset: cueStart) }
                try? file.close()
                state.file = nil
            }
        }
    }

    /// Why writing the file failed (its cues from then on are lost), or nil.
    public var writeFailure: String? { state.withLock { $0.failure } }

    /// Appends the cue for a speed-limit event.
    public func append(_ event: SpeedLimitEvent) {
        appendCue(start: event.start, end: event.end, text: "Speed limit \(event.value) \(event.unit)")
    }

    /// Closes the file; later cues are discarded.
    public func close() {
        state.withLock { state in
            try? state.file?.close()
            state.file = nil
        }
    }

    /// `HH:MM:SS.mmm` for `seconds` (rounded to the millisecond; hours grow past 99 if they must).
    public static func timestamp(_ seconds: Double) -> String {
        let totalMilliseconds = Int((max(0, seconds) * 1000).rounded())
        let hours = totalMilliseconds / 3_600_000
        let minutes = totalMilliseconds / 60_000 % 60
        let wholeSeconds = totalMilliseconds / 1000 % 60
        let milliseconds = totalMilliseconds % 1000
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(wholeSeconds, 2)).\(pad(milliseconds, 3))"
    }
}
