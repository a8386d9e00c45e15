import Foundation
import Testing

@testable import StreamLensSigns

/// Runs the stage in its US profile over real photographs of US "SPEED LIMIT" signs: frames from a car's dash camera
/// on US roads (scripts/make-us-sign-photo-set.sh), each shown still for about a second with the sign where the camera
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
        scripts/make-us-sign-photo-set.sh DATASET_GIT_DIR (MEDIA.md, 'Real photographs of US signs')
        """

    static let outcome: Result<SpeedLimitRealPhotoTests.Outcome, any Error> = Result {
        try SpeedLimitRealPhotoTests.evaluate(folder: folder, configuration: UsSignTestSet.configuration)
    }

    @Test(.enabled(if: isPresent, absentNote))
    func realUsSignsAreReadAndNoneWrongly() throws {
        let outcome = try Self.outcome.get()
        let report = SpeedLimitRealPhotoTests.report(outcome, folder: Self.folder)
        print(report)
        let counted = outcome.clips.reduce(0) { $0 + $1.countedSigns }
        let missed = outcome.clips.reduce(0) { $0 + $1.missedCounted.count }
        let wrong = zip(outcome.set.clips, outcome.clips).reduce(0) { $0 + SpeedLimitRealPhotoTests.wrongValues($1.0, $1.1) }
        #expect(counted >= 40, "the set should hold enough counted signs")
        #expect(wrong == 0, "a wrong limit is worse than none\n\(report)")
        for (clip, result) in zip(outcome.set.clips, outcome.clips) {
            #expect(result.events.count <= clip.signs.count, "\(clip.name) wrote \(result.events.map { "\($0.value)@\($0.start)" })")
        }
        withKnownIssue("recall on real photos is below the 95 % target: see SIGNS.md", isIntermittent: true) {
            #expect(Double(counted - missed) >= 0.95 * Double(counted), "\(report)")
        }
    }
}
