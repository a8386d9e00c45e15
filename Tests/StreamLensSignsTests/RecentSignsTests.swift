import StreamLensCore
import Testing

@testable import StreamLensSigns

/// One physical sign, one event: pieces of a broken track are recognised as the sign already written.
struct RecentSignsTests {
    static func box(_ x: Double, _ size: Double = 30) -> BoundingBox {
        BoundingBox(x: x, y: 400, width: size, height: size)
    }

    @Test func piecesOfOneDriftingSignAreOneSign() {
        var recent = RecentSigns(maximumGap: .milliseconds(400))
        // A small sign drifting 32 px per frame, its track broken twice.
        let repeat1 = recent.isRepeat(
            value: 20, firstSeen: .milliseconds(80), lastSeen: .milliseconds(80), firstBox: Self.box(640),
            lastBox: Self.box(640))
        #expect(!repeat1)
        let repeat2 = recent.isRepeat(
            value: 20, firstSeen: .milliseconds(160), lastSeen: .milliseconds(320), firstBox: Self.box(608),
            lastBox: Self.box(544, 34))
        #expect(repeat2)
        // The third piece starts where the second ended: the written sign was extended.
        let repeat3 = recent.isRepeat(
            value: 20, firstSeen: .milliseconds(400), lastSeen: .milliseconds(640), firstBox: Self.box(512, 36),
            lastBox: Self.box(416, 45))
        #expect(repeat3)
    }

    @Test func aPieceAfterMissedFramesMayHaveDriftedFurther() {
        var recent = RecentSigns(maximumGap: .milliseconds(400))
        _ = recent.isRepeat(
            value: 30, firstSeen: .milliseconds(80), lastSeen: .milliseconds(240), firstBox: Self.box(700),
            lastBox: Self.box(640))
        // Two frames missed: 70 px of drift is more than 1.5 sizes but within 1.5 sizes per analysed frame.
        let afterTwo = recent.isRepeat(
            value: 30, firstSeen: .milliseconds(400), lastSeen: .milliseconds(480), firstBox: Self.box(570),
            lastBox: Self.box(540))
        #expect(afterTwo)
        var fresh = RecentSigns(maximumGap: .milliseconds(400))
        _ = fresh.isRepeat(
            value: 30, firstSeen: .milliseconds(80), lastSeen: .milliseconds(240), firstBox: Self.box(700),
            lastBox: Self.box(640))
        // The next analysed frame: 70 px is too far for one frame's drift.
        let afterNone = fresh.isRepeat(
            value: 30, firstSeen: .milliseconds(320), lastSeen: .milliseconds(480), firstBox: Self.box(570),
            lastBox: Self.box(540))
        #expect(!afterNone)
    }

    @Test func aSignStillInViewMayContinueOnlyTheSignLastSeenNearItJustBefore() {
        var recent = RecentSigns(maximumGap: .milliseconds(400))
        let first = recent.place(
            value: 40, firstSeen: .milliseconds(80), lastSeen: .milliseconds(320), firstBox: Self.box(600),
            lastBox: Self.box(640, 40))
        #expect(first == .newSign(id: 0))
        let second = recent.place(
            value: 80, firstSeen: .milliseconds(80), lastSeen: .milliseconds(320), firstBox: Self.box(100),
            lastBox: Self.box(80))
        #expect(second == .newSign(id: 1))
        // Two frames after the 40's last sighting, 60 px on: may be the 40 again (not the 80).
        #expect(recent.mayContinue(0, firstSeen: .milliseconds(480), firstBox: Self.box(700, 44)))
        #expect(!recent.mayContinue(1, firstSeen: .milliseconds(480), firstBox: Self.box(700, 44)))
        // Past the gap, or far from where it was last seen: another sign.
        #expect(!recent.mayContinue(0, firstSeen: .milliseconds(800), firstBox: Self.box(650, 44)))
        #expect(!recent.mayContinue(0, firstSeen: .milliseconds(400), firstBox: Self.box(1200, 44)))
        // Its later piece is placed with it.
        let laterPiece = recent.place(
            value: 40, firstSeen: .milliseconds(480), lastSeen: .milliseconds(800), firstBox: Self.box(700, 44),
            lastBox: Self.box(760, 60))
        #expect(laterPiece == .pieceOf(id: 0))
    }

    @Test func anotherValueOrPlaceOrTimeIsAnotherSign() {
        var recent = RecentSigns(maximumGap: .milliseconds(400))
        let repeat4 = recent.isRepeat(
            value: 50, firstSeen: .zero, lastSeen: .seconds(1), firstBox: Self.box(100), lastBox: Self.box(60, 60))
        #expect(!repeat4)
        // Same time and place, another value: a second sign on the same post.
        let repeat5 = recent.isRepeat(
            value: 70, firstSeen: .zero, lastSeen: .seconds(1), firstBox: Self.box(100), lastBox: Self.box(60, 60))
        #expect(!repeat5)
        // Same value on the other side of the road.
        let repeat6 = recent.isRepeat(
            value: 50, firstSeen: .zero, lastSeen: .seconds(1), firstBox: Self.box(1500), lastBox: Self.box(1600, 60))
        #expect(!repeat6)
        // Same value and place two seconds later: the next sign of a repeated limit.
        let repeat7 = recent.isRepeat(
            value: 50, firstSeen: .seconds(3), lastSeen: .seconds(4), firstBox: Self.box(100), lastBox: Self.box(60, 60))
        #expect(!repeat7)
    }
}

extension RecentSigns {
    /// Whether the sign is a piece of one remembered; if not, it is remembered now.
    mutating func isRepeat(
        value: Int, firstSeen: Duration, lastSeen: Duration, firstBox: BoundingBox, lastBox: BoundingBox
    ) -> Bool {
        if case .pieceOf = place(value: value, firstSeen: firstSeen, lastSeen: lastSeen, firstBox: firstBox, lastBox: lastBox) {
            return true
        }
        return false
    }
}
