import Testing

@testable import StreamLensSigns

/// The rules that keep another sign's legend from being read as a speed value: a weight limit's "20t" or "12t".
struct OtherLegendTests {
    static let sureNoSpeedValue = SpeedDiscClassifier.Verdict(value: nil, confidence: 0.96)

    @Test func aSmallLegendTheClassifierSurelyCallsNoSpeedValueIsAnotherSignsLegend() {
        let agreement = RecogniserAgreement()
        let small = agreement.otherLegendHeightShare - 0.04
        #expect(agreement.showsAnotherLegend(classifier: Self.sureNoSpeedValue, legendHeightShare: small))
        // Either cue alone fits real speed signs: a sure "no speed value" on speed-sized digits, small (smeared)
        // digits the classifier is unsure of or names, or no measure at all.
        #expect(!agreement.showsAnotherLegend(classifier: Self.sureNoSpeedValue, legendHeightShare: 0.5))
        #expect(!agreement.showsAnotherLegend(classifier: .init(value: nil, confidence: 0.6), legendHeightShare: small))
        #expect(!agreement.showsAnotherLegend(classifier: .init(value: 20, confidence: 0.96), legendHeightShare: small))
        #expect(!agreement.showsAnotherLegend(classifier: Self.sureNoSpeedValue, legendHeightShare: nil))
        #expect(!agreement.showsAnotherLegend(classifier: nil, legendHeightShare: small))
    }

    @Test func neitherTheTextLineNorTheTemplatesNameAnotherSignsLegend() {
        let agreement = RecogniserAgreement()
        // "20t": the text line reads "20" sure, dropping the "t" (QA sweep, 0.96–0.99).
        func textLine(_ verdict: SpeedDiscClassifier.Verdict?, share: Double?) -> Int? {
            agreement.decide(
                textLine: .init(text: "20", leastConfidence: 0.99), profile: .europe, standardRead: nil,
                classifier: verdict, legendHeightShare: share)?.value
        }
        #expect(textLine(Self.sureNoSpeedValue, share: 0.39) == nil)
        #expect(textLine(Self.sureNoSpeedValue, share: 0.5) == 20)
        #expect(textLine(nil, share: 0.39) == 20)
        func templates(_ verdict: SpeedDiscClassifier.Verdict?, share: Double?) -> Int? {
            agreement.decide(
                templates: DiscTemplateMatcher.Match(value: 60, score: 0.75, margin: 0.08), textLine: nil,
                profile: .europe, standardRead: nil, classifier: verdict, legendHeightShare: share)?.value
        }
        #expect(templates(Self.sureNoSpeedValue, share: 0.39) == nil)
        #expect(templates(Self.sureNoSpeedValue, share: 0.5) == 60)
        // Unless the text line saw the value's leading digit (a soft real "40" read "4?").
        let spelledInPart = agreement.decide(
            templates: DiscTemplateMatcher.Match(value: 40, score: 0.7, margin: 0.08),
            textLine: .init(text: "4?", leastConfidence: 0.5), profile: .europe, standardRead: nil,
            classifier: Self.sureNoSpeedValue, legendHeightShare: 0.40)
        #expect(spelledInPart?.value == 40)
        // A sure read of the whole value was ruled out with the legend: it does not bring the templates back ("10t").
        let spelledSurely = agreement.decide(
            templates: DiscTemplateMatcher.Match(value: 10, score: 0.8, margin: 0.05),
            textLine: .init(text: "10", leastConfidence: 0.98), profile: .europe, standardRead: nil,
            classifier: Self.sureNoSpeedValue, legendHeightShare: 0.40)
        #expect(spelledSurely == nil)
    }

    @Test func aTextLineReadThatRunsOnPastTheValueSilencesTheTemplates() {
        func templates(_ value: Int, textLine text: String) -> Int? {
            RecogniserAgreement().decide(
                templates: DiscTemplateMatcher.Match(value: value, score: 0.75, margin: 0.08),
                textLine: .init(text: text, leastConfidence: 0.6), profile: .europe, standardRead: nil)?.value
        }
        // A "12t" matched as 10, a "7,5t" as 70: the text line saw more than the value.
        #expect(templates(10, textLine: "12?") == nil)
        #expect(templates(10, textLine: "121") == nil)
        #expect(templates(70, textLine: "7?5?") == nil)
        #expect(templates(70, textLine: "7?5") == nil)
        // The value's own length, trailing zeros or another first character do not.
        #expect(templates(40, textLine: "4?") == 40)
        #expect(templates(100, textLine: "1000") == 100)
        #expect(templates(30, textLine: "?30") == 30)
        #expect(templates(100, textLine: "2?47") == 100)
    }
}
