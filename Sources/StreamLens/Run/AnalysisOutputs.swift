import StreamLensCore
import StreamLensDetection
import StreamLensSigns

/// The files analysis stages write while a run goes: the JSON-lines event log (`--events`) shared by every stage,
/// the WebVTT subtitles of speed-limit events (`--subtitles`) and the detector's tracks in MOTChallenge text
/// (`--export mot`) and as COCO results (`--export coco`). Opened before the run as `NAME.partial`, closed
/// after it (also after an interrupt or an error), so every event emitted is on disk, and renamed only when the run
/// finished or was interrupted: a file under its final name is always a whole one, and a failed run never replaces
/// a good file.
final class AnalysisOutputs {
    let events: EventLog
    let subtitles: WebVTTWriter?
    let mot: MOTWriter?
    let coco: COCOWriter?
    /// The run's GPS track, read before the pipeline starts (nil: none); it hears the signs through the event log.
    let telemetry: RunTelemetry?
    private var exportFailures: [(path: String, reason: String)] = []
    private let eventsFile: PartialFile?
    private let subtitlesFile: PartialFile?
    private let motFile: PartialFile?
    private let cocoFile: PartialFile?

    init(configuration: RunConfiguration) throws(RunError) {
        let eventsFile = configuration.eventsPath.map(PartialFile.init(path:))
        let subtitlesFile = configuration.subtitlesPath.map(PartialFile.init(path:))
        let motFile = configuration.motPath.map(PartialFile.init(path:))
        self.eventsFile = eventsFile
        self.subtitlesFile = subtitlesFile
        self.motFile = motFile
        let cocoFile = configuration.cocoPath.map(PartialFile.init(path:))
        self.cocoFile = cocoFile
        let telemetry = try RunTelemetry.load(configuration)
        self.telemetry = telemetry
        do { events = try EventLog(path: eventsFile?.partialPath, listener: telemetry?.listener) } catch {
            throw .cannotWrite(path: configuration.eventsPath ?? "", reason: Self.reason(error))
        }
        if let subtitlesFile, let path = configuration.subtitlesPath {
            do {
                let writer = try WebVTTWriter(path: subtitlesFile.partialPath)
                if let telemetry { writer.showSpeed(telemetry.subtitleSpeed) }
                subtitles = writer
            } catch {
                events.close()
                eventsFile?.discard()
                throw .cannotWrite(path: path, reason: Self.reason(error))
            }
        } else {
            subtitles = nil
        }
        if let motFile, let path = configuration.motPath {
            do { mot = try MOTWriter(path: motFile.partialPath) } catch {
                events.close()
                eventsFile?.discard()
                subtitles?.close()
                subtitlesFile?.discard()
                throw .cannotWrite(path: path, reason: Self.reason(error))
            }
        } else {
            mot = nil
        }
        if let cocoFile, let path = configuration.cocoPath {
            do { coco = try COCOWriter(path: cocoFile.partialPath) } catch {
                events.close()
                eventsFile?.discard()
                subtitles?.close()
                subtitlesFile?.discard()
                mot?.close()
                motFile?.discard()
                throw .cannotWrite(path: path, reason: Self.reason(error))
            }
        } else {
            coco = nil
        }
    }

    /// What to say when a file could not be created: the system's reason ("No space left on device") and what to
    /// check.
    private static func reason(_ error: any Error) -> String {
        let cause: String? = switch error {
        case EventLogError.cannotOpen(_, let reason): reason
        case SignsError.cannotOpenSubtitles(_, let reason): reason
        case MOTWriterError.cannotOpen(_, let reason): reason
        default: nil
        }
        return (cause.map { "\($0); " } ?? "") + "check that the folder exists, is writable and has room"
    }

    /// The files written: each with what it is (for the summary) and why writing it failed, if it did.
    private var written: [(file: PartialFile, what: String, failure: String?)] {
        var written: [(file: PartialFile, what: String, failure: String?)] = []
        if let eventsFile { written.append((eventsFile, "events", events.writeFailure)) }
        if let subtitlesFile { written.append((subtitlesFile, "subtitles", subtitles?.writeFailure)) }
        if let motFile { written.append((motFile, "tracks", mot?.writeFailure)) }
        if let cocoFile { written.append((cocoFile, "COCO results", coco?.writeFailure)) }
        return written
    }

    /// The files whose writing failed (a full disk), with the reason; their rows stop there.
    var writeFailures: [(path: String, reason: String)] {
        written.compactMap { entry in entry.failure.map { (entry.file.destination, $0) } } + exportFailures
    }

    /// Writes the speeding events and the map exports, once the frames (and so the signs) are through; `streamStart`
    /// is the first frame's stream time, `streamEnd` the end of the last frame. Call it before asking for
    /// ``writeFailures``.
    func finishTelemetry(streamStart: Duration?, streamEnd: Duration?) {
        guard let telemetry else { return }
        exportFailures = telemetry.finish(streamStart: streamStart?.seconds, streamEnd: streamEnd?.seconds, events: events)
    }

    /// Subtitle times count from the stream time `origin` gives (the output video's first frame).
    func subtitleTimes(countFrom origin: @escaping @Sendable () -> Duration?) {
        subtitles?.countTimes { origin()?.seconds }
    }

    /// Writes the last subtitle cue, ending by `streamEnd` (the end of the last frame) when it is known: a cue that
    /// ran on past the video's end. Call it once the frames are through, before asking for ``writeFailures``.
    func finishSubtitles(streamEnd: Duration?) {
        subtitles?.close(streamEnd: streamEnd?.seconds)
    }

    /// Closes the files and settles them as the run ended; returns a summary line for each file kept as `.partial`.
    func close(after ending: RunEnding) -> [String] {
        events.close()
        subtitles?.close()
        mot?.close()
        coco?.close()
        return written.compactMap { $0.file.settle(after: ending, what: $0.what, writeFailure: $0.failure) }
    }
}
