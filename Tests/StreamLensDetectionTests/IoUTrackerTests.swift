import StreamLensCore
import Testing

@testable import StreamLensDetection

@Suite("IoU tracker")
struct IoUTrackerTests {
    static func tracker(_ configure: (inout TrackerConfiguration) -> Void = { _ in }) -> IoUTracker {
        var configuration = TrackerConfiguration()
        configure(&configuration)
        return IoUTracker(configuration: configuration)
    }

    @Test(
        "EMA box smoothing, to the exact value",
        arguments: [
            // α, second observation, expected box after it
            (0.35, box(10, 20, 100, 120), box(3.5, 7, 100, 107)),
            (0.5, box(10, 20, 100, 120), box(5, 10, 100, 110)),
            (1.0, box(10, 20, 100, 120), box(10, 20, 100, 120)),
            (0.25, box(-20, 40, 60, 200), box(-5, 10, 90, 125)),
        ])
    func emaSmoothing(alpha: Double, observed: BoundingBox, expected: BoundingBox) {
        let tracker = Self.tracker {
            $0.smoothing = alpha
            $0.matchThreshold = 0.01
            $0.motionSmoothing = 0  // plain EMA: no motion prior
        }
        _ = tracker.update([person(0, 0, 100, 100)], at: .zero)
        let update = tracker.update([person(observed.x, observed.y, observed.width, observed.height)], at: .seconds(1))
        let smoothed = try! #require(update.visible.first).box
        #expect(abs(smoothed.x - expected.x) < 1e-12)
        #expect(abs(smoothed.y - expected.y) < 1e-12)
        #expect(abs(smoothed.width - expected.width) < 1e-12)
        #expect(abs(smoothed.height - expected.height) < 1e-12)
        // The raw observation is kept unsmoothed for events.
        #expect(update.observed.first?.box == observed)
    }

    @Test(
        "Default smoothing is 0.35 and compounds over frames; with motion, around the predicted box",
        arguments: [
            // motion smoothing, expected box after the second and the third observation
            (0.0, box(3.5, 7, 100, 107), box(9.275, 11.55, 100, 104.55)),  // plain EMA: 0.35·obs + 0.65·previous
            // the second observation is the first displacement: drawn as observed; the centre moved (10, 30) px in
            // 1 s, so the velocity is (10, 30) px/s; prior (10 + 10, 20 + 30) = (20, 50), height 120;
            // y: 0.35·20 + 0.65·50 = 39.5; height: 0.35·100 + 0.65·120 = 113
            (0.5, box(10, 20, 100, 120), box(20, 39.5, 100, 113)),
        ])
    func defaultSmoothingCompounds(motionSmoothing: Double, expectedSecond: BoundingBox, expected: BoundingBox) {
        let tracker = Self.tracker { $0.motionSmoothing = motionSmoothing }
        #expect(tracker.configuration.smoothing == 0.35)
        _ = tracker.update([person(0, 0, 100, 100)], at: .zero)
        let second = tracker.update([person(10, 20, 100, 120)], at: .seconds(1)).visible[0].box
        #expect(abs(second.x - expectedSecond.x) < 1e-12 && abs(second.y - expectedSecond.y) < 1e-12)
        #expect(abs(second.height - expectedSecond.height) < 1e-12)
        let update = tracker.update([person(20, 20, 100, 100)], at: .seconds(2))
        let smoothed = update.visible[0].box
        #expect(abs(smoothed.x - expected.x) < 1e-12)
        #expect(abs(smoothed.y - expected.y) < 1e-12)
        #expect(abs(smoothed.width - expected.width) < 1e-12)
        #expect(abs(smoothed.height - expected.height) < 1e-12)
    }

