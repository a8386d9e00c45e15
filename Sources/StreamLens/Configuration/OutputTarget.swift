import Foundation
import StreamLensFramePath
import StreamLensGStreamer

/// Where processed frames go, as given in `--output` or `sink.output`.
public enum OutputTarget: Sendable, Equatable {
    /// Discard frames after processing (for measuring).
    case null
    /// A file; container and codec follow the extension.
    case file(path: String, container: Container)
    /// A GStreamer sink description that accepts raw video, e.g. `x264enc ! mp4mux ! filesink location=out.mp4`.
    case description(String)

    /// File containers StreamLens writes by extension.
    public enum Container: String, Sendable, CaseIterable {
        case mp4, mov, mkv, webm

        /// Encoder and muxer for this container. x264 at `preset` for the H.264 ones, VP9 (realtime settings) for WebM,
        /// without look-ahead: with it, libvpx lost up to the last third of a small picture's frames at end-of-stream
        /// (18 of 50 at 97×61) while they counted as output.
        func encoderAndMuxer(preset: String, live: Bool) -> String {
            let h264 = "x264enc speed-preset=\(preset)\(live ? " tune=zerolatency" : "") ! h264parse"
            switch self {
            case .mp4: return "\(h264) ! mp4mux"
            case .mov: return "\(h264) ! qtmux"
            case .mkv: return "\(h264) ! matroskamux"
            case .webm: return "vp9enc deadline=1 cpu-used=8 row-mt=true lag-in-frames=0 ! webmmux"
            }
        }

        /// Sizes this container's encoder and muxer accept: x264 needs even sides for 4:2:0; mp4mux, qtmux and
        /// webmmux refuse frames under 16×16 (matroskamux takes any size; VP9 takes odd sizes).
        var sizeRule: OutputSizeRule {
            switch self {
            case .mp4, .mov: OutputSizeRule(multiple: 2, minimum: 16)
            case .mkv: OutputSizeRule(multiple: 2, minimum: 2)
            case .webm: OutputSizeRule(multiple: 1, minimum: 16)
            }
        }

        /// The container can be read as written, without the index or header a muxer writes at the end (a run
        /// stopped hard leaves a playable Matroska file; an MP4 without its `moov` is unreadable).
        var readableUnfinalized: Bool { self == .mkv || self == .webm }
    }

    /// Name of the appsrc that receives frames from StreamLens.
    static let sourceName = "streamlens_src"

    /// Classifies the text of `--output`.
    public init(parsing text: String) throws(RunError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "null" || trimmed.isEmpty {
            self = .null
        } else if trimmed.contains("!") || trimmed.contains("=") {
            self = .description(trimmed)
        } else {
            let ext = URL(fileURLWithPath: trimmed).pathExtension.lowercased()
            guard let container = Container(rawValue: ext) else {
                throw .unsupportedOutputExtension(path: trimmed, allowed: Container.allCases.map(\.rawValue))
            }
            self = .file(path: trimmed, container: container)
        }
    }

    /// Checks that a file output can be created before anything runs.
    public func validate() throws(RunError) {
        guard case .file(let path, _) = self else { return }
        if let problem = FileOnDisk.folderProblem(forNewFile: path) {
            throw .outputUnwritable(path: path, reason: problem)
        }
    }

    /// The file a file output is written to until it is complete (`NAME.partial`, renamed on success).
    var partialFile: PartialFile? {
        guard case .file(let path, _) = self else { return nil }
        return PartialFile(path: path)
    }

    /// The sizes the output accepts, when it has an encoder or muxer with limits; nil otherwise. For a sink
    /// description, x264enc asks for even sides and mp4mux/qtmux/webmmux/splitmuxsink for at least 16×16.
    var sizeRule: OutputSizeRule? {
        switch self {
        case .null:
            return nil
        case .file(_, let container):
            return container.sizeRule
        case .description(let description):
            let elements = Set(description.split(whereSeparator: { $0 == "!" || $0.isWhitespace }).map(String.init))
            let needsEven = elements.contains("x264enc")
            let needs16 = !elements.isDisjoint(with: ["mp4mux", "qtmux", "webmmux", "splitmuxsink"])
            guard needsEven || needs16 else { return nil }
            return OutputSizeRule(multiple: needsEven ? 2 : 1, minimum: needs16 ? 16 : 1)
        }
    }

    /// The output pipeline, or nil for ``null``. A file output writes to its partial name.
    func pipelineDescription(live: Bool, encoderPreset: String, latencyBound: Duration) -> String? {
        let latency = latencyBound.nanoseconds
        var source = "appsrc name=\(Self.sourceName) format=time block=true max-buffers=2 stream-type=stream "
            + "is-live=\(live) min-latency=\(live ? latency : 0) ! videoconvert"
        // The frame path pads frames in this videobox when the output has size limits (passthrough otherwise).
        if sizeRule != nil { source += " ! videobox name=\(FramePath.outputFitName)" }
        switch self {
        case .null:
            return nil
        case .file(_, let container):
            // An input that changes size partway is scaled to its first size here (passthrough until then): the
            // encoder and muxer keep one size per file. (A sink description gets the frames as they come.)
            // The file sink writes what the muxer gives it at once: with its 64 KiB buffer a run stopped hard (or
            // killed) lost the last frames the muxer had written, 8 of 30 at 640 × 272, and the report counted them.
            return "\(source) ! videoscale ! videoconvert ! capsfilter name=\(FramePath.firstSizeName) "
                + "! \(container.encoderAndMuxer(preset: encoderPreset, live: live)) "
                + "! filesink buffer-mode=unbuffered location=\(quoted(partialFile!.partialPath))"
        case .description(let description):
            return "\(source) ! \(description)"
        }
    }

    /// Short text for reports.
    public var label: String {
        switch self {
        case .null: "null"
        case .file(let path, _): path
        case .description(let description): description
        }
    }
}
