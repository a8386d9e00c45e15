import Testing

@testable import StreamLensSigns

/// The report's reading figures: every read's time, and which candidates the text line and the templates saw.
struct OCRTimingsTests {
    @Test func countsTheCandidatesEachLateRecogniserSaw() {
        let timings = OCRTimings(capacity: 2)
        timings.record(.milliseconds(3))
        timings.record(.milliseconds(20), textLine: true)
        timings.record(.milliseconds(25), textLine: true, templates: true)
        #expect(timings.textLineReads == 2)
        #expect(timings.templateMatches == 1)
        // The ring keeps the last two durations; the count is of all reads.
        #expect(timings.samples() == [.milliseconds(20), .milliseconds(25)])
        #expect(timings.summary().count == 3)
        #expect(timings.candidatesNotRead == 0 && timings.contrastSeedsPassedOver == 0)
        timings.recordNotRead()
        timings.recordNotRead()
        timings.noteContrastSeedsPassedOver(total: 7)
        #expect(timings.candidatesNotRead == 2 && timings.contrastSeedsPassedOver == 7)
        #expect(timings.summary().count == 3, "a candidate not read is not a read")
    }
}
