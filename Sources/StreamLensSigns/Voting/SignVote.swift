/// Decides a sign's value from its reads: majority with a minimum count, silence when reads disagree.
public struct SignVote: Sendable, Equatable {
    /// Agreeing reads needed to confirm a value (fewer only when the sign was seen fewer times than this).
    public var minimumAgreeingReads: Int
    /// Share of all valid reads that must agree with the winner.
    public var requiredAgreement: Double
    /// Agreeing reads needed when every one of them was named by the template matcher alone, however few times the
    /// sign was seen: a template match picks a value from the number's blurred shape, right on about nine located
    /// frames in ten of the second real set, so more sightings must say the same.
    public var minimumTemplateOnlyReads: Int
    /// Agreeing template-only reads that are enough when each led every other value by at least
    /// ``clearTemplateLead``. The wrong template values of the real sets lead by less (a soft "40" or "60" matched
    /// "90" by 0.01–0.02 on two frames each); most right ones that a third read would miss lead by more.
    public var minimumClearTemplateOnlyReads: Int
    /// The correlation lead over every other value that makes a template read clear.
    public var clearTemplateLead: Double

    public init(
        minimumAgreeingReads: Int = 2, requiredAgreement: Double = 2.0 / 3.0, minimumTemplateOnlyReads: Int = 3,
        minimumClearTemplateOnlyReads: Int = 2, clearTemplateLead: Double = 0.025
    ) {
        precondition(
            minimumAgreeingReads >= 1 && minimumTemplateOnlyReads >= 1 && minimumClearTemplateOnlyReads >= 1,
            "at least one read must agree")
        precondition(requiredAgreement > 0.5 && requiredAgreement <= 1, "agreement must be a majority (0.5…1]")
        self.minimumAgreeingReads = minimumAgreeingReads
        self.requiredAgreement = requiredAgreement
        self.minimumTemplateOnlyReads = minimumTemplateOnlyReads
        self.minimumClearTemplateOnlyReads = minimumClearTemplateOnlyReads
        self.clearTemplateLead = clearTemplateLead
    }

    /// The confirmed value of a sign read as `reads`, or nil.
    ///
    /// `sightings` is how often a sign that is gone was seen, or nil while it may still be seen again. The winner
    /// needs `min(minimumAgreeingReads, sightings)` agreeing reads (all of ``minimumAgreeingReads`` while in view) —
    /// a still image, seen once, confirms with its one read, while a sign seen ten times needs two — and at least
    /// ``requiredAgreement`` of all reads. A tie is no winner. A winner named only by the template matcher needs
    /// ``minimumTemplateOnlyReads`` (``minimumClearTemplateOnlyReads`` when each of them leads clearly), and no read
    /// of another value by a reader that saw digits: the templates are the weakest evidence, so one glyph reader's
    /// disagreement silences them (a soft "80" of the second real set matched 60 on five frames and was read 80 by the
    /// text line on two). The confidence is the mean confidence of the agreeing reads.
    public func decide(reads: [SpeedReading], sightings: Int?) -> (reading: SpeedReading, agreeing: Int)? {
        guard !reads.isEmpty else { return nil }
        var best: (value: Int, count: Int, confidenceSum: Double, allFromTemplates: Bool, allClear: Bool)?
        var tied = false
        // At most a handful of reads per sign: counting in place needs no dictionary (and no allocation).
        for index in reads.indices where !reads[..<index].contains(where: { $0.value == reads[index].value }) {
            let value = reads[index].value
            var count = 0
            var confidenceSum = 0.0
            var allFromTemplates = true
            var allClear = true
            for read in reads where read.value == value {
                count += 1
                confidenceSum += read.confidence
                allFromTemplates = allFromTemplates && read.namedByTemplatesOnly
                allClear = allClear && (read.templateLead ?? 0) >= clearTemplateLead
            }
            if let current = best, count == current.count {
                tied = true
            } else if count > (best?.count ?? 0) {
                best = (value, count, confidenceSum, allFromTemplates, allClear)
                tied = false
            }
        }
        guard let best, !tied else { return nil }
        if best.allFromTemplates,
            reads.contains(where: { $0.value != best.value && !$0.namedByTemplatesOnly })
        {
            return nil
        }
        let needed =
            !best.allFromTemplates ? min(minimumAgreeingReads, max(1, sightings ?? minimumAgreeingReads))
            : best.allClear ? minimumClearTemplateOnlyReads : minimumTemplateOnlyReads
        guard best.count >= needed, Double(best.count) >= requiredAgreement * Double(reads.count) else { return nil }
        return (SpeedReading(value: best.value, confidence: best.confidenceSum / Double(best.count)), best.count)
    }
}
