import Testing

@testable import StreamLensSigns

struct SignVoteTests {
    static func reads(_ values: [Int], confidence: Double = 0.9) -> [SpeedReading] {
        values.map { SpeedReading(value: $0, confidence: confidence) }
    }

    @Test(arguments: [
        // reads, sightings, expected value (nil = silence)
        ([60, 60, 60], 5, 60 as Int?),
        ([60, 60, 60, 80], 6, 60),  // 3 of 4 agree
        ([60, 60, 80], 6, 60),  // 2 of 3 agree: two thirds
        ([60, 80], 6, nil),  // 1 of 2: no majority of two thirds
        ([60, 60, 80, 80, 80, 80], 6, 80),  // 4 of 6
        ([60, 60, 60, 80, 80], 8, nil),  // 3 of 5 is less than two thirds
        ([60, 60, 80, 80], 4, nil),  // a tie
        ([60], 1, 60),  // a still image: seen once, read once
        ([60, 60], 2, 60),  // seen twice, both agree
        ([60], 2, nil),  // seen twice, read once
        ([60], 12, nil),  // a single read of a sign seen twelve times
        ([], 3, nil),
        ([60], nil, nil),  // still in view: the full two are needed
        ([60, 60], nil, 60),
    ] as [([Int], Int?, Int?)])
    func majorityWithMinimumCount(values: [Int], sightings: Int?, expected: Int?) {
        let decision = SignVote().decide(reads: Self.reads(values), sightings: sightings)
        #expect(decision?.reading.value == expected)
    }

    @Test func confidenceIsTheMeanOfTheAgreeingReads() {
        let reads = [
            SpeedReading(value: 50, confidence: 0.8), SpeedReading(value: 50, confidence: 1.0),
            SpeedReading(value: 50, confidence: 0.9), SpeedReading(value: 30, confidence: 0.2),
        ]
        let decision = SignVote().decide(reads: reads, sightings: 4)
        #expect(decision?.agreeing == 3)
        #expect(abs((decision?.reading.confidence ?? 0) - 0.9) < 1e-9)
    }

    /// Reads of `values` at confidence 0.7, each marked as named by the template matcher alone (with a narrow lead of
    /// 0.02 over the next value) or not.
    static func reads(_ values: [Int], templatesOnly: [Bool]) -> [SpeedReading] {
        zip(values, templatesOnly).map { value, onlyTemplates in
            var reading = SpeedReading(value: value, confidence: 0.7)
            reading.namedByTemplatesOnly = onlyTemplates
            if onlyTemplates { reading.templateLead = 0.02 }
            return reading
        }
    }

    /// Template-only reads of `values` leading the next value by `leads`.
    static func templateReads(_ values: [Int], leads: [Double]) -> [SpeedReading] {
        zip(values, leads).map { value, lead in
            var reading = SpeedReading(value: value, confidence: 0.75)
            reading.namedByTemplatesOnly = true
            reading.templateLead = lead
            return reading
        }
    }

    /// Reads only the template matcher made need three agreeing, even of a sign seen once or twice; one read that a
    /// glyph reader made among them is enough to fall back to the usual two.
    @Test func valuesNamedOnlyByTemplatesNeedThreeReads() {
        let vote = SignVote()
        #expect(vote.decide(reads: Self.reads([90, 90], templatesOnly: [true, true]), sightings: 6) == nil)
        #expect(vote.decide(reads: Self.reads([90, 90], templatesOnly: [true, true]), sightings: 2) == nil)
        #expect(vote.decide(reads: Self.reads([90], templatesOnly: [true]), sightings: 1) == nil)
        #expect(vote.decide(reads: Self.reads([90, 90, 90], templatesOnly: [true, true, true]), sightings: 6)?.reading.value == 90)
        #expect(vote.decide(reads: Self.reads([90, 90], templatesOnly: [true, false]), sightings: 6)?.reading.value == 90)
        // Still two thirds of all reads.
        #expect(vote.decide(reads: Self.reads([90, 90, 90, 50, 50], templatesOnly: [true, true, true, true, false]), sightings: 8) == nil)
    }

    /// Two template-only reads are enough when both lead clearly (the real sets' right "40" of 021: 0.06 and 0.04);
    /// one narrow lead among them (a soft "60" matched "90" by 0.02) wants the third read.
    @Test func twoClearTemplateLeadsAreEnough() {
        let vote = SignVote()
        #expect(vote.decide(reads: Self.templateReads([40, 40], leads: [0.06, 0.04]), sightings: nil)?.reading.value == 40)
        #expect(vote.decide(reads: Self.templateReads([40, 40], leads: [0.06, 0.04]), sightings: 2)?.reading.value == 40)
        #expect(vote.decide(reads: Self.templateReads([90, 90], leads: [0.022, 0.04]), sightings: 6) == nil)
        #expect(vote.decide(reads: Self.templateReads([90, 90, 90], leads: [0.022, 0.04, 0.02]), sightings: 6)?.reading.value == 90)
        // One clear read is one read; a still image's single template read is not enough.
        #expect(vote.decide(reads: Self.templateReads([40], leads: [0.1]), sightings: 1) == nil)
        // A glyph reader's other value still silences them.
        var glyphRead = SpeedReading(value: 60, confidence: 0.6)
        glyphRead.namedByTemplatesOnly = false
        #expect(vote.decide(reads: Self.templateReads([40, 40], leads: [0.06, 0.04]) + [glyphRead], sightings: 6) == nil)
    }

    @Test func aGlyphReaderThatReadAnotherValueSilencesATemplatesOnlyWinner() {
        let vote = SignVote()
        // Five template matches of 60 and one text-line read of 80: 60 has five sixths, yet no winner.
        let values = [60, 60, 60, 60, 60, 80]
        let sixties = [Bool](repeating: true, count: 5)
        #expect(vote.decide(reads: Self.reads(values, templatesOnly: sixties + [false]), sightings: 8) == nil)
        // Another template match of 80 does not silence it; a glyph read of 60 among the winners lifts the rule.
        let eightyByTemplates = Self.reads(values, templatesOnly: sixties + [true])
        #expect(vote.decide(reads: eightyByTemplates, sightings: 8)?.reading.value == 60)
        let oneSixtyByGlyphs = Self.reads(values, templatesOnly: [false, true, true, true, true, false])
        #expect(vote.decide(reads: oneSixtyByGlyphs, sightings: 8)?.reading.value == 60)
    }

    @Test func stricterVoteNeedsMoreReads() {
        let vote = SignVote(minimumAgreeingReads: 5, requiredAgreement: 0.9)
        #expect(vote.decide(reads: Self.reads([70, 70, 70, 70]), sightings: 8) == nil)
        #expect(vote.decide(reads: Self.reads([70, 70, 70, 70, 70]), sightings: 8)?.reading.value == 70)
        #expect(vote.decide(reads: Self.reads([70, 70, 70, 70, 70, 30]), sightings: 8) == nil)
    }
}
