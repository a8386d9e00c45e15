import StreamLensCore
import StreamLensSigns

/// The files analysis stages write while a run goes: the JSON-lines event log (`--events`) shared by every stage,
/// and the WebVTT subtitles of speed-limit events (`--subtitles`). Opened before the run as `NAME.partial`, closed
/// after it (also after an interrupt or an error) and then renamed, so every event emitted is on disk and a file
/// under its final name is always a closed one.
final class AnalysisOutputs {
    let events: EventLog
    let subtitles: WebVTTWriter?
    private let files: [PartialFile]

    init(configuration: RunConfiguration) throws(RunError) {
        let eventsFile = configuration.eventsPath.map(PartialFile.init(path:))
        let subtitlesFile = configuration.subtitlesPath.map(PartialFile.init(path:))
        files = [eventsFile, subtitlesFile].compactMap { $0 }
        do { events = try EventLog(path: eventsFile?.partialPath) } catch {
            throw .cannotWrite(path: configuration.eventsPath ?? "", reason: "check that the folder exists and is writable")
        }
        if let subtitlesFile, let path = configuration.subtitlesPath {
            do { subtitles = try WebVTTWriter(path: subtitlesFile.partialPath) } catch {
                events.close()
                eventsFile?.discard()
                throw .cannotWrite(path: path, reason: "check that the folder exists and is writable")
            }
        } else {
            subtitles = nil
        }
    }

    /// Closes the files and gives them their names.
    func close() {
        events.close()
        subtitles?.close()
        for file in files { try? file.commit() }
    }
}
