import Testing

@testable import StreamLensSigns

/// One candidate's variants: the surest read wins unless another value was read with some confidence.
struct VariantVoteTests {
    static func reads(_ pairs: [(Int, Double)]) -> [SpeedReading] {
        pairs.map { SpeedReading(value: $0.0, confidence: $0.1) }
    }

    @Test(arguments: [
        // reads, minimum confidence, expected value
        ([(50, 0.8)], 0.7, 50 as Int?),  // one read above the minimum
        ([(50, 0.6)], 0.7, nil),  // below the minimum
        ([(50, 0.75), (50, 0.92)], 0.7, 50),  // agreeing reads
        ([(50, 0.92), (30, 0.6)], 0.7, nil),  // another value above the contradiction floor silences it
        ([(50, 0.92), (30, 0.3)], 0.7, 50),  // a guess on noise does not
        ([(50, 0.92)], 0.95, nil),  // a faint ring's stricter minimum
        ([], 0.7, nil),
    ])
    func decides(pairs: [(Int, Double)], minimum: Double, expected: Int?) {
        let decision = VariantVote().decide(reads: Self.reads(pairs), minimumConfidence: minimum)
        #expect(decision?.value == expected)
    }

    @Test func aSureReadSettlesTheSearch() {
        let vote = VariantVote(settlingConfidence: 0.9)
        #expect(vote.isSettled(Self.reads([(50, 0.91)])))
        #expect(!vote.isSettled(Self.reads([(50, 0.89), (50, 0.8)])))
        #expect(!vote.isSettled([]))
    }
}

/// Tesseract and the disc classifier together.
struct RecogniserAgreementTests {
    typealias Verdict = SpeedDiscClassifier.Verdict

    static func evidence(
        _ decision: Int?, standard: Bool = true, reads: [(Int, Double)] = [], texts: [String] = []
    ) -> RecogniserAgreement.TesseractEvidence {
        RecogniserAgreement.TesseractEvidence(
            decision: decision.map { SpeedReading(value: $0, confidence: 0.9) }, standardVariantAgrees: standard,
            validReads: VariantVoteTests.reads(reads), texts: texts)
    }

    @Test(arguments: [
        // Tesseract evidence, classifier verdict, expected value
        (evidence(50), nil as Verdict?, 50 as Int?),  // no classifier: Tesseract as before
        (evidence(50), Verdict(value: 50, confidence: 0.95), 50),
        (evidence(50), Verdict(value: 30, confidence: 0.99), 50),  // no veto by default: the standard crop stands
        (evidence(50, standard: false), Verdict(value: 30, confidence: 0.3), nil),  // a fallback variant needs backing
        (evidence(50, standard: false), Verdict(value: 50, confidence: 0.3), 50),
        (evidence(nil, texts: ["59"]), Verdict(value: 50, confidence: 0.9), 50),  // classifier backed by the 5
        (evidence(nil, texts: ["69"]), Verdict(value: 50, confidence: 0.9), nil),  // another first digit
        (evidence(nil, texts: ["5"]), Verdict(value: 50, confidence: 0.9), nil),  // another length
        (evidence(nil, texts: []), Verdict(value: 50, confidence: 0.99), nil),  // no Tesseract text at all
        (evidence(nil, texts: ["59"]), Verdict(value: 50, confidence: 0.6), nil),  // classifier unsure
        (evidence(nil, reads: [(30, 0.6)], texts: ["59", "30"]), Verdict(value: 50, confidence: 0.9), nil),
        (evidence(nil, texts: ["59"]), Verdict(value: nil, confidence: 0.99), nil),  // "not a speed"
    ])
    func decides(tesseract: RecogniserAgreement.TesseractEvidence, verdict: Verdict?, expected: Int?) {
        let decision = RecogniserAgreement().decide(tesseract: tesseract, classifier: verdict, minimumConfidence: 0.7)
        #expect(decision?.value == expected)
    }

    @Test func aVetoSilencesTesseractOnlyWhenTheClassifierIsThatSure() {
        let agreement = RecogniserAgreement(vetoConfidence: 0.9)
        let sure = agreement.decide(
            tesseract: Self.evidence(50), classifier: Verdict(value: 30, confidence: 0.95), minimumConfidence: 0.7)
        #expect(sure == nil)
        let unsure = agreement.decide(
            tesseract: Self.evidence(50), classifier: Verdict(value: 30, confidence: 0.5), minimumConfidence: 0.7)
        #expect(unsure?.value == 50)
    }

    /// Tesseract read "20" off a real "120" whose thin "1" it lost, sure at 0.85–0.94, while the classifier was sure
    /// of 120 (0.83–0.97): an event of 20 where the sign says 120 (GTSDB's photographs).
    @Test(arguments: [
        (20, Verdict(value: 120, confidence: 0.9), nil as Int?),  // a digit lost in front
        (10, Verdict(value: 100, confidence: 0.85), nil),  // or behind
        (30, Verdict(value: 130, confidence: 0.6), 30),  // the classifier not sure enough
        (20, Verdict(value: 120, confidence: 0.79), 20),
        (20, Verdict(value: 30, confidence: 0.95), 20),  // another value: no veto by default
        (120, Verdict(value: 20, confidence: 0.95), 120),  // a shorter one: no digit lost
        (20, Verdict(value: nil, confidence: 0.95), 20),
    ])
    func aReadMissingADigitOfTheNumberTheClassifierSeesWholeDoesNotStand(read: Int, verdict: Verdict, expected: Int?) {
        let decision = RecogniserAgreement().decide(
            tesseract: Self.evidence(read), classifier: verdict, minimumConfidence: 0.7)
        #expect(decision?.value == expected)
    }

    @Test func oneValueIsPartOfAnotherWhenItsDigitsStandInsideIt() {
        #expect(RecogniserAgreement.value(20, isPartOf: 120))
        #expect(RecogniserAgreement.value(10, isPartOf: 110))
        #expect(RecogniserAgreement.value(10, isPartOf: 100))
        #expect(!RecogniserAgreement.value(20, isPartOf: 130))
        #expect(!RecogniserAgreement.value(120, isPartOf: 120))
        #expect(!RecogniserAgreement.value(120, isPartOf: 20))
    }

    @Test func aFaintRingsMinimumAlsoBindsTheClassifier() {
        let decision = RecogniserAgreement().decide(
            tesseract: Self.evidence(nil, texts: ["59"]), classifier: Verdict(value: 50, confidence: 0.9),
            minimumConfidence: 0.95)
        #expect(decision == nil)
    }
}
