import Foundation
import StreamLensCore
import StreamLensTestMedia
@testable import StreamLensSigns

/// The sign sets the tests read (shared with the diagnostics in Tools/StreamLensTestMedia).
typealias SignTestSet = SignSet

extension SignSet {
    static var expectedGeneratorVersion: Int { Version.generated }

    /// `STREAMLENS_SIGN_TESTSET`, else `<repo>/.media-cache/sign-testset`.
    static var folder: String {
        if let folder = ProcessInfo.processInfo.environment["STREAMLENS_SIGN_TESTSET"], !folder.isEmpty {
            return folder
        }
        return repository.appendingPathComponent(".media-cache/sign-testset").path
    }

    /// The generated set, brought up to date once per test run by scripts/datasets/make-sign-testset.sh (which returns at
    /// once when the set matches the generator and the media, and otherwise rebuilds it in under a minute).
    static let shared: Result<SignSet, any Error> = Result {
        try runGenerator("scripts/datasets/make-sign-testset.sh")
        return try load()
    }

    static func load() throws -> SignSet {
        try load(folder: Self.folder, expectedVersion: expectedGeneratorVersion)
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
}
