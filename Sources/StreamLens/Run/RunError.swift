import Foundation
import StreamLensGStreamer

/// Why a run could not start or could not finish. Each case reads as one line: what failed, where, what to do.
public enum RunError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input file does not exist.
    case inputMissing(path: String)
    /// The input path is not a regular file: `kind` is "a folder", "a FIFO", "a device"…
    case inputNotAFile(path: String, kind: String)
    /// The input is damaged: an element could not decode, demux or parse it before a single frame came out.
    case inputDamaged(input: String, detail: String)
    /// The input file is empty.
    case inputEmpty(path: String)
    /// The input file exists but cannot be read.
    case inputUnreadable(path: String)
    /// The input (a URI, a camera, a network stream) could not be opened or read.
    case inputUnavailable(input: String, detail: String)
    /// The input failed after frames had come from it (a server that went away, a camera unplugged).
    case inputFailedPartway(input: String, detail: String)
    /// The input is not something GStreamer can decode as video.
    case inputNotVideo(input: String, detail: String)
    /// The output file cannot be created.
    case outputUnwritable(path: String, reason: String)
    /// `--output` names a file whose extension StreamLens does not encode.
    case unsupportedOutputExtension(path: String, allowed: [String])
    /// A pipeline file or flag is wrong.
    case invalidConfiguration(file: String?, key: String, problem: String)
    /// A GStreamer plugin the input needs is missing.
    case missingPlugin(detail: String)
    /// A GStreamer failure (description, state change, stream error).
    case gstreamer(GStreamerError)
    /// No frame arrived before the start-up timeout.
    case noFrames(input: String, waited: Duration)
    /// An element of the output pipeline failed during the run (encoder, muxer, sink).
    case outputFailed(detail: String)
    /// The file the output was written to disappeared during the run (deleted, or its folder).
    case outputRemoved(path: String)
    /// A file StreamLens writes (report, events) could not be written.
    case cannotWrite(path: String, reason: String)
    /// Writing files that grow with the run (timeline, events, subtitles) failed partway (a full disk): they keep
    /// their `.partial` names, and their rows stop there.
    case filesIncomplete(paths: [String], reason: String)
    /// An output (`--output`, a sink's `location=`, a report file…) is the input file itself: the same path, a
    /// symlink to it, or a hard link of it. `how` says which.
    case outputIsInput(option: String, path: String, input: String, how: String)
    /// An output would write over the pipeline file the run was loaded from.
    case outputIsPipelineFile(option: String, path: String, how: String)
    /// An output would write over another file the run reads: an overlay clip, a model (`role` names it).
    case outputIsUsedFile(option: String, path: String, role: String, file: String, how: String)
    /// Two outputs would write the same file.
    case outputsCollide(path: String, first: String, second: String)
    /// An output path exists and is not a regular file (a folder, a FIFO, a device).
    case outputNotAFile(option: String, path: String, kind: String)
    /// A report, timeline, events or subtitles path names an existing file that is not of that kind (a video typed
    /// where the events file goes): replacing it would destroy it.
    case outputWouldReplaceOtherFile(option: String, path: String, kind: String)
    /// The input has streams, but none of them is video (an audio-only file).
    case inputHasNoVideo(input: String)
    /// The run was interrupted before its first frame.
    case interruptedBeforeStart
    /// A live input sent nothing for `--stall-timeout`.
    case inputSilent(input: String, waited: Duration)
    /// A lost live input did not come back within `--reconnect-max` attempts.
    case inputLost(input: String, attempts: Int, detail: String)
    /// Nothing moved for the watchdog's time on a file run: the pipeline is stuck (`where` names the last step
    /// that moved).
    case noProgress(waited: Duration, detail: String)
    /// An analysis stage failed on every frame it tried and never produced a result (a model whose output it cannot
    /// read, for example): the video was written, but without what was asked of it.
    case analysisNeverWorked(stage: String, failures: Int, lastError: String)

    public var description: String {
        switch self {
        case .inputMissing(let path):
            "input '\(path)' does not exist; check the path"
        case .inputNotAFile(let path, let kind):
            "input '\(path)' is \(kind), not a file; give a video file, a URI, /dev/videoN or a GStreamer source description"
        case .inputDamaged(let input, let detail):
            "input '\(input)' is damaged: no frame could be decoded (\(detail)); check the file"
        case .inputEmpty(let path):
            "input '\(path)' is empty (0 bytes); check the file (a copy or download that did not finish?)"
        case .inputUnreadable(let path):
            "input '\(path)' cannot be read (permission denied); check its permissions"
        case .inputFailedPartway(let input, let detail):
            "input '\(input)' was lost partway (\(detail)); the frames before it were kept: check that the server or device is still there"
        case .inputUnavailable(let input, let detail):
            "input '\(input)' could not be opened (\(detail)); check the address, that the device or server is there, and permissions"
        case .inputNotVideo(let input, let detail):
            "input '\(input)' is not a video GStreamer can decode (\(detail)); check the file or install gstreamer1.0-libav and gstreamer1.0-plugins-bad/-ugly"
        case .outputUnwritable(let path, let reason):
            "cannot write output '\(path)': \(reason); choose a writable location"
        case .unsupportedOutputExtension(let path, let allowed):
            "output '\(path)' has an unknown extension; use one of .\(allowed.joined(separator: ", .")), 'null', or a GStreamer sink description"
        case .invalidConfiguration(let file, let key, let problem):
            "\(file.map { "\($0): " } ?? "")'\(key)': \(problem)"
        case .missingPlugin(let detail):
            "missing GStreamer plugin: \(detail); install gstreamer1.0-plugins-good, -bad, -ugly and gstreamer1.0-libav (scripts/setup.sh)"
        case .gstreamer(let error):
            error.description
        case .noFrames(let input, let waited):
            "input '\(input)' produced no video frame in \(Int(waited.seconds)) s; check that it has a video stream"
        case .outputFailed(let detail):
            "the output failed: \(detail); the report counts the frames it did not get as stream_error"
        case .outputRemoved(let path):
            "'\(path)' was removed while the run was writing it: nothing of the output is kept; run again"
        case .cannotWrite(let path, let reason):
            "cannot write '\(path)': \(reason)"
        case .filesIncomplete(let paths, let reason):
            "writing \(paths.map { "'\($0)'" }.joined(separator: ", ")) failed partway (\(reason)): what was written is "
                + "kept as NAME.partial; check the disk and run again"
        case .outputIsInput(let option, let path, let input, let how):
            "\(option) '\(path)' is the input '\(input)' (\(how)); writing it would destroy the input: choose another name"
        case .outputIsPipelineFile(let option, let path, let how):
            "\(option) '\(path)' is the pipeline file (\(how)); writing it would destroy the pipeline: choose another name"
        case .outputIsUsedFile(let option, let path, let role, let file, let how):
            "\(option) '\(path)' is the \(role) '\(file)' (\(how)) the run reads; writing it would destroy it: choose another name"
        case .outputsCollide(let path, let first, let second):
            "\(first) and \(second) both write '\(path)'; give each its own file"
        case .outputNotAFile(let option, let path, let kind):
            "\(option) '\(path)' exists and is \(kind); give the name of a regular file"
        case .outputWouldReplaceOtherFile(let option, let path, let kind):
            "\(option) '\(path)' exists and is not \(kind); writing it would destroy it: choose another name or "
                + "remove the file"
        case .inputHasNoVideo(let input):
            "input '\(input)' has no video stream (audio or data only); give a file with video"
        case .interruptedBeforeStart:
            "interrupted before the first frame; nothing was written"
        case .inputSilent(let input, let waited):
            "input '\(input)' sent nothing for \(waited.secondsText) s (--stall-timeout); check the source or raise the timeout"
        case .inputLost(let input, let attempts, let detail):
            "input '\(input)' was lost (\(detail)) and did not come back after \(attempts) reconnection attempts (--reconnect-max); check the source"
        case .noProgress(let waited, let detail):
            "no frame moved for \(waited.secondsText) s (\(detail)); the pipeline is stuck: stopped (--watchdog)"
        case .analysisNeverWorked(let stage, let failures, let lastError):
            "the \(stage) stage failed on every frame it tried (\(failures)) and found nothing: \(lastError)"
        }
    }

    /// The process exit status for this error when it ends a run: 2 for outputs refused before anything opened,
    /// 130 for an interrupt, 1 for everything else (a stage that cannot be built included; the command line's own
    /// argument errors exit 2 before a run starts).
    public var exitStatus: Int32 {
        switch self {
        case .outputIsInput, .outputIsPipelineFile, .outputIsUsedFile, .outputsCollide, .outputNotAFile,
            .outputWouldReplaceOtherFile:
            2
        case .interruptedBeforeStart: 130
        default: 1
        }
    }
}

extension Duration {
    /// Seconds for messages: "5", "0.5", "2.25".
    var secondsText: String {
        let value = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }

    /// Seconds with a fixed number of decimals, for messages.
    func secondsText(decimals: Int) -> String {
        String(format: "%.\(decimals)f", Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }
}
