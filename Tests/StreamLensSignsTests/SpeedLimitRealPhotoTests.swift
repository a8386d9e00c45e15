import Foundation
import StreamLensCore
import Testing

@testable import StreamLensSigns

/// Runs the stage over real photographs of real signs (GTSRB) pasted into real footage (bikes-1080p.mp4,
/// vtest.avi) by scripts/datasets/make-real-sign-set.sh, plus real prohibitory signs that are not speed limits and the
/// footage alone. GTSRB may not be committed, so the set exists only where someone built it; without it these
/// tests are skipped with a line saying how to build it.
///
/// `STREAMLENS_REAL_SIGN_SET` (default `<repo>/.media-cache/gtsrb`) names the set; `STREAMLENS_REAL_SIGN_SPLIT`
/// picks `heldout` (default: the half nobody tuned on) or `dev`. The second and third real sets
/// (scripts/datasets/make-road-sign-photo-set.sh, scripts/datasets/make-gtsdb-sign-set.sh: other photographs, all held out) have the
/// same format and are run by pointing `STREAMLENS_REAL_SIGN_SET` at them.
struct SpeedLimitRealPhotoTests {
    static let expectedGeneratorVersion = SignTestSet.Version.realPhoto
    /// Signs at least this large (pixels across) and visible this long (seconds) count for recall.
    static let countedSize = 32
    static let countedSeconds = 0.5

