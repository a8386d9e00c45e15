import Foundation
import StreamLensCore

/// A sign set on disk (scripts/datasets/make-sign-testset.sh, make-us-sign-testset.sh, make-real-sign-set.sh and the other
/// real-photo scripts): raw I420 clips and their ground truth in `testset.json`.
public struct SignSet: Decodable, Sendable {
    /// Each set's generator version: bump together with GENERATOR_VERSION in its script.
    public enum Version {
        /// scripts/datasets/make-sign-testset.py
        public static let generated = 7
        /// scripts/datasets/make-us-sign-testset.py
        public static let unitedStates = 2
        /// scripts/datasets/make-real-sign-set.py and the other real-photo scripts
        public static let realPhoto = 1
    }

    public struct Clip: Decodable, Sendable {
        public var name: String
        public var kind: String
        public var file: String
        public var width: Int
        public var height: Int
        public var frameStep: Double
        public var frameCount: Int
        public var signs: [Sign]
    }

    public struct Sign: Decodable, Sendable {
        public var value: Int
        public var start: Double
        public var end: Double
        public var visibleSeconds: Double
        public var maxSize: Int
        /// `[frameIndex, x, y, width, height]` per frame in which the sign shows.
        public var boxes: [[Int]]
        /// Conditions of the real-photo sets (scripts/datasets/make-real-sign-set.py and the others): size class, blur, light.
        public var size: String?
        public var blur: String?
        public var light: String?

        public func box(atFrame index: Int) -> BoundingBox? {
            boxes.first { $0[0] == index }.map {
                BoundingBox(x: Double($0[1]), y: Double($0[2]), width: Double($0[3]), height: Double($0[4]))
            }
        }
    }

    public enum LoadError: Error, CustomStringConvertible {
        case missing(String)
        case outdated(found: Int, expected: Int, folder: String)
        case generatorFailed(script: String, message: String)

        public var description: String {
            switch self {
            case .missing(let path):
                "no sign set at \(path): run scripts/datasets/fetch-media.sh, then the set's script (scripts/datasets/make-sign-testset.sh "
                    + "or scripts/make-*-set.sh)"
            case .outdated(let found, let expected, let folder):
                "sign set in \(folder) is version \(found), \(expected) expected: run the script that made it again "
                    + "(scripts/datasets/make-sign-testset.sh or scripts/make-*-set.sh)"
            case .generatorFailed(let script, let message):
                "\(script) failed: \(message)"
            }
        }
    }

    public var generatorVersion: Int
    public var clips: [Clip]
    public var folder: String = ""

    private enum CodingKeys: String, CodingKey { case generatorVersion, clips }

    public static var repository: URL { MediaFiles.repositoryRoot }

    /// Runs a set's script (repository-relative path), which returns at once when its set is current.
    public static func runGenerator(_ script: String) throws {
        let path = repository.appendingPathComponent(script).path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let result = try MediaFiles.run("bash", [path])
        guard result.status == 0 else {
            let lines = result.output.split(separator: "\n")
            throw LoadError.generatorFailed(
                script: script, message: lines.last.map(String.init) ?? "exit \(result.status)")
        }
    }

    /// The set in `folder`, whose generator must be `expectedVersion`.
    public static func load(folder: String, expectedVersion: Int) throws -> SignSet {
        let manifest = (folder as NSString).appendingPathComponent("testset.json")
        guard let data = FileManager.default.contents(atPath: manifest) else { throw LoadError.missing(folder) }
        var set = try JSONDecoder().decode(SignSet.self, from: data)
        guard set.generatorVersion == expectedVersion else {
            throw LoadError.outdated(found: set.generatorVersion, expected: expectedVersion, folder: folder)
        }
        set.folder = folder
        return set
    }

    /// Calls `body` with each frame of `clip` as an ``AnalysisFrame`` (I420 at the clip's size), in order.
    public func forEachFrame(of clip: Clip, _ body: (AnalysisFrame) throws -> Void) throws {
        let path = (folder as NSString).appendingPathComponent(clip.file)
        guard let data = FileManager.default.contents(atPath: path) else { throw LoadError.missing(path) }
        let image = OwnedYUVImage(layout: .i420, width: clip.width, height: clip.height)
        let lumaBytes = clip.width * clip.height
        let chromaBytes = ((clip.width + 1) / 2) * ((clip.height + 1) / 2)
        let frameBytes = lumaBytes + 2 * chromaBytes
        precondition(data.count >= frameBytes * clip.frameCount, "\(clip.file) is shorter than its frame count")
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            for index in 0..<clip.frameCount {
                let frameStart = raw.baseAddress! + index * frameBytes
                try image.withPlanes { planes in
                    Self.copy(frameStart, into: planes.y)
                    Self.copy(frameStart + lumaBytes, into: planes.u)
                    Self.copy(frameStart + lumaBytes + chromaBytes, into: planes.v)
                    let pts = Duration.milliseconds(Int64((Double(index) * clip.frameStep * 1000).rounded()))
                    try body(AnalysisFrame(
                        pts: pts, frameIndex: index, planes: planes, sourceWidth: clip.width,
                        sourceHeight: clip.height))
                }
            }
        }
    }

    private static func copy(_ source: UnsafeRawPointer, into plane: Plane) {
        for row in 0..<plane.height {
            plane.row(row).update(
                from: source.advanced(by: row * plane.width).assumingMemoryBound(to: UInt8.self), count: plane.width)
        }
    }
}
