import Foundation
import StreamLensCore
@testable import StreamLensSigns

/// The generated sign test set (scripts/make-sign-testset.sh): raw I420 clips and their ground truth.
struct SignTestSet: Decodable {
    /// Bump together with GENERATOR_VERSION in scripts/make-sign-testset.py.
    static let expectedGeneratorVersion = 7

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
        var start: Double
        var end: Double
        var visibleSeconds: Double
        var maxSize: Int
        /// `[frameIndex, x, y, width, height]` per frame in which the sign shows.
        var boxes: [[Int]]
        /// Conditions of the real-photo set (scripts/make-real-sign-set.py): size class, blur and light.
        var size: String?
        var blur: String?
        var light: String?

        func box(atFrame index: Int) -> BoundingBox? {
            boxes.first { $0[0] == index }.map {
                BoundingBox(x: Double($0[1]), y: Double($0[2]), width: Double($0[3]), height: Double($0[4]))
            }
        }
    }

    var generatorVersion: Int
    var clips: [Clip]
    var folder: String = ""

    private enum CodingKeys: String, CodingKey { case generatorVersion, clips }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `STREAMLENS_SIGN_TESTSET`, else `<repo>/.media-cache/sign-testset`.
    static var folder: String {
        if let folder = ProcessInfo.processInfo.environment["STREAMLENS_SIGN_TESTSET"], !folder.isEmpty {
            return folder
        }
        return repository.appendingPathComponent(".media-cache/sign-testset").path
    }

    enum LoadError: Error, CustomStringConvertible {
        case missing(String)
        case outdated(found: Int, expected: Int, folder: String)
        case generatorFailed(script: String, message: String)

        var description: String {
            switch self {
            case .missing(let folder):
                "no sign test set in \(folder): run scripts/fetch-media.sh, then scripts/make-sign-testset.sh"
            case .outdated(let found, let expected, let folder):
                "sign test set in \(folder) is version \(found), tests expect \(expected): run the script that made it "
                    + "(scripts/make-sign-testset.sh or scripts/make-real-sign-set.sh)"
            case .generatorFailed(let script, let message):
                "\(script) failed: \(message)"
            }
        }
    }

    /// The test set, brought up to date once per test run by scripts/make-sign-testset.sh (which returns at once
    /// when the set matches the generator and the media, and otherwise rebuilds it in under a minute).
    static let shared: Result<SignTestSet, any Error> = Result {
        try runGenerator()
        return try load()
    }

    /// Runs the set's script (repository-relative path), which returns at once when its set is current.
    static func runGenerator(_ script: String = "scripts/make-sign-testset.sh") throws {
        let path = repository.appendingPathComponent(script).path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
            throw LoadError.generatorFailed(
                script: script, message: lines.last.map(String.init) ?? "exit \(process.terminationStatus)")
        }
    }

    static func load() throws -> SignTestSet {
        try load(folder: Self.folder, expectedVersion: expectedGeneratorVersion)
    }

    /// The set in `folder`, whose generator must be `expectedVersion`.
    static func load(folder: String, expectedVersion: Int) throws -> SignTestSet {
        let manifest = (folder as NSString).appendingPathComponent("testset.json")
        guard let data = FileManager.default.contents(atPath: manifest) else { throw LoadError.missing(folder) }
        var set = try JSONDecoder().decode(SignTestSet.self, from: data)
        guard set.generatorVersion == expectedVersion else {
            throw LoadError.outdated(found: set.generatorVersion, expected: expectedVersion, folder: folder)
        }
        set.folder = folder
        return set
    }

    /// Runs a fresh ``SpeedLimitStage`` (the European profile unless `configuration` says otherwise) over every
    /// frame of `clip`; returns the events it wrote and adds its OCR durations to `timings`.
    func speedLimitEvents(
        of clip: Clip, configuration: SpeedLimitConfiguration = SpeedLimitConfiguration(),
        poolingTimingsInto timings: OCRTimings
    ) throws -> [SpeedLimitEvent] {
        let capture = try EventCapture()
        let stage = SpeedLimitStage(configuration: configuration, events: capture.log)
        var lastPTS = Duration.zero
        try forEachFrame(of: clip) { frame in
            _ = try stage.analyze(frame)
            lastPTS = frame.pts
        }
        stage.finish(at: lastPTS)
        for sample in stage.ocrTimings.samples() { timings.record(sample) }
        return try capture.events()
    }

    /// Calls `body` with each frame of `clip` as an ``AnalysisFrame`` (I420 at the clip's size), in order.
    func forEachFrame(of clip: Clip, _ body: (AnalysisFrame) throws -> Void) throws {
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

    /// Calls `body` with each sign clip's frame where its sign is largest (at least `minimumWidth` px wide), the sign,
    /// and the candidate ``RedRingLocator`` finds on it (skipped when none overlaps the sign).
    func forEachSignAtItsLargest(
        minimumWidth: Int = 48, _ body: (Clip, Sign, AnalysisFrame, RingCandidate) throws -> Void
    ) throws {
        var locator = RedRingLocator()
        for clip in clips where clip.kind == "sign" {
            guard let sign = clip.signs.first, let largest = sign.boxes.max(by: { $0[3] < $1[3] }),
                largest[3] >= minimumWidth
            else { continue }
            try forEachFrame(of: clip) { frame in
                guard frame.frameIndex == largest[0], let truth = sign.box(atFrame: frame.frameIndex) else { return }
                locator.locate(in: frame.planes)
                guard let candidate = locator.candidates.first(where: { $0.box.intersectionOverUnion(truth) > 0.3 })
                else { return }
                try body(clip, sign, frame, candidate)
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
