import Foundation
import StreamLensCore

/// The privacy tests' clip (scripts/datasets/make-privacy-testset.sh): two real face photographs pasted into bikes.mp4,
/// moving and growing, 640 × 272 at 25 fps, 250 frames, with a listing of where each face is on each frame.
public enum PrivacyTestset {
    /// `$STREAMLENS_PRIVACY_TESTSET`, default `<repo>/.media-cache/privacy-testset`.
    public static var folder: URL {
        if let configured = ProcessInfo.processInfo.environment["STREAMLENS_PRIVACY_TESTSET"], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        return MediaFiles.repositoryRoot.appendingPathComponent(".media-cache/privacy-testset")
    }

    public static var clip: URL { folder.appendingPathComponent("faces-bikes.mp4") }
    public static let width = 640
    public static let height = 272
    public static let frames = 250

    /// Where the listing says each face is on each frame (x, y, side).
    public struct Listing: Decodable, Sendable {
        public struct Face: Decodable, Sendable { public var name: String; public var x, y, size: Double }
        public struct Frame: Decodable, Sendable { public var index: Int; public var faces: [Face] }
        public var frames: [Frame]

        public static func load() throws -> Listing {
            try JSONDecoder().decode(Listing.self, from: Data(contentsOf: folder.appendingPathComponent("faces-bikes.json")))
        }
    }

    /// Per face name, the frames of `video` (all, or those in `frames`) on which `detect` finds that face: a box centred on it (within half its
    /// side) and of its size (half to one and a half times its side). The Haar cascade also fires, on about 1 in 250
    /// frames, on the hidden head itself (a smooth oval under the hair, face-shaped to it): a box twice the face's
    /// size around it, or a small one at its edge. Those are not a face left to see, and are not counted.
    public static func faceHits(
        in video: DecodedVideo, listing: Listing, frames: Range<Int>? = nil, detect: (AnalysisFrame) -> [BoundingBox]
    ) -> [String: Int] {
        var found: [String: Int] = [:]
        let all = 0..<min(video.frameCount, listing.frames.count)
        for index in frames.map({ $0.clamped(to: all) }) ?? all {
            let boxes = video.withFrame(index) { detect($0) }
            for face in listing.frames[index].faces {
                let centre = (x: face.x + face.size / 2, y: face.y + face.size / 2)
                if boxes.contains(where: {
                    abs($0.center.x - centre.x) < face.size * 0.5 && abs($0.center.y - centre.y) < face.size * 0.5
                        && $0.width >= face.size * 0.5 && $0.width <= face.size * 1.5
                }) {
                    found[face.name, default: 0] += 1
                }
            }
        }
        return found
    }
}
