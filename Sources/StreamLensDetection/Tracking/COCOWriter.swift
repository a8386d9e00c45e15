import Foundation
import StreamLensCore
import Synchronization

/// Writes the detector's tracked boxes as COCO detection results (`--export coco FILE`), the JSON that pycocotools
/// and most labelling and evaluation tools read: `images` (one per analysed frame, `id` = frame number from 1, with
/// the source size), `categories` (the classes seen, `id` = the detector's class id + 1, as COCO's ids start at 1)
/// and `annotations` (`image_id`, `category_id`, `bbox` = [x, y, w, h] in source pixels, `score`, `area`, `iscrowd`
/// 0, and `track_id`). One JSON document cannot be appended to, so the boxes are kept (a few dozen bytes each) and
/// the file is written whole when the run closes it, interrupted or not.
///
/// ## Thread Safety
/// The analysis thread adds frames, the runner closes; both behind a mutex.
public final class COCOWriter: Sendable {
    private struct Document: Encodable {
        struct Image: Encodable {
            var id: Int
            var width: Int
            var height: Int
            var file_name: String
        }
        struct Category: Encodable {
            var id: Int
            var name: String
        }
        struct Annotation: Encodable {
            var id: Int
            var image_id: Int
            var category_id: Int
            var bbox: [Double]
            var area: Double
            var score: Double
            var iscrowd = 0
            var track_id: Int
        }
        var images: [Image] = []
        var categories: [Category] = []
        var annotations: [Annotation] = []
    }

    private let state = Mutex<(document: Document, closed: Bool)>((Document(), false))
    private let failure = Mutex<String?>(nil)
    public let path: String

    /// Creates (truncating) `path` now, so that a folder that cannot take it fails the run before it starts; the
    /// content is written by ``close()``. Throws ``MOTWriterError/cannotOpen(path:reason:)``.
    public init(path: String) throws(MOTWriterError) {
        self.path = path
        let file: FileHandle
        do { file = try NewFile.create(at: path) } catch {
            throw .cannotOpen(path: path, reason: error.reason)
        }
        try? file.close()
    }

    /// Adds analysed frame `frame` (1-based) of a `width` × `height` source and its tracked `detections`.
    public func write(frame: Int, width: Int, height: Int, detections: [Detection]) {
        state.withLock { state in
            guard !state.closed else { return }
            state.document.images.append(.init(id: frame, width: width, height: height, file_name: "frame-\(frame)"))
            for detection in detections {
                guard let trackID = detection.trackID else { continue }
                let category = max(detection.classID, 0) + 1
                if !state.document.categories.contains(where: { $0.id == category }) {
                    state.document.categories.append(.init(id: category, name: detection.className))
                }
                let box = detection.box
                state.document.annotations.append(.init(
                    id: state.document.annotations.count + 1, image_id: frame, category_id: category,
                    bbox: [box.x, box.y, box.width, box.height].map(Self.rounded), area: Self.rounded(box.width * box.height),
                    score: (detection.confidence * 10_000).rounded() / 10_000, track_id: trackID))
            }
        }
    }

    /// Why writing failed, or nil.
    public var writeFailure: String? { failure.withLock { $0 } }

    /// Writes the document; later frames are dropped.
    public func close() {
        let document: Document? = state.withLock { state in
            guard !state.closed else { return nil }
            state.closed = true
            return state.document
        }
        guard var document else { return }
        document.categories.sort { $0.id < $1.id }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let file = try NewFile.create(at: path)
            defer { try? file.close() }
            try file.write(contentsOf: try encoder.encode(document))
        } catch {
            failure.withLock { $0 = $0 ?? WriteFailure.reason(of: error) }
        }
    }

    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
