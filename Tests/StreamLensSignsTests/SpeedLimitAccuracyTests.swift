import Foundation
import StreamLensCore
import Testing

@testable import StreamLensSigns

/// Runs the stage over the generated test set (real bikes.mp4 frames with rendered signs and distractors) and scores
/// its events against the ground truth.
struct SpeedLimitAccuracyTests {
    /// Signs at least this large (pixels across) and visible this long (seconds) count for recall.
    static let countedSize = 40
    static let countedSeconds = 0.5

    struct ClipOutcome: Sendable {
        var clip: String
        var kind: String
        var events: [SpeedLimitEvent]
        var matchedSigns: [Int]  // indices into the clip's signs
        var falseEvents: [SpeedLimitEvent]
        var missedCounted: [String]
        var countedSigns: Int
    }

    struct Outcome: Sendable {
        var clips: [ClipOutcome]
        var ocrReads: Int
        var ocrMedian: Duration?

        var totalEvents: Int { clips.reduce(0) { $0 + $1.events.count } }
        var falseEvents: Int { clips.reduce(0) { $0 + $1.falseEvents.count } }
        var countedSigns: Int { clips.reduce(0) { $0 + $1.countedSigns } }
        var missedCounted: Int { clips.reduce(0) { $0 + $1.missedCounted.count } }
        var precision: Double { totalEvents == 0 ? 0 : Double(totalEvents - falseEvents) / Double(totalEvents) }
        var recall: Double { countedSigns == 0 ? 0 : Double(countedSigns - missedCounted) / Double(countedSigns) }
    }

    /// The whole set is run once and shared by the tests below.
    static let outcome: Result<Outcome, any Error> = Result { try runTestSet() }

    static func runTestSet() throws -> Outcome {
        let set = try SignTestSet.shared.get()
        let timings = OCRTimings(capacity: 8192)
        // Every clip's OCR durations are pooled for the median.
        let events = try set.speedLimitEvents(ofEach: set.clips, poolingTimingsInto: timings)
        let clips = zip(set.clips, events).map { score(clip: $0, events: $1) }
        let summary = timings.summary()
        return Outcome(clips: clips, ocrReads: summary.count, ocrMedian: summary.median)
    }

    /// Matches each event to at most one ground-truth sign of the same value whose time span and box it overlaps.
    static func score(
        clip: SignTestSet.Clip, events: [SpeedLimitEvent], countedSize: Int = countedSize,
        countedSeconds: Double = countedSeconds
    ) -> ClipOutcome {
        var matched: [Int] = []
        var falseEvents: [SpeedLimitEvent] = []
        for event in events {
            let eventBox = BoundingBox(
                x: Double(event.box[0]), y: Double(event.box[1]), width: Double(event.box[2]),
                height: Double(event.box[3]))
            let match = clip.signs.indices.first { index in
                let sign = clip.signs[index]
                guard !matched.contains(index), sign.value == event.value else { return false }
                let overlapsInTime = event.start <= sign.end + 0.05 && event.end >= sign.start - 0.05
                let overlapsInSpace = sign.boxes.contains { row in
                    let box = BoundingBox(
                        x: Double(row[1]), y: Double(row[2]), width: Double(row[3]), height: Double(row[4]))
                    return box.intersectionOverUnion(eventBox) > 0.3
                }
                return overlapsInTime && overlapsInSpace
            }
            if let match { matched.append(match) } else { falseEvents.append(event) }
        }
        var missed: [String] = []
        var counted = 0
        for (index, sign) in clip.signs.enumerated()
        where sign.maxSize >= countedSize && sign.visibleSeconds >= countedSeconds - 1e-9 {
            counted += 1
            if !matched.contains(index) {
                missed.append("\(sign.value) (\(sign.maxSize) px, \(sign.visibleSeconds) s)")
            }
        }
        return ClipOutcome(
            clip: clip.name, kind: clip.kind, events: events, matchedSigns: matched, falseEvents: falseEvents,
            missedCounted: missed, countedSigns: counted)
    }

    static func report(_ outcome: Outcome) -> String {
        var lines: [String] = []
        for clip in outcome.clips where !clip.falseEvents.isEmpty || !clip.missedCounted.isEmpty {
            let wrong = clip.falseEvents.map { "\($0.value)@\($0.start)-\($0.end) box \($0.box)" }
            lines.append("\(clip.clip): missed \(clip.missedCounted) false \(wrong)")
        }
        let median = outcome.ocrMedian.map { String(format: "%.1f ms", $0.milliseconds) } ?? "n/a"
        lines.append(
            "events \(outcome.totalEvents), false \(outcome.falseEvents), counted signs \(outcome.countedSigns), "
                + "missed \(outcome.missedCounted), precision \(String(format: "%.3f", outcome.precision)), "
                + "recall \(String(format: "%.3f", outcome.recall)), OCR reads \(outcome.ocrReads), median \(median)")
        return lines.joined(separator: "\n")
    }

    @Test func precisionAndRecallOnTheTestSet() throws {
        let outcome = try Self.outcome.get()
        print(Self.report(outcome))
        #expect(outcome.countedSigns >= 30, "the test set should hold enough counted signs")
        #expect(outcome.precision >= 0.99, "\(Self.report(outcome))")
        #expect(outcome.recall >= 0.95, "\(Self.report(outcome))")
    }

    @Test func distractorsProduceNoEvent() throws {
        let outcome = try Self.outcome.get()
        let distractors = outcome.clips.filter { $0.kind == "distractor" }
        #expect(distractors.count >= 10)
        for clip in distractors {
            #expect(clip.events.isEmpty, "\(clip.clip) produced \(clip.events)")
        }
    }

    @Test func aStillImageYieldsItsEvent() throws {
        let outcome = try Self.outcome.get()
        let stills = outcome.clips.filter { $0.kind == "still" }
        #expect(stills.count >= 3)
        for still in stills {
            #expect(still.events.count == 1 && still.falseEvents.isEmpty, "\(still.clip): \(still.events)")
            #expect(still.events.first.map { $0.start == 0 && $0.end == 0 } ?? false)
        }
    }
}
