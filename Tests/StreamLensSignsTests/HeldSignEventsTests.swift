import StreamLensCore
import Testing

@testable import StreamLensSigns

/// A sign whose track broke in two is written once, over its whole span: its event waits while a later piece may
/// still come (a sign re-found as a new track after a scene cut was written for 0.24 s of its 1.2 s in view).
struct HeldSignEventsTests {
    static func box(_ x: Double, _ size: Double = 40) -> BoundingBox {
        BoundingBox(x: x, y: 300, width: size, height: size)
    }

    static func event(_ value: Int, _ start: Double, _ end: Double, reads: Int, box: BoundingBox) -> SpeedLimitEvent {
        SpeedLimitEvent(value: value, unit: "km/h", start: start, end: end, confidence: 0.9, box: box.rounded, reads: reads)
    }

    /// A 40 seen 6.72–6.96 s, decided and held.
    static func heldForty() -> (HeldSignEvents, RecentSigns, SpeedLimitEvent) {
        var recent = RecentSigns(maximumGap: .milliseconds(400))
        var held = HeldSignEvents()
        let first = event(40, 6.72, 6.96, reads: 4, box: box(400))
        guard case .newSign(let sign) = recent.place(
            value: 40, firstSeen: .milliseconds(6720), lastSeen: .milliseconds(6960), firstBox: box(388, 30),
            lastBox: box(400))
        else { fatalError("a first sign is new") }
        held.hold(first, sign: sign)
        return (held, recent, first)
    }

    /// A track that came at 7.2 s next to where the 40 was last seen, confirmed as `value` (nil: undecided).
    static func openTrack(confirmed value: Int?) -> SignTrack {
        var track = SignTrack(
            id: 13, pts: .milliseconds(7200), analysisBox: box(404, 46), sourceBox: box(404, 46), readCapacity: 10)
        if let value { track.confirm(value, at: .milliseconds(7280)) }
        return track
    }

    @Test func anEventWaitsForTheLaterPieceOfItsSignAndSpansBoth() {
        var (held, recent, _) = Self.heldForty()
        var written: [SpeedLimitEvent] = []
        // The sign's second piece is in view, confirmed 40: the event waits, however long the piece lasts.
        held.release(at: .milliseconds(7600), openTracks: [Self.openTrack(confirmed: 40)], recentSigns: recent) {
            written.append($0)
        }
        #expect(written.isEmpty)
        // The piece closes with 12 reads, seen 7.2–7.76 s: one event over both.
        guard case .pieceOf(let sign) = recent.place(
            value: 40, firstSeen: .milliseconds(7200), lastSeen: .milliseconds(7760), firstBox: Self.box(404, 46),
            lastBox: Self.box(462, 100))
        else {
            Issue.record("the second piece is a piece of the first sign")
            return
        }
        let piece = Self.event(40, 7.2, 7.76, reads: 8, box: Self.box(462, 100))
        let joined = held.join(piece, toSign: sign)
        #expect(joined)
        held.release(at: .milliseconds(8160), openTracks: [], recentSigns: recent) { written.append($0) }
        #expect(written.count == 1)
        #expect(written.first?.start == 6.72 && written.first?.end == 7.76 && written.first?.reads == 12)
        #expect(written.first?.box == Self.box(462, 100).rounded, "the nearer sighting's box")
        // A piece after the event was written is not joined (the sign is in the file).
        let joinedAfterWriting = held.join(piece, toSign: sign)
        #expect(!joinedAfterWriting)
    }

    @Test func anEventIsWrittenOnceNoOpenTrackMayLengthenIt() {
        var written: [SpeedLimitEvent] = []
        func release(at ms: Int, _ tracks: [SignTrack], _ held: inout HeldSignEvents, _ recent: RecentSigns) {
            held.release(at: .milliseconds(ms), openTracks: tracks, recentSigns: recent) { written.append($0) }
        }
        // A track there confirmed as another value: written.
        var (held, recent, first) = Self.heldForty()
        release(at: 7600, [Self.openTrack(confirmed: 60)], &held, recent)
        #expect(written == [first])
        // An undecided track there holds it for a while, then no more.
        written.removeAll()
        (held, recent, first) = Self.heldForty()
        release(at: 7600, [Self.openTrack(confirmed: nil)], &held, recent)
        #expect(written.isEmpty)
        release(at: 7200 + 801, [Self.openTrack(confirmed: nil)], &held, recent)
        #expect(written == [first])
        // The end of the stream writes whatever is held.
        written.removeAll()
        (held, recent, first) = Self.heldForty()
        held.release(at: nil, openTracks: [Self.openTrack(confirmed: 40)], recentSigns: recent) { written.append($0) }
        #expect(written == [first])
    }
}