    @Test("Smoothing around the prediction does not trail a steady walker; a plain EMA does", arguments: [0.5, 0])
    func noTrailingWithMotion(motionSmoothing: Double) {
        let tracker = Self.tracker { $0.motionSmoothing = motionSmoothing }
        var shown = BoundingBox(x: 0, y: 0, width: 0, height: 0)
        for step in 0..<20 {
            shown = tracker.update([person(100 + Double(step) * 15, 100)], at: .milliseconds(300 * step)).visible[0].box
        }
        let lag = (100 + 19 * 15) - shown.x
        // Plain EMA settles at (1 − α)/α × 15 px ≈ 27.9 px behind; the motion prior removes nearly all of it.
        if motionSmoothing > 0 {
            #expect(abs(lag) < 1, "lag \(lag)")
        } else {
            #expect(abs(lag - 15 * 0.65 / 0.35) < 0.1, "lag \(lag)")
        }
    }

    /// A track's first analyses: the box started at rest and trailed a walker by 0.65 of a step at its second
    /// analysis, settling over several (a 120 px/s square at 0.3 s was drawn 17–28 px behind for 2.5 s).
    @Test("A new track's box does not trail a steady walker from its second analysis on")
    func noTrailingFromTheSecondAnalysis() {
        let tracker = Self.tracker()
        for step in 0..<8 {
            let x = 100 + Double(step) * 36
            let shown = tracker.update([person(x, 100)], at: .milliseconds(300 * step)).visible[0].box
            #expect(abs(shown.x - x) < 0.5, "analysis \(step): drawn at \(shown.x), the walker at \(x)")
        }
    }

    @Test("Ids stay with their objects while two people walk past each other")
    func idsStableWhileCrossing() {
        let tracker = Self.tracker()
        var idOfLeftWalker: Int?
        var idOfRightWalker: Int?
        for step in 0..<10 {
            // One walks right, the other left, 12 px per analysis, on different rows so boxes overlap partly.
            let left = person(100 + Double(step) * 12, 100)
            let right = person(260 - Double(step) * 12, 120)
            let update = tracker.update([left, right], at: .milliseconds(300 * step))
            let ids = update.observed.map(\.trackID)
            if step == 0 {
                idOfLeftWalker = ids[0]
                idOfRightWalker = ids[1]
            }
            #expect(ids == [idOfLeftWalker, idOfRightWalker], "step \(step)")
        }
        #expect(idOfLeftWalker == 1 && idOfRightWalker == 2)
        #expect(tracker.tracksStarted == 2)
    }

    @Test("Motion prediction keeps a walker that speeds up; without it the walker gets new ids", arguments: [0.5, 0])
    func motionPrediction(motionSmoothing: Double) {
        let tracker = Self.tracker {
            $0.motionSmoothing = motionSmoothing
            $0.matchThreshold = 0.3
        }
        // 10 px per 0.3 s for three analyses, then 25 px per analysis: a 40 px wide box overlaps its previous
        // position by only IoU 0.23 at that speed, below the 0.3 match threshold set here.
        var x = 100.0
        var ids: [Int] = []
        for step in 0..<10 {
            x += step < 3 ? 10 : 25
            ids.append(tracker.update([person(x, 100)], at: .milliseconds(300 * step)).observed[0].trackID!)
        }
        if motionSmoothing > 0 {
            #expect(ids == Array(repeating: 1, count: 10))
        } else {
            #expect(ids == [1, 1, 1, 2, 3, 4, 5, 6, 7, 8])
        }
    }