    static var folder: String {
        let root = ProcessInfo.processInfo.environment["STREAMLENS_REAL_SIGN_SET"].flatMap { $0.isEmpty ? nil : $0 }
            ?? SignTestSet.repository.appendingPathComponent(".media-cache/gtsrb").path
        let split = ProcessInfo.processInfo.environment["STREAMLENS_REAL_SIGN_SPLIT"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "heldout"
        return "\(root)/clips/\(split)"
    }

    static var isPresent: Bool { FileManager.default.fileExists(atPath: "\(folder)/testset.json") }
    static let absentNote: Comment = """
        no real-photo sign set (GTSRB is not committed): build it with scripts/datasets/make-real-sign-set.sh GTSRB_GIT_DIR \
        (MEDIA.md, 'Real sign photographs')
        """

    struct Outcome: Sendable {
        var clips: [SpeedLimitAccuracyTests.ClipOutcome]
        var set: SignTestSet
        var ocrReads: Int
        var ocrMedian: Duration?
    }

    static let outcome: Result<Outcome, any Error> = Result { try evaluate(folder: folder) }

    /// Runs the stage over every clip of the set in `folder` (a real set's clips/<split>).
    static func evaluate(
        folder: String, configuration: SpeedLimitConfiguration = SpeedLimitConfiguration()
    ) throws -> Outcome {
        let set = try SignTestSet.load(folder: folder, expectedVersion: expectedGeneratorVersion)
        let timings = OCRTimings(capacity: 16384)
        var clips: [SpeedLimitAccuracyTests.ClipOutcome] = []
        for clip in set.clips {
            let events = try set.speedLimitEvents(of: clip, configuration: configuration, poolingTimingsInto: timings)
            clips.append(SpeedLimitAccuracyTests.score(
                clip: clip, events: events, countedSize: countedSize, countedSeconds: countedSeconds))
        }
        let summary = timings.summary()
        return Outcome(clips: clips, set: set, ocrReads: summary.count, ocrMedian: summary.median)
    }

    /// Events whose value no sign of their clip shows: wrong limits. (An event with the right value that the scorer
    /// could not place on the sign's boxes and times is not a wrong limit.)
    static func wrongValues(_ clip: SignTestSet.Clip, _ result: SpeedLimitAccuracyTests.ClipOutcome) -> Int {
        result.events.filter { event in !clip.signs.contains { $0.value == event.value } }.count
    }

    /// Recall over counted signs and wrong values, per value of one condition (size, blur or light).
    static func table(_ outcome: Outcome, condition: String, _ key: (SignTestSet.Sign) -> String?) -> [String] {
        var counted: [String: Int] = [:]
        var read: [String: Int] = [:]
        var wrong: [String: Int] = [:]
        for (clip, result) in zip(outcome.set.clips, outcome.clips) where clip.kind == "sign" {
            for (index, sign) in clip.signs.enumerated() {
                let group = key(sign) ?? "?"
                if sign.maxSize >= countedSize && sign.visibleSeconds >= countedSeconds - 1e-9 {
                    counted[group, default: 0] += 1
                    if result.matchedSigns.contains(index) { read[group, default: 0] += 1 }
                }
                wrong[group, default: 0] += wrongValues(clip, result)
            }
        }
        return counted.keys.sorted().map { group in
            let total = counted[group] ?? 0
            let hits = read[group] ?? 0
            let recall = String(format: "%.3f", total == 0 ? 0 : Double(hits) / Double(total))
            let label = group.padding(toLength: 16, withPad: " ", startingAt: 0)
            return "  \(condition) \(label) read \(hits) of \(total) (recall \(recall)), wrong values \(wrong[group] ?? 0)"
        }
    }

    static func report(_ outcome: Outcome, folder: String = folder) -> String {
        var lines = ["real-photo set \(folder):"]
        for clip in outcome.clips where !clip.falseEvents.isEmpty || !clip.missedCounted.isEmpty {
            let unmatched = clip.falseEvents.map { "\($0.value)@\($0.start)-\($0.end)" }
            lines.append("  \(clip.clip): missed \(clip.missedCounted) unmatched events \(unmatched)")
        }
        lines += table(outcome, condition: "size ", { $0.size })
        lines += table(outcome, condition: "blur ", { $0.blur })
        lines += table(outcome, condition: "light", { $0.light })
        let counted = outcome.clips.reduce(0) { $0 + $1.countedSigns }
        let missed = outcome.clips.reduce(0) { $0 + $1.missedCounted.count }
        let events = outcome.clips.reduce(0) { $0 + $1.events.count }
        let wrong = zip(outcome.set.clips, outcome.clips).reduce(0) { $0 + Self.wrongValues($1.0, $1.1) }
        let median = outcome.ocrMedian.map { String(format: "%.1f ms", $0.milliseconds) } ?? "n/a"
        let recall = String(format: "%.3f", counted == 0 ? 0 : Double(counted - missed) / Double(counted))
        let precision = events == 0 ? "n/a" : String(format: "%.3f", Double(events - wrong) / Double(events))
        lines.append(
            "  all: counted \(counted), read \(counted - missed) (recall \(recall)), events \(events), wrong values "
                + "\(wrong) (precision \(precision)), OCR reads \(outcome.ocrReads), median \(median)")
        return lines.joined(separator: "\n")
    }

    @Test(.enabled(if: isPresent, absentNote))
    func realSignsAreReadAndNoneWrongly() throws {
        Self.expectReadAndNoneWrong(try Self.outcome.get(), folder: Self.folder)
    }

    /// The checks every real set's signs get (this suite's and ``UsSpeedLimitRealPhotoTests``'): enough counted signs,
    /// no wrong limit, one event per physical sign, and recall against issue 9's 95 % (a known issue until met).
    static func expectReadAndNoneWrong(_ outcome: Outcome, folder: String) {
        let report = report(outcome, folder: folder)
        print(report)
        let counted = outcome.clips.reduce(0) { $0 + $1.countedSigns }
        let missed = outcome.clips.reduce(0) { $0 + $1.missedCounted.count }
        let wrong = zip(outcome.set.clips, outcome.clips).filter { $0.0.kind == "sign" }
            .reduce(0) { $0 + wrongValues($1.0, $1.1) }
        #expect(counted >= 40, "the real-photo set should hold enough counted signs")
        #expect(wrong == 0, "a wrong limit is worse than none\n\(report)")
        // One physical sign, one event: a track that broke in two must not write the sign twice.
        for (clip, result) in zip(outcome.set.clips, outcome.clips) where clip.kind == "sign" {
            #expect(result.events.count <= clip.signs.count, "\(clip.name) wrote \(result.events.map { "\($0.value)@\($0.start)" })")
        }
        // The target of issue 9. Reached on the second set at 56–150 px, not yet on the others (docs/figures/accuracy.md
        // has the figures): a known issue that some sets pass. It goes once every set reaches it.
        withKnownIssue("recall on real photos is below the 95 % target: see docs/figures/accuracy.md", isIntermittent: true) {
            #expect(Double(counted - missed) >= 0.95 * Double(counted), "\(report)")
        }
    }

    @Test(.enabled(if: isPresent, absentNote))
    func realProhibitorySignsAndSignFreeFootageProduceNoEvent() throws {
        let outcome = try Self.outcome.get()
        let distractors = outcome.clips.filter { $0.kind == "distractor" }
        // Both scenes' footage alone; real prohibitory signs where the source has them (GTSRB and the second set do,
        // GTSDB's cut-outs hold speed limits only).
        #expect(distractors.filter { $0.clip.hasPrefix("background_") }.count == 2, "the sign-free footage should be in the set")
        for clip in distractors {
            #expect(clip.events.isEmpty, "\(clip.clip) produced \(clip.events.map { "\($0.value)@\($0.start)" })")
        }
    }
}
