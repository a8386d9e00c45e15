import StreamLensCore
import StreamLensSigns

/// The files analysis stages write while a run goes: the JSON-lines event log (`--events`) shared by every stage,
/// and the WebVTT subtitles of speed-limit events (`--subtitles`). Opened before the run, closed after it (also
/// after an interrupt), so every event emitted is on disk.
final class AnalysisOutputs {
    let events: EventLog
    let subtitles: WebVTTWriter?

    init(configuration: RunConfiguration) throws(RunError) {
        do { events = try EventLog(path: configuration.eventsPath) } catch {
            throw .cannotWrite(path: configuration.eventsPath ?? "", reason: "check that the folder exists and is writable")
        }
        if let path = configuration.subtitlesPath {
            do { subtitles = try WebVTTWriter(path: path) } catch {
                throw .cannotWrite(path: path, reason: "check that the folder exists and is writable")
            }
        } else {
            subtitles = nil
        }
    }

    func close() {
        events.close()
        subtitles?.close()
    }
}