    @Test("A short occlusion keeps the id; the held box is shown for one missed analysis; a long one ends the track")
    func occlusion() {
        let tracker = Self.tracker { $0.maxMissedAnalyses = 3 }
        _ = tracker.update([person(100, 100)], at: .zero)
        // Occluded for 3 analyses: shown at the last smoothed box after the first miss, then kept but not shown
        // (a frozen box where the person was is wrong once they moved on).
        for step in 1...3 {
            let update = tracker.update([], at: .milliseconds(300 * step))
            #expect(update.visible.map(\.trackID) == (step == 1 ? [1] : []))
            if step == 1 { #expect(update.visible.first?.box == box(100, 100, 40, 80)) }
            #expect(update.finished.isEmpty)
        }
        // Back, a little further on: same id.
        let back = tracker.update([person(106, 100)], at: .milliseconds(1200))
        #expect(back.observed.map(\.trackID) == [1])
        // Now gone for 4 analyses: the 4th miss ends it.
        for step in 5...7 { #expect(tracker.update([], at: .milliseconds(300 * step)).finished.isEmpty) }
        let end = tracker.update([], at: .milliseconds(2400))
        #expect(end.visible.isEmpty)
        #expect(end.finished.map(\.trackID) == [1])
        #expect(end.finished.first?.reason == .lost)
        #expect(end.finished.first?.start == .zero)
        #expect(end.finished.first?.end == .milliseconds(1200))
        #expect(end.finished.first?.observations == 2)
        // Reappearing afterwards is a new track.
        #expect(tracker.update([person(106, 100)], at: .milliseconds(2700)).observed.map(\.trackID) == [2])
    }

    @Test("At most maxConcurrent detections, the most confident")
    func concurrencyCap() {
        let tracker = Self.tracker { $0.maxConcurrent = 3 }
        let crowd = (0..<6).map { person(Double($0) * 100, 0, confidence: 0.5 + Double($0) * 0.08) }
        let update = tracker.update(crowd, at: .zero)
        #expect(update.visible.map(\.trackID) == [6, 5, 4])
        #expect(tracker.liveTrackCount == 6)
    }

    @Test("Held tracks rank below tracks seen in this frame")
    func heldTracksRankLower() {
        let tracker = Self.tracker { $0.maxConcurrent = 1 }
        _ = tracker.update([person(0, 0, confidence: 0.95)], at: .zero)
        let update = tracker.update([person(300, 0, confidence: 0.6)], at: .seconds(1))
        #expect(update.visible.map(\.trackID) == [2])
    }

    @Test("Tracks unseen for longer than max age expire even without analyses")
    func maxAge() {
        let tracker = Self.tracker { $0.maxAge = .seconds(30) }
        _ = tracker.update([person(0, 0)], at: .seconds(5))
        #expect(tracker.advance(to: .seconds(35)).visible.count == 1)
        let update = tracker.advance(to: .milliseconds(35_001))
        #expect(update.visible.isEmpty)
        #expect(update.finished.map(\.reason) == [.expired])
    }

    @Test("Primary-subject mode locks onto the largest box until its track ends")
    func primarySubject() {
        let tracker = Self.tracker {
            $0.primarySubjectOnly = true
            $0.maxMissedAnalyses = 0
            $0.matchThreshold = 0.2
        }
        let small = person(0, 0, 40, 80)
        let large = person(300, 0, 60, 120)
        #expect(tracker.update([small, large], at: .zero).visible.map(\.trackID) == [2])
        // The small one grows past the locked one (9800 px² against 7200): the lock holds.
        let grown = person(0, 0, 70, 140)
        #expect(tracker.update([grown, large], at: .seconds(1)).visible.map(\.trackID) == [2])
        // The locked subject leaves: the lock moves to the largest remaining one.
        let update = tracker.update([grown], at: .seconds(2))
        #expect(update.finished.map(\.trackID) == [2])
        #expect(update.visible.map(\.trackID) == [1])
    }

    @Test("Different classes never share a track")
    func classesKeptApart() {
        let tracker = Self.tracker()
        var car = person(0, 0)
        car.className = "car"
        let update = tracker.update([person(0, 0), car], at: .zero)
        #expect(Set(update.observed.compactMap(\.trackID)) == [1, 2])
        let next = tracker.update([car, person(2, 0)], at: .seconds(1))
        #expect(next.observed.map(\.trackID) == [2, 1])
    }

    @Test("finishAll ends every live track with its times")
    func finishAll() {
        let tracker = Self.tracker()
        _ = tracker.update([person(0, 0), person(200, 0)], at: .seconds(1))
        _ = tracker.update([person(0, 0)], at: .seconds(2))
        let finished = tracker.finishAll(at: .seconds(3))
        #expect(finished.map(\.trackID) == [1, 2])
        #expect(finished.map(\.end) == [.seconds(2), .seconds(1)])
        #expect(finished.allSatisfy { $0.reason == .streamEnded && $0.wasShown })
        #expect(tracker.liveTrackCount == 0)
    }
}
