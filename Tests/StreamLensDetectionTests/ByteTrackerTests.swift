import StreamLensCore
import Testing

@testable import StreamLensDetection

@Suite("ByteTrack tracker")
struct ByteTrackerTests {
    static func tracker(_ configure: (inout TrackerConfiguration) -> Void = { _ in }) -> ByteTracker {
        var configuration = TrackerConfiguration()
        configure(&configuration)
        return ByteTracker(configuration: configuration)
    }

    static func car(_ x: Double, _ y: Double, confidence: Double = 0.9) -> Detection {
        Detection(box: box(x, y, 40, 80), className: "car", classID: 2, confidence: confidence)
    }

    @Test(
        "The drawn box: the second sighting as found, then α·detected + (1 − α)·predicted",
        arguments: [0.35, 0.5, 1.0])
    func smoothing(alpha: Double) {
        let tracker = Self.tracker { $0.smoothing = alpha }
        _ = tracker.update([person(0, 0, 100, 100)], at: .zero)
        let second = tracker.update([person(10, 20, 100, 120)], at: .seconds(1))
        #expect(second.visible.first?.box == box(10, 20, 100, 120))
        // The prediction the third sighting is blended with: the filter after the first two, one second on.
        var filter = KalmanBoxFilter(box: box(0, 0, 100, 100))
        filter.predict(by: 1)
        filter.update(with: box(10, 20, 100, 120))
        let predicted = filter.predicted(by: 1)
        let third = tracker.update([person(20, 20, 100, 100)], at: .seconds(2))
        let expected = ByteTracker.blend(predicted, box(20, 20, 100, 100), alpha: alpha)
        let drawn = try! #require(third.visible.first).box
        #expect(abs(drawn.x - expected.x) < 1e-9 && abs(drawn.y - expected.y) < 1e-9)
        #expect(abs(drawn.width - expected.width) < 1e-9 && abs(drawn.height - expected.height) < 1e-9)
        if alpha == 1 { #expect(drawn == box(20, 20, 100, 100)) }
        // The raw observation is kept as found for events.
        #expect(third.observed.first?.box == box(20, 20, 100, 100))
    }

    @Test("A steady walker's drawn box does not trail it from the second analysis on")
    func noTrailing() throws {
        let tracker = Self.tracker()
        var errors: [Double] = []
        for step in 0..<12 {
            // 20 px per 0.3 s: a 40 px wide walker overlaps its last box by IoU 0.33.
            let x = 100 + Double(step) * 20
            let update = tracker.update([person(x, 100)], at: .milliseconds(300 * step))
            let shown = try #require(update.visible.first)
            #expect(shown.trackID == 1)
            errors.append(shown.box.x - x)
        }
        // A plain moving average (α 0.35) would settle 20 · 0.65 / 0.35 ≈ 37 px behind.
        #expect(errors.prefix(2).allSatisfy { $0 == 0 }, "\(errors)")
        #expect(errors.allSatisfy { abs($0) < 4 }, "\(errors)")
        #expect(errors.suffix(6).allSatisfy { abs($0) < 1 }, "\(errors)")
    }

    /// Two walkers pass each other on nearly the same line: their boxes overlap almost wholly at the crossing, and
    /// at the next analysis each is nearer the other's last box than its own. Only the motion model tells them apart.
    @Test("Two people crossing keep their ids")
    func crossingKeepsIDs() {
        let tracker = Self.tracker()
        for step in 0..<14 {
            // 30 px per 0.3 s towards each other, 40 px wide, rows 6 px apart: they meet between steps 6 and 7.
            let left = person(100 + Double(step) * 30, 100)
            let right = person(490 - Double(step) * 30, 106)
            let update = tracker.update([left, right], at: .milliseconds(300 * step))
            #expect(update.observed.map(\.trackID) == [1, 2], "step \(step)")
        }
        #expect(tracker.tracksStarted == 2)
    }

    /// The one in front hides the other while they pass: the one behind is not detected for two analyses, during which
    /// the front one's box sits where the hidden one's was going. It must come back with its own id.
    @Test("Two people crossing at different speeds, one hidden behind the other, keep their ids")
    func crossingWithOcclusionKeepsIDs() {
        let tracker = Self.tracker()
        for step in 0..<16 {
            // 30 px and 20 px per 0.3 s towards each other on the same line: they meet at step 6 (x 280 and 290).
            let fast = person(100 + Double(step) * 30, 100)
            let slow = person(410 - Double(step) * 20, 100)
            let hidden = (6...7).contains(step)
            let update = tracker.update(hidden ? [fast] : [fast, slow], at: .milliseconds(300 * step))
            #expect(update.observed.map(\.trackID) == (hidden ? [1] : [1, 2]), "step \(step)")
        }
        #expect(tracker.tracksStarted == 2)
    }

    @Test("An object moving more than its width per analysis is linked at its second sighting")
    func fastObject() {
        let tracker = Self.tracker()
        _ = tracker.update([person(0, 300)], at: .zero)
        // A car-sized box passing at 50 px per 0.3 s: consecutive boxes 40 px wide do not overlap at all.
        for step in 0..<8 {
            let update = tracker.update([Self.car(100 + Double(step) * 50, 100)], at: .milliseconds(300 * (step + 1)))
            #expect(update.observed.map(\.trackID) == [step == 0 ? nil : 2], "step \(step)")
        }
    }

    @Test("An occlusion within the re-identification window keeps the id; after it the object gets a new one")
    func reidentificationWindow() {
        // The window bounds it here (max missed is far away): 2 s.
        let tracker = Self.tracker {
            $0.reidentificationWindow = .seconds(2)
            $0.maxMissedAnalyses = 100
        }
        // Walks right at 100 px/s, analysed every 0.3 s; hidden behind something for 5 analyses (1.5 s).
        func walker(_ step: Int) -> Detection { person(100 + 30 * Double(step), 100) }
        for step in 0..<5 { _ = tracker.update([walker(step)], at: .milliseconds(300 * step)) }
        for step in 5..<10 {
            let hidden = tracker.update([], at: .milliseconds(300 * step))
            // Held and drawn at its predicted place for one miss, then kept but not drawn.
            #expect(hidden.visible.map(\.trackID) == (step == 5 ? [1] : []), "step \(step)")
            if step == 5 { #expect(abs(hidden.visible[0].box.x - walker(5).box.x) < 3) }
            #expect(hidden.finished.isEmpty)
        }
        // Out again where it would be by now, 1.8 s after it was last seen: the same id.
        #expect(tracker.update([walker(10)], at: .milliseconds(3000)).observed.map(\.trackID) == [1])
        // Hidden again for 2.1 s (7 analyses): the track ends when the window has passed...
        var ended: [FinishedTrack] = []
        for step in 11...17 { ended += tracker.update([], at: .milliseconds(300 * step)).finished }
        #expect(ended.map(\.trackID) == [1] && ended.first?.reason == .lost)
        #expect(ended.first?.end == .milliseconds(3000) && ended.first?.observations == 6)
        // ...and the walker coming out where predicted starts a new track (confirmed at its second sighting).
        #expect(tracker.update([walker(18)], at: .milliseconds(5400)).observed.map(\.trackID) == [nil])
        #expect(tracker.update([walker(19)], at: .milliseconds(5700)).observed.map(\.trackID) == [2])
    }

    @Test("Max missed analyses ends a track within the window too")
    func maxMissed() {
        let tracker = Self.tracker { $0.maxMissedAnalyses = 3 }
        _ = tracker.update([person(100, 100)], at: .zero)
        for step in 1...3 { #expect(tracker.update([], at: .milliseconds(300 * step)).finished.isEmpty) }
        let end = tracker.update([], at: .milliseconds(1200))
        #expect(end.finished.map(\.trackID) == [1] && end.finished.first?.reason == .lost)
    }

    @Test("A low-confidence box continues a track but never starts one")
    func lowConfidence() {
        let tracker = Self.tracker()
        // Alone, on the first frame and after: no track, nothing shown.
        var update = tracker.update([], lowConfidence: [person(300, 100, confidence: 0.3)], at: .zero)
        #expect(update.visible.isEmpty && update.observed.isEmpty && tracker.liveTrackCount == 0)
        update = tracker.update([person(100, 100)], lowConfidence: [person(300, 100, confidence: 0.3)], at: .milliseconds(300))
        #expect(update.observed.count == 1 && tracker.liveTrackCount == 1)
        _ = tracker.update([person(110, 100)], at: .milliseconds(600))
        #expect(tracker.tracksStarted == 1)
        // The walker's score drops (half hidden): the low box continues its track, shown with its own score.
        for step in 3..<6 {
            let low = person(100 + 10 * Double(step - 1), 100, confidence: 0.25)
            update = tracker.update([], lowConfidence: [low], at: .milliseconds(300 * step))
            #expect(update.observed.map(\.trackID) == [1] && update.observed.first?.confidence == 0.25)
            #expect(update.visible.map(\.trackID) == [1])
        }
        #expect(tracker.tracksStarted == 1 && tracker.liveTrackCount == 1)
        // A low box where no track is expected is not a track.
        update = tracker.update([person(150, 100)], lowConfidence: [person(500, 300, confidence: 0.4)], at: .milliseconds(1800))
        #expect(update.observed.map(\.trackID) == [1] && tracker.liveTrackCount == 1)
    }

    @Test("Low-confidence boxes do not bring back a lost track (only confident ones do)")
    func lowConfidenceDoesNotReidentify() {
        let tracker = Self.tracker()
        _ = tracker.update([person(100, 100)], at: .zero)
        _ = tracker.update([], at: .milliseconds(300))
        let update = tracker.update([], lowConfidence: [person(100, 100, confidence: 0.3)], at: .milliseconds(600))
        #expect(update.observed.isEmpty && update.visible.isEmpty)
        #expect(tracker.update([person(100, 100)], at: .milliseconds(900)).observed.map(\.trackID) == [1])
    }

    @Test("A car never continues a person's track, even on the person's predicted box")
    func classConsistency() {
        let tracker = Self.tracker()
        _ = tracker.update([person(100, 100), Self.car(400, 100)], at: .zero)
        // The person vanishes; a car appears exactly where the person was: it starts its own (tentative) track.
        let swapped = tracker.update([Self.car(100, 100), Self.car(400, 100)], at: .milliseconds(300))
        #expect(swapped.observed.map(\.trackID) == [nil, 2])
        let confirmed = tracker.update([Self.car(100, 100), Self.car(400, 100)], at: .milliseconds(600))
        #expect(confirmed.observed.map(\.trackID) == [3, 2])
        // The person comes back over the car's box: still track 1.
        let back = tracker.update([person(100, 100), Self.car(100, 100)], at: .milliseconds(900))
        #expect(back.observed.map(\.trackID) == [1, 3])
        #expect(back.visible.allSatisfy { ($0.trackID == 1) == ($0.className == "person") })
    }

    @Test("A one-frame false detection never gets an id; the first analysed frame's objects are shown at once")
    func confirmation() {
        let tracker = Self.tracker()
        let first = tracker.update([person(100, 100), person(300, 100)], at: .zero)
        #expect(first.visible.map(\.trackID).sorted { $0! < $1! } == [1, 2])
        // A flash at 600, 100 for one analysis: tentative, not shown; it waits for a second sighting and ends with
        // the window (3 s), never reported.
        let flash = tracker.update([person(100, 100), person(300, 100), person(600, 100)], at: .milliseconds(300))
        #expect(flash.observed.map(\.trackID) == [1, 2, nil] && flash.visible.count == 2)
        let after = tracker.update([person(100, 100), person(300, 100)], at: .milliseconds(600))
        #expect(after.finished.isEmpty && after.visible.count == 2 && tracker.tracksStarted == 2)
        var time = Duration.milliseconds(600)
        while time < .milliseconds(3900) {
            time += .milliseconds(300)
            #expect(tracker.update([person(100, 100), person(300, 100)], at: time).finished.isEmpty)
        }
        #expect(tracker.liveTrackCount == 2 && tracker.tracksStarted == 2)
        // Someone seen twice, not in a row (HOG's walkers): shown from the second sighting with the next id.
        _ = tracker.update([person(100, 100), person(300, 100), person(600, 100)], at: .milliseconds(4200))
        _ = tracker.update([person(100, 100), person(300, 100)], at: .milliseconds(4500))
        let again = tracker.update([person(100, 100), person(300, 100), person(600, 100)], at: .milliseconds(4800))
        #expect(again.observed.map(\.trackID) == [1, 2, 3])
        // With confirmation at one sighting, every detection is shown at once.
        let eager = Self.tracker { $0.confirmationHits = 1 }
        _ = eager.update([person(100, 100)], at: .zero)
        #expect(eager.update([person(100, 100), person(600, 100)], at: .seconds(1)).visible.count == 2)
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
        _ = tracker.update([person(0, 0, confidence: 0.95), person(300, 0, confidence: 0.6)], at: .zero)
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

    @Test("finishAll ends every confirmed track with its times; tentative ones end unreported")
    func finishAll() {
        let tracker = Self.tracker()
        _ = tracker.update([person(0, 0), person(200, 0)], at: .seconds(1))
        _ = tracker.update([person(0, 0), person(600, 0)], at: .seconds(2))
        let finished = tracker.finishAll(at: .seconds(3))
        #expect(finished.map(\.trackID) == [1, 2])
        #expect(finished.map(\.end) == [.seconds(2), .seconds(1)])
        #expect(finished.allSatisfy { $0.reason == .streamEnded && $0.wasShown })
        #expect(tracker.liveTrackCount == 0)
    }
}
