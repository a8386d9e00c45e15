/// Decides one candidate's value from the reads of its ``DiscVariant``s: the surest read, unless another variant
/// read a different value.
///
/// Variants of one picture are not independent witnesses, so agreement is not counted: one confident read is
/// enough, and any other value read with some confidence silences the candidate (a wrong limit is worse than none).
/// The frame-to-frame ``SignVote`` still needs agreeing reads from several sightings.
struct VariantVote: Sendable, Equatable {
    /// A valid read at least this confident ends the search: further variants would cost OCR time for little.
    var settlingConfidence: Double
    /// Reads of another value below this confidence do not contradict (Tesseract's guesses on noise).
    var contradictionFloor: Double

    init(settlingConfidence: Double = 0.9, contradictionFloor: Double = 0.5) {
        precondition(contradictionFloor <= settlingConfidence, "a settling read must also be able to contradict")
        self.settlingConfidence = settlingConfidence
        self.contradictionFloor = contradictionFloor
    }

    /// Whether `reads` already hold a read sure enough to stop trying variants.
    func isSettled(_ reads: [SpeedReading]) -> Bool {
        reads.contains { $0.confidence >= settlingConfidence }
    }

    /// The surest read of at least `minimumConfidence`, or nil when there is none or another value contradicts it.
    func decide(reads: [SpeedReading], minimumConfidence: Double) -> SpeedReading? {
        var best: SpeedReading?
        for read in reads where read.confidence >= minimumConfidence {
            if read.confidence > (best?.confidence ?? -1) { best = read }
        }
        guard let best else { return nil }
        for read in reads where read.value != best.value && read.confidence >= contradictionFloor { return nil }
        return best
    }
}
