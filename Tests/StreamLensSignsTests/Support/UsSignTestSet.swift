import Foundation
import StreamLensCore
import StreamLensTestMedia
@testable import StreamLensSigns

/// The generated US sign set (scripts/datasets/make-us-sign-testset.sh, R2-1 plates pasted into bikes.mp4): the format of
/// ``SignTestSet`` in its own folder, from its own generator.
enum UsSignTestSet {
    static let expectedGeneratorVersion = SignSet.Version.unitedStates

    /// `STREAMLENS_US_SIGN_TESTSET`, else `<repo>/.media-cache/us-sign-testset`.
    static var folder: String {
        if let folder = ProcessInfo.processInfo.environment["STREAMLENS_US_SIGN_TESTSET"], !folder.isEmpty {
            return folder
        }
        return SignTestSet.repository.appendingPathComponent(".media-cache/us-sign-testset").path
    }

    /// The set, brought up to date once per test run by its script (at once when it is current).
    static let shared: Result<SignTestSet, any Error> = Result {
        try SignTestSet.runGenerator("scripts/datasets/make-us-sign-testset.sh")
        return try SignTestSet.load(folder: folder, expectedVersion: expectedGeneratorVersion)
    }

    /// The reader's configuration for these signs (`--speed-limits us`).
    static let configuration = SpeedLimitConfiguration(profile: .unitedStates)
}
