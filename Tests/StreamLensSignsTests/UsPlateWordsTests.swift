import StreamLensCore
import Testing

@testable import StreamLensSigns

/// The words check on US plates: what a read of the band above the number is judged to say, the band's picture,
/// and a ruled-out plate's track never confirming.
struct UsPlateWordsTests {
    @Test(arguments: [
        // Clean and misread "SPEED LIMIT" (reads seen on the generated set), a thin letter lost or changed.
        ("SPEEDLIMIT", 0.48, UsPlateWords.speedLimit),
        ("SPEEDLMT", 0.48, .speedLimit),
        ("SPEEDLINTT", 0.53, .speedLimit),
        ("SPEECIIT", 0.31, .speedLimit),
        ("SCLINIT", 0.2, .speedLimit),
        ("SFELDLIMIT", 0.45, .speedLimit),  // two letters of a soft "SPEED" misread
        ("IISPEEDLIMITIIL", 0.5, .speedLimit),
        // Other words, confidently read: no speed limit.
        ("NIMUMSPEED", 0.46, .otherWords("NIMUM")),
        ("MINIMUMSPEED", 0.5, .otherWords("MINIMUM")),
        ("WEIGHTLIMIT", 0.6, .otherWords("WEIGHT")),
        ("TRUCKS", 0.6, .otherWords("TRUCKS")),
        ("NIGHT", 0.5, .otherWords("NIGHT")),
        ("SPEEDZONEAHEAD", 0.5, .otherWords("ZONEAHEAD")),
        // Too little or too unsure to tell.
        ("", 0.0, .unreadable),
        // "SPEED" and one word in LIMIT's place: a "LIMIT" misread past two edits (read so on real plates).
        ("SPEEDCRIME", 0.5, .unreadable),
        ("SPEEDJUNAT", 0.5, .unreadable),
        ("ISPEEDAMALT", 0.5, .unreadable),
        ("SPEED", 0.63, .unreadable),
        ("SPEEEWHIT", 0.38, .unreadable),
        ("MINIMUMSPEED", 0.1, .unreadable),
    ])
    func judgesWhatTheWordsSay(text: String, confidence: Double, expected: UsPlateWords) {
        #expect(UsPlateWords.judge(text: text, confidence: confidence) == expected)
    }

    /// Two bars where R2-1 has its words (as UsSignLocatorTests paints them): the picture holds them dark in its
    /// middle, scaled to the band's fixed height, with a white margin all round and the border left out.
    @Test func bandPictureHoldsTheWordRowsStretchedAndFramedInWhite() {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: SyntheticSign.grey)
        var picture = UsPlateWordsPicture()
        let plateBox = BoundingBox(x: 100, y: 40, width: 80, height: 100)
        image.withPlanes { planes in
            UsSignLocatorTests.drawPlate(planes, x: 96, y: 36, width: 88, height: 108)
            picture.prepare(luma: planes.y, plate: plateBox)
        }
        let margin = UsPlateWordsPicture.margin
        #expect(picture.height == UsPlateWordsPicture.bandHeight + 2 * margin)
        // 0.94 of 80 px wide for 0.44 of 100 px high, at the band's scale.
        let bandHeight = Double(UsPlateWordsPicture.bandHeight)
        #expect(abs(picture.width - 2 * margin - Int((0.94 * 80 / 44 * bandHeight).rounded())) <= 1, "\(picture.width)")
        func value(_ x: Int, _ y: Int) -> UInt8 { picture.image[y * picture.width + x] }
        #expect((0..<picture.width).allSatisfy { value($0, 0) == 255 && value($0, picture.height - 1) == 255 })
        // Dark samples exist in the word rows and nowhere in the margins; the paper between them is stretched white.
        let rows = (margin..<(picture.height - margin))
        let darkRows = rows.filter { y in (margin..<(picture.width - margin)).contains { value($0, y) < 60 } }
        // The two bars are 0.23 of the 0.44-high band (painted on a plate 8 % larger than the box).
        #expect(Double(darkRows.count) >= 0.4 * bandHeight, "\(darkRows.count) dark rows")
        #expect(value(picture.width / 2, margin + 2) >= 200, "paper above the first word")
    }

    /// A plate whose number was read in earlier frames but whose words then say "MINIMUM SPEED": its reads are
    /// dropped, no more are asked for, and it is never confirmed.
    @Test func aRuledOutPlateNeverConfirms() {
        var tracker = SignTrackerTests.makeTracker()
        var closed: [SignTrack] = []
        for step in 0..<3 {
            tracker.update(
                pts: .milliseconds(80 * step), sightings: [SignTrackerTests.sighting(x: 100, value: 40)], closed: &closed)
        }
        #expect(tracker.openTracks.first?.reads.count == 3)
        var ruledOut = SignTrackerTests.sighting(x: 101, value: nil)
        ruledOut.words = .otherWords("MINIMUM")
        tracker.update(pts: .milliseconds(240), sightings: [ruledOut], closed: &closed)
        tracker.update(pts: .milliseconds(320), sightings: [SignTrackerTests.sighting(x: 102, value: 40)], closed: &closed)
        let track = tracker.openTracks[0]
        #expect(track.isRuledOut && track.reads.isEmpty && !track.wantsReads)
        #expect(!tracker.wantsRead(at: BoundingBox(x: 102, y: 50, width: 40, height: 40)))
        #expect(SignVote().decide(reads: track.reads, sightings: nil) == nil)
    }

    /// Words read as "SPEED LIMIT" once are remembered on the plate's track (not read again while it is followed);
    /// unreadable words leave the track as it was.
    @Test func wordsReadAsSpeedLimitAreRememberedByTheTrack() {
        var tracker = SignTrackerTests.makeTracker()
        var closed: [SignTrack] = []
        var unreadable = SignTrackerTests.sighting(x: 100, value: 40)
        unreadable.words = .unreadable
        tracker.update(pts: .zero, sightings: [unreadable], closed: &closed)
        let box = BoundingBox(x: 104, y: 50, width: 40, height: 40)
        #expect(!tracker.wordsSayLimit(at: box))
        var speedLimit = SignTrackerTests.sighting(x: 102, value: 40)
        speedLimit.words = .speedLimit
        tracker.update(pts: .milliseconds(80), sightings: [speedLimit], closed: &closed)
        tracker.update(
            pts: .milliseconds(160), sightings: [SignTrackerTests.sighting(x: 104, value: 40)], closed: &closed)
        #expect(tracker.wordsSayLimit(at: box))
        #expect(!tracker.openTracks[0].isRuledOut && tracker.openTracks[0].reads.count == 3)
        #expect(!tracker.wordsSayLimit(at: BoundingBox(x: 600, y: 400, width: 40, height: 40)), "another plate")
    }
}
