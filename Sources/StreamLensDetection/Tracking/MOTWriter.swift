import Foundation
import StreamLensCore

/// Writes tracks in MOTChallenge text (`--export mot FILE`), the format tracking tools and py-motmetrics read: one
/// line per track per frame, `frame,id,x,y,w,h,confidence,-1,-1,-1`, frames 1-based from the stream's first frame,
/// boxes in source pixels (two decimals). A line is written as its frame is analysed, so an interrupted run keeps
/// every frame it analysed.
///
/// ## Thread Safety
/// Writes are serialized by a mutex: the analysis thread writes, the runner closes.
public final class MOTWriter: Sendable {
    private let file: RecordFile
    public let path: String

    /// Opens (truncating) `path`; throws ``MOTWriterError/cannotOpen(path:reason:)``.
    public init(path: String) throws(MOTWriterError) {
        self.path = path
        do { file = try RecordFile(creating: path) } catch {
            throw .cannotOpen(path: path, reason: error.reason)
        }
    }

    /// The lines of one frame.
    public static func lines(frame: Int, detections: [Detection]) -> String {
        var text = ""
        for detection in detections {
            guard let id = detection.trackID else { continue }
            let box = detection.box
            text += "\(frame),\(id),\(Self.format(box.x)),\(Self.format(box.y)),\(Self.format(box.width)),"
                + "\(Self.format(box.height)),\(Self.format(detection.confidence, places: 4)),-1,-1,-1\n"
        }
        return text
    }

    /// Appends the tracked `detections` of frame `frame` (1-based).
    public func write(frame: Int, detections: [Detection]) {
        let text = Self.lines(frame: frame, detections: detections)
        // A frame cut short (a full disk) is removed: the file ends with whole lines.
        if !text.isEmpty { file.append(Data(text.utf8)) }
    }

    /// Why writing failed (later lines are lost), or nil.
    public var writeFailure: String? { file.writeFailure }

    /// Closes the file; later lines are discarded.
    public func close() { file.close() }

    /// A number with at most `places` decimals, without trailing zeros (`12`, `12.5`, `-3.25`).
    static func format(_ value: Double, places: Int = 2) -> String {
        let scale = (0..<places).reduce(1.0) { value, _ in value * 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        return String(rounded)
    }
}

/// Errors of the MOT writer.
public enum MOTWriterError: Error, Sendable, CustomStringConvertible {
    /// The file could not be created.
    case cannotOpen(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot write tracks to '\(path)': \(reason); check that the folder exists, is writable and has room"
        }
    }
}
