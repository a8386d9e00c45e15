import Foundation

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

        /// Encoder and muxer for this container. x264 at `preset` for the H.264 ones, VP9 (realtime settings) for WebM.
        func encoderAndMuxer(preset: String, live: Bool) -> String {
            let h264 = "x264enc speed-preset=\(preset)\(live ? " tune=zerolatency" : "") ! h264parse"
            switch self {
            case .mp4: return "\(h264) ! mp4mux"
            case .mov: return "\(h264) ! qtmux"
            case .mkv: return "\(h264) ! matroskamux"
            case .webm: return "vp9enc deadline=1 cpu-used=8 row-mt=true ! webmmux"
            }
        }
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
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .outputUnwritable(path: path, reason: "folder '\(folder)' does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw .outputUnwritable(path: path, reason: "folder '\(folder)' is not writable")
        }
    }

    /// The output pipeline, or nil for ``null``.
    func pipelineDescription(live: Bool, encoderPreset: String, latencyBound: Duration) -> String? {
        let latency = latencyBound.nanoseconds
        let source = "appsrc name=\(Self.sourceName) format=time block=true max-buffers=2 stream-type=stream "
            + "is-live=\(live) min-latency=\(live ? latency : 0) ! videoconvert"
        switch self {
        case .null:
            return nil
        case .file(let path, let container):
            return "\(source) ! \(container.encoderAndMuxer(preset: encoderPreset, live: live)) "
                + "! filesink location=\(quoted(path))"
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
