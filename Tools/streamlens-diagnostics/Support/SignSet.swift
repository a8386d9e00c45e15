import Foundation
import StreamLensCore

/// A sign set on disk (scripts/make-sign-testset.sh, make-us-sign-testset.sh, make-real-sign-set.sh and the other
/// real-photo scripts): raw I420 clips and their ground truth in `testset.json`. The part of the test targets'
/// `SignTestSet` the diagnostics read.
struct SignSet: Decodable {
    /// The generated US set's generator version (GENERATOR_VERSION in scripts/make-us-sign-testset.py).
    static let usGeneratorVersion = 2
    /// The real-photo sets' generator version (scripts/make-real-sign-set.py and the other real-photo scripts).
    static let realPhotoGeneratorVersion = 1

    struct Clip: Decodable {
        var name: String
        var kind: String
        var file: String
        var width: Int
        var height: Int
        var frameStep: Double
        var frameCount: Int
        var signs: [Sign]
    }

    struct Sign: Decodable {
        var value: Int
        /// `[frameIndex, x, y, width, height]` per frame in which the sign shows.
        var boxes: [[Int]]
        /// Light condition of the real-photo sets.
        var light: String?

        func box(atFrame index: Int) -> BoundingBox? {
            boxes.first { $0[0] == index }.map {
                BoundingBox(x: Double($0[1]), y: Double($0[2]), width: Double($0[3]), height: Double($0[4]))
            }
        }
    }

    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    var generatorVersion: Int
    var clips: [Clip]
    var folder: String = ""

    private enum CodingKeys: String, CodingKey { case generatorVersion, clips }

    /// The repository root (this file is Tools/streamlens-diagnostics/Support/SignSet.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The set in `folder`, whose generator must be `expectedVersion`.
    static func load(folder: String, expectedVersion: Int) throws -> SignSet {
        let manifest = (folder as NSString).appendingPathComponent("testset.json")
        guard let data = FileManager.default.contents(atPath: manifest) else {
            throw LoadError(description: "no sign set in \(folder): build it with its script (scripts/make-*-set.sh)")
        }
        var set = try JSONDecoder().decode(SignSet.self, from: data)
        guard set.generatorVersion == expectedVersion else {
            throw LoadError(
                description: "sign set in \(folder) is version \(set.generatorVersion), expected \(expectedVersion): "
                    + "run the script that made it again")
        }
        set.folder = folder
        return set
    }

    /// Calls `body` with each frame of `clip` as an ``AnalysisFrame`` (I420 at the clip's size), in order.
    func forEachFrame(of clip: Clip, _ body: (AnalysisFrame) throws -> Void) throws {
        let path = (folder as NSString).appendingPathComponent(clip.file)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "\(path) is missing")
        }
        let image = OwnedYUVImage(layout: .i420, width: clip.width, height: clip.height)
        let lumaBytes = clip.width * clip.height
        let chromaBytes = ((clip.width + 1) / 2) * ((clip.height + 1) / 2)
        let frameBytes = lumaBytes + 2 * chromaBytes
        precondition(data.count >= frameBytes * clip.frameCount, "\(clip.file) is shorter than its frame count")
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            for index in 0..<clip.frameCount {
                let frameStart = raw.baseAddress! + index * frameBytes
                try image.withPlanes { planes in
                    copy(frameStart, into: planes.y)
                    copy(frameStart + lumaBytes, into: planes.u)
                    copy(frameStart + lumaBytes + chromaBytes, into: planes.v)
                    let pts = Duration.milliseconds(Int64((Double(index) * clip.frameStep * 1000).rounded()))
                    try body(AnalysisFrame(
                        pts: pts, frameIndex: index, planes: planes, sourceWidth: clip.width,
                        sourceHeight: clip.height))
                }
            }
        }
    }

    private func copy(_ source: UnsafeRawPointer, into plane: Plane) {
        for row in 0..<plane.height {
            plane.row(row).update(
                from: source.advanced(by: row * plane.width).assumingMemoryBound(to: UInt8.self), count: plane.width)
        }
    }
}
