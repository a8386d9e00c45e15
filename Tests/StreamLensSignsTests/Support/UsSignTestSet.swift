import Foundation
import StreamLensCore
@testable import StreamLensSigns

/// The generated US sign set (scripts/make-us-sign-testset.sh, R2-1 plates pasted into bikes.mp4): same format as
/// ``SignTestSet``, its own folder and generator.
enum UsSignTestSet {
    /// Bump together with GENERATOR_VERSION in scripts/make-us-sign-testset.py.
    static let expectedGeneratorVersion = 1

    /// `STREAMLENS_US_SIGN_TESTSET`, else `<repo>/.media-cache/us-sign-testset`.
    static var folder: String {
        if let folder = ProcessInfo.processInfo.environment["STREAMLENS_US_SIGN_TESTSET"], !folder.isEmpty {
            return folder
        }
        return SignTestSet.repository.appendingPathComponent(".media-cache/us-sign-testset").path
    }

    /// The set, brought up to date once per test run by its script (at once when it is current).
    static let shared: Result<SignTestSet, any Error> = Result {
        try runGenerator()
        return try SignTestSet.load(folder: folder, expectedVersion: expectedGeneratorVersion)
    }

    private static func runGenerator() throws {
        let script = SignTestSet.repository.appendingPathComponent("scripts/make-us-sign-testset.sh").path
        guard FileManager.default.fileExists(atPath: script) else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
            throw SignTestSet.LoadError.generatorFailed(lines.last.map(String.init) ?? "exit \(process.terminationStatus)")
        }
    }

    /// Runs a fresh US-profile ``SpeedLimitStage`` over every frame of `clip` of `set`; returns its events and adds
    /// its OCR durations to `timings`.
    static func usEvents(
        of clip: SignTestSet.Clip, in set: SignTestSet, poolingTimingsInto timings: OCRTimings
    ) throws -> [SpeedLimitEvent] {
        let capture = try EventCapture()
        let stage = SpeedLimitStage(
            configuration: SpeedLimitConfiguration(profile: .unitedStates), events: capture.log)
        var lastPTS = Duration.zero
        try set.forEachFrame(of: clip) { frame in
            _ = try stage.analyze(frame)
            lastPTS = frame.pts
        }
        stage.finish(at: lastPTS)
        for sample in stage.ocrTimings.samples() { timings.record(sample) }
        return try capture.events()
    }
}
