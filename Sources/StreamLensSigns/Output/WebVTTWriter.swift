import Foundation
import StreamLensCore
import Synchronization

/// Writes speed-limit events as WebVTT subtitles (`--subtitles PATH.vtt`) that any player shows beside the video.
///
/// The file starts with the `WEBVTT` header; each event becomes one numbered cue `HH:MM:SS.mmm --> HH:MM:SS.mmm`
/// holding, for example, `Speed limit 60 km/h`. A sign is often in view for under a second, so a cue lasts at least
/// ``minimumCueDuration`` — but never past the start of the next cue (a new limit replaces the old one, as the badge
/// does: two limits were shown at once) nor past the end of the stream given to ``close(streamEnd:)``. So each cue
/// is written when the next one arrives, and the last one at ``close(streamEnd:)``, which every ending of a run calls:
/// an interrupted run leaves a valid file. With GPS telemetry (``showSpeed(_:)``) a sign's cue also says the
/// vehicle's speed where the sign was passed (the event's `end`): `Speed limit 60 km/h · speed 67 km/h`.
///
/// ## Thread Safety
/// Writes are serialized by a mutex; any thread may append.
public final class WebVTTWriter: Sendable {
    public let path: String
    /// Shortest time a cue stays on screen, in seconds.
    public let minimumCueDuration: Double
    private let state: Mutex<State>

    private struct State {
        var file: FileHandle?
        var cues = 0
        var failure: String?
        /// The newest cue, written when the next one (or the end) says how long it may last.
        var pending: (start: Double, end: Double, body: String)?
        /// Where cue times count from (seconds of stream time), read when a cue is written; nil: from 0.
        var origin: (@Sendable () -> Double?)?
        var speed: SpeedSource?
    }

    /// The vehicle's speed at a stream time (seconds) in a unit (`km/h`, `mph`); nil when unknown.
    public typealias SpeedSource = @Sendable (_ time: Double, _ unit: String) -> Double?

    /// Sign cues from now on carry the speed `source` gives at the sign's passing, in the sign's unit, rounded to a
    /// whole number; a cue whose speed is unknown says the limit alone.
    public func showSpeed(_ source: @escaping SpeedSource) {
        state.withLock { $0.speed = source }
    }

    /// Cue times count from the stream time `origin` gives when a cue is written (the first frame's, once known):
    /// an MP4 output starts at 0 whatever its first frame's stream time (an MPEG-TS recording's is often 1.4 s, an
    /// edited MP4's later still), and its subtitles must start with it.
    public func countTimes(from origin: @escaping @Sendable () -> Double?) {
        state.withLock { $0.origin = origin }
    }

    /// Creates (truncating) `path` and writes the header.
    public init(path: String, minimumCueDuration: Double = 2) throws {
        precondition(minimumCueDuration > 0, "cues need a positive duration")
        self.path = path
        self.minimumCueDuration = minimumCueDuration
        do { state = Mutex(State(file: try NewFile.create(at: path, header: Data("WEBVTT\n\n".utf8)))) } catch {
            throw SignsError.cannotOpenSubtitles(path: path, reason: error.reason)
        }
    }

    /// Appends a cue showing `text` from `start` to `end` seconds (stretched to ``minimumCueDuration``, cut at the
    /// next cue's start).
    public func appendCue(start: Double, end: Double, text: String) {
        let start = max(0, start)
        let end = max(end, start + minimumCueDuration)
        // A cue's text ends at the first blank line: keep it on lines of its own.
        let body = text.split(whereSeparator: \.isNewline).joined(separator: "\n")
        state.withLock { state in
            guard state.file != nil else { return }
            if let pending = state.pending {
                // Cut where this one starts, unless both are in view at once (two signs, this one seen first).
                Self.write(pending, until: start > pending.start ? min(pending.end, start) : pending.end, state: &state)
            }
            state.pending = (start, end, body)
        }
    }

    /// Writes one cue; a write that fails (a full disk) is removed, closes the file and is remembered.
    private static func write(
        _ cue: (start: Double, end: Double, body: String), until end: Double, state: inout State
    ) {
        guard let file = state.file else { return }
        state.cues += 1
        let origin = state.origin?() ?? 0
        let text = "\(state.cues)\n\(timestamp(cue.start - origin)) --> \(timestamp(end - origin))\n\(cue.body)\n\n"
        // write(contentsOf:) throws where write(_:) would trap (a full disk): a lost cue must not stop the video,
        // but the run fails at its end and the file keeps its .partial name (``writeFailure``).
        let cueStart = try? file.offset()
        do { try file.write(contentsOf: Data(text.utf8)) } catch {
            state.failure = WriteFailure.reason(of: error)
            // A cue cut short (a full disk) is removed: the file ends with whole cues.
            if let cueStart { try? file.truncate(atOffset: cueStart) }
            try? file.close()
            state.file = nil
        }
    }

    /// Why writing the file failed (its cues from then on are lost), or nil.
    public var writeFailure: String? { state.withLock { $0.failure } }

    /// Appends the cue for a speed-limit event.
    public func append(_ event: SpeedLimitEvent) {
        let speed = state.withLock { $0.speed }?(event.end, event.unit)
        let reading = speed.flatMap { $0.isFinite ? " · speed \(Int($0.rounded())) \(event.unit)" : nil } ?? ""
        appendCue(start: event.start, end: event.end, text: "Speed limit \(event.value) \(event.unit)\(reading)")
    }

    /// Writes the last cue, ending by `streamEnd` (seconds) when given and after its start, and closes the file;
    /// later cues are discarded.
    public func close(streamEnd: Double? = nil) {
        state.withLock { state in
            if let pending = state.pending {
                let end = streamEnd.map { $0 > pending.start ? min(pending.end, $0) : pending.end } ?? pending.end
                Self.write(pending, until: end, state: &state)
                state.pending = nil
            }
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
