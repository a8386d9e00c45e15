import Foundation
import Testing

@testable import StreamLensSigns

/// Runs the stage in its US profile over real photographs of US "SPEED LIMIT" signs: frames from a car's dash camera
/// on US roads (scripts/datasets/make-us-sign-photo-set.sh), each shown still for about a second with the sign where the camera
/// saw it. The photographs may not be committed, so the set exists only where someone built it; without it these
/// tests are skipped with a line saying how to build it.
///
/// `STREAMLENS_US_PHOTO_SET` (default `<repo>/.media-cache/us-sign-photos`) names the set.
struct UsSpeedLimitRealPhotoTests {
    static var folder: String {
        let root = ProcessInfo.processInfo.environment["STREAMLENS_US_PHOTO_SET"].flatMap { $0.isEmpty ? nil : $0 }
            ?? SignTestSet.repository.appendingPathComponent(".media-cache/us-sign-photos").path
        return "\(root)/clips/heldout"
    }

    static var isPresent: Bool { FileManager.default.fileExists(atPath: "\(folder)/testset.json") }
    static let absentNote: Comment = """
        no real-photo set of US signs (the photographs are not committed): build it with \
        scripts/datasets/make-us-sign-photo-set.sh DATASET_GIT_DIR (MEDIA.md, 'Real photographs of US signs')
        """

    static let outcome: Result<SpeedLimitRealPhotoTests.Outcome, any Error> = Result {
        try SpeedLimitRealPhotoTests.evaluate(folder: folder, configuration: UsSignTestSet.configuration)
    }

    @Test(.enabled(if: isPresent, absentNote))
    func realUsSignsAreReadAndNoneWrongly() throws {
        SpeedLimitRealPhotoTests.expectReadAndNoneWrong(try Self.outcome.get(), folder: Self.folder)
    }
}
