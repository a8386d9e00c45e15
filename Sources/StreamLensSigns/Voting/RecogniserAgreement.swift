/// Combines the two recognisers of one candidate — Tesseract over the disc's variants and the disc classifier — so
/// that neither alone turns a soft real sign into a wrong limit.
///
/// - Tesseract's value from the standard crop stands, unless a ``vetoConfidence`` is set and the classifier is that
///   sure of another value (off by default: on the generated set the classifier was sure, > 0.99, and wrong on 2 of
///   43 signs, and the veto cost two signs Tesseract read right). When only a fallback variant read it, the classifier
///   must name the same value: fallback variants read more soft signs, and more of them wrongly. Nor does it stand
///   when the classifier is ``wholeNumberContradiction`` sure of a longer value holding it: Tesseract lost a digit.
/// - Without a Tesseract value, the classifier's value stands when it is sure enough (``classifierConfidence``, and
///   at least the candidate's own minimum), no valid read names another value, and some raw Tesseract text of the
///   same length starts with the same digit ("59" and "5O" back a 50; the second digit of soft signs is what
///   Tesseract gets wrong, the region's values end in 0).
/// - When neither decides, the text-line recogniser's read stands if it is a valid value, every character at least
///   ``textLineConfidence`` sure, and the standard crop's Tesseract read does not name another value. Fallback
///   variants and the classifier do not contradict it: on the soft and smeared discs it is there for, they are the
///   ones that go wrong (real second set: fallback reads of 10, 20 and a classifier sure of 110 and 50 on an "80"
///   it read right five times). A less sure read (``textLineWithClassifierConfidence``) stands
///   when the classifier names the same value ``classifierConfidence`` sure. A read less sure still, down to
///   ``unsureTextLineFloor``, decides nothing for the candidate; it is kept with the sighting, and the sign's track
///   pools such reads over its sightings (``SignTrack/UnsureTextLine``).
/// - When the text line decides nothing either, the template matcher's value stands if the disc correlates with it
///   at least ``templateScore`` and leads every other value by ``templateMargin``, it has two digits or more, and
///   neither the standard crop's Tesseract read nor a sure text-line read names something else, nor — unless it leads
///   by ``classifierVetoLead`` — the classifier's likeliest value; a match leading by
///   less than that stands only when the classifier names the same value ``narrowTemplateBacking`` sure, or an
///   unsure text-line read spells it in part.
///   Such a value counts as named by the templates alone (the vote wants more of those) unless an unsure text-line
///   read spells it in part (``text(_:partlySpells:)``) or the classifier names it too, at least
///   ``narrowTemplateBacking`` sure.
///   Nor does it stand when the text line's read starts like the value and runs on past it (``text(_:runsPast:)``:
///   "12?" on a "12t" weight limit).
///   A lone "5" is too plain a shape: on the second real set it matched a soft "30" and a doorway; its templates still
///   compete, so a disc that looks most like a 5 is named nothing — unless the classifier names 5 as well, at least
///   ``singleDigitClassifierConfidence`` sure, and the match leads by ``singleDigitTemplateLead``.
/// - Neither the text line's nor the templates' value stands on a disc whose legend is no speed value
///   (``showsAnotherLegend(classifier:legendHeightShare:)``: a weight limit's "20t" read as 20, `OtherLegendTests`).
struct RecogniserAgreement: Sendable, Equatable {
    /// A classifier at least this sure of another value silences Tesseract; nil: no veto.
    var vetoConfidence: Double?
    var classifierConfidence: Double
    /// Valid Tesseract reads of another value at least this confident contradict the classifier.
    var contradictionFloor: Double
    /// A read whose last "0" comes from the glyph's shape (``ZeroShape``: Tesseract read another digit there) is
    /// silenced by a classifier this sure of another value.
    var shapeContradiction: Double
    /// The least sure character of a text-line read must be at least this sure, whatever the candidate's own
    /// minimum: faint rings ask 0.95 of Tesseract, whose reads of soft discs go wrong, while the text line's reads of
    /// the second real set were never sure and wrong — and a 90 it read at 0.948 and 0.979 on two frames of a faint
    /// ring went unconfirmed.
    var textLineConfidence: Double
    /// A text-line read less sure than ``textLineConfidence`` but at least this sure stands when the classifier names
    /// the same value at least ``classifierConfidence`` sure: two recognisers that look at the disc differently (a
    /// line of characters, a whole picture) agreeing exactly. On GTSDB's dark signs, where Tesseract often finds too
    /// little contrast to read at all, the two named the same value so on 69 sightings, all of them right, 12 of them
    /// decided by nothing else.
    var textLineWithClassifierConfidence = 0.5
    /// A text-line read at least this sure that stands on no other recogniser is still kept with its sighting
    /// (``unsureTextLineReading(_:profile:standardRead:classifier:legendHeightShare:)``): a sign whose text line says
    /// the same value so on several sightings is read (``SignTrack/UnsureTextLine``). A dark GTSDB "120" was read
    /// "120" at 0.71–0.83 on four sightings, the classifier too unsure to back any; the only wrong repeated unsure
    /// read seen on the real sets ("60" on a "50") stood at 0.46–0.48.
    var unsureTextLineFloor = 0.6
    /// Least normalised cross-correlation of a disc with its best template for the match to count.
    var templateScore: Double
    /// Least lead of the best value's correlation over any other value's.
    var templateMargin: Double
    /// A template match leading by less than this is silenced when the classifier's likeliest value is another one.
    var classifierVetoLead: Double
    /// A template match of a one-digit value (a 5) stands only when the classifier names it too at least this sure
    /// and the match leads every other value by ``singleDigitTemplateLead``. A soft, blown-up "5" of the second real
    /// set matched 5 by 0.17–0.25 on eight frames, three of them with the classifier sure of 5 (0.81–0.90); the soft
    /// "30" that matched 5 (by 0.10) had the classifier naming nothing.
    var singleDigitClassifierConfidence = 0.5
    var singleDigitTemplateLead = 0.15
    /// A template match leading by less than ``classifierVetoLead`` stands only when the classifier names the same
    /// value at least this sure.
    var narrowTemplateBacking = 0.3
    /// Tesseract's value is silenced by a classifier at least this sure of a longer value that holds it ("20" read
    /// off a "120" whose thin "1" Tesseract lost, the classifier sure of 120 at 0.83–0.97 on GTSDB; `VariantVoteTests`).
    var wholeNumberContradiction = 0.8
    /// A disc is taken for another sign's legend when the classifier calls it "no speed value" by at least this
    /// margin and its tallest glyph is at most ``otherLegendHeightShare`` of the disc (see
    /// ``showsAnotherLegend(classifier:legendHeightShare:)``).
    var otherLegendClassifierMargin = 0.85
    var otherLegendHeightShare = 0.44

    init(
        vetoConfidence: Double? = nil, classifierConfidence: Double = 0.7, contradictionFloor: Double = 0.5,
        shapeContradiction: Double = 0.5, textLineConfidence: Double = 0.9, templateScore: Double = 0.6,
        templateMargin: Double = 0.02, classifierVetoLead: Double = 0.06
    ) {
        self.classifierVetoLead = classifierVetoLead
        self.templateScore = templateScore
        self.templateMargin = templateMargin
        self.textLineConfidence = textLineConfidence
        self.shapeContradiction = shapeContradiction
        self.vetoConfidence = vetoConfidence
        self.classifierConfidence = classifierConfidence
        self.contradictionFloor = contradictionFloor
    }

    /// What Tesseract made of the candidate.
    struct TesseractEvidence {
        /// The ``VariantVote`` decision, if any.
        var decision: SpeedReading?
        /// Whether the standard variant itself read the decided value.
        var standardVariantAgrees: Bool
        /// Every valid read of every variant.
        var validReads: [SpeedReading]
        /// Every variant's raw text with the usual letter confusions mapped to digits.
        var texts: [String]
    }

    func decide(
        tesseract: TesseractEvidence, classifier verdict: SpeedDiscClassifier.Verdict?, minimumConfidence: Double
    ) -> SpeedReading? {
        if let decision = tesseract.decision {
            if let vetoConfidence, let verdict, let other = verdict.value, other != decision.value,
                verdict.confidence >= vetoConfidence
            {
                return nil
            }
            if !tesseract.standardVariantAgrees && verdict?.value != decision.value { return nil }
            if decision.lastDigitFromShape, let verdict, let other = verdict.value, other != decision.value,
                verdict.confidence >= shapeContradiction
            {
                return nil
            }
            if let verdict, let whole = verdict.value, verdict.confidence >= wholeNumberContradiction,
                Self.value(decision.value, isPartOf: whole)
            {
                return nil
            }
            return decision
        }
        guard let verdict, let value = verdict.value,
            verdict.confidence >= max(classifierConfidence, minimumConfidence),
            !tesseract.validReads.contains(where: { $0.value != value && $0.confidence >= contradictionFloor })
        else { return nil }
        let digits = String(value)
        guard tesseract.texts.contains(where: { $0.count == digits.count && $0.first == digits.first }) else {
            return nil
        }
        return SpeedReading(value: value, confidence: verdict.confidence)
    }

    /// Whether the disc holds another sign's legend rather than a speed value: the classifier is sure it shows no
    /// speed value (``otherLegendClassifierMargin``) and its lettering is small — the tallest glyph standing across
    /// the middle at most ``otherLegendHeightShare`` of the disc (``DigitCropper/lastLegendHeightShare``), where a
    /// speed value's digits stand about half of it.
    ///
    /// Either cue alone also fits real speed signs: the classifier called 31 right text-line and template reads of
    /// the real sets "no speed value" by 0.85 or more, and motion-smeared real digits stand 0.31–0.44. Both together
    /// fitted 2 of those reads (a "4?" text line keeps one, see the template decision) and 47 of 61 reads of weight
    /// limits and other legends ("20t" and "30t" at 0.36–0.43 with margins 0.80–0.98, a "no lorries" photograph).
    func showsAnotherLegend(classifier verdict: SpeedDiscClassifier.Verdict?, legendHeightShare: Double?) -> Bool {
        guard let verdict, verdict.value == nil, verdict.confidence >= otherLegendClassifierMargin,
            let legendHeightShare
        else { return false }
        return legendHeightShare <= otherLegendHeightShare
    }

    /// The text-line recogniser's value when Tesseract and the classifier decided nothing (see the type's notes);
    /// `standardRead`: the standard crop's valid Tesseract read, at any confidence; `verdict` and `legendHeightShare`:
    /// the classifier's verdict and the standard crop's legend height, for ``showsAnotherLegend(classifier:legendHeightShare:)``.
    func decide(
        textLine read: TextLineRecogniser.Read, profile: SpeedLimitProfile, standardRead: SpeedReading?,
        classifier verdict: SpeedDiscClassifier.Verdict? = nil, legendHeightShare: Double? = nil
    ) -> SpeedReading? {
        guard var reading = value(
                of: read, atLeast: textLineWithClassifierConfidence, profile: profile, standardRead: standardRead,
                classifier: verdict, legendHeightShare: legendHeightShare)
        else { return nil }
        if read.leastConfidence < textLineConfidence {
            // Unsure alone, but the classifier, which looks at the disc another way, names the same value.
            guard let verdict, Self.classifier(verdict, names: reading.value, atLeast: classifierConfidence) else {
                return nil
            }
            reading.confidence = verdict.confidence
        }
        return reading
    }

    /// A text-line read too unsure to stand alone (at least ``unsureTextLineFloor``, under ``textLineConfidence``)
    /// whose value no other evidence of the candidate rules out: not another sign's legend, not contradicted by the
    /// standard crop's Tesseract read. It decides nothing here; the track pools such reads over sightings.
    func unsureTextLineReading(
        _ read: TextLineRecogniser.Read, profile: SpeedLimitProfile, standardRead: SpeedReading?,
        classifier verdict: SpeedDiscClassifier.Verdict? = nil, legendHeightShare: Double? = nil
    ) -> SpeedReading? {
        guard read.leastConfidence < textLineConfidence else { return nil }
        return value(
            of: read, atLeast: unsureTextLineFloor, profile: profile, standardRead: standardRead, classifier: verdict,
            legendHeightShare: legendHeightShare)
    }

    /// The valid value a text-line read at least `confidence` sure spells, unless the disc shows another sign's legend
    /// or the standard crop's Tesseract read names another value.
    private func value(
        of read: TextLineRecogniser.Read, atLeast confidence: Double, profile: SpeedLimitProfile,
        standardRead: SpeedReading?, classifier verdict: SpeedDiscClassifier.Verdict?, legendHeightShare: Double?
    ) -> SpeedReading? {
        guard read.leastConfidence >= confidence,
            !showsAnotherLegend(classifier: verdict, legendHeightShare: legendHeightShare),
            let reading = SpeedTextInterpreter.interpret(
                text: read.text, confidence: read.leastConfidence, layout: nil, profile: profile),
            !contradicts(standardRead, reading.value)
        else { return nil }
        return reading
    }

    /// The template matcher's value when no other recogniser decided (see the type's notes); `textLine`: the text
    /// line's read of the same candidate, if it ran.
    func decide(
        templates match: DiscTemplateMatcher.Match, textLine: TextLineRecogniser.Read?, profile: SpeedLimitProfile,
        standardRead: SpeedReading?, classifier verdict: SpeedDiscClassifier.Verdict? = nil,
        legendHeightShare: Double? = nil
    ) -> SpeedReading? {
        guard let value = match.value, profile.allows(value), match.score >= templateScore,
            match.margin >= templateMargin
        else { return nil }
        let textLineSpellsPart = textLine.map { Self.text($0.text, partlySpells: value) } ?? false
        // Unless an unsure text-line read saw the value's leading digits (a soft real "40" read "4?", the classifier
        // sure of no speed value at 0.91); a sure one was ruled out with the legend (a "10t" read "10" at 0.98).
        let textLineBacksItUnsure = textLineSpellsPart && (textLine?.leastConfidence ?? 1) < textLineConfidence
        if !textLineBacksItUnsure, showsAnotherLegend(classifier: verdict, legendHeightShare: legendHeightShare) {
            return nil
        }
        if let textLine, Self.text(textLine.text, runsPast: value) { return nil }
        if value < 10 {
            guard Self.classifier(verdict, names: value, atLeast: singleDigitClassifierConfidence),
                match.margin >= singleDigitTemplateLead
            else { return nil }
        }
        if contradicts(standardRead, value) { return nil }
        // A clear match stands on its own (a smeared "60" matched by 0.08 and 0.11, which the classifier could not
        // read: its guesses of 50 and 20 were coin tosses). A narrow one needs a second recogniser
        // behind it and none against it: the classifier naming the same value, or an unsure text line spelling it in
        // part while the classifier's likeliest value, however unsure, is not another one (a soft, blown-up "30"
        // matched 40 by 0.04–0.05). On GTSDB's photographs (a set never tuned on) matches leading by
        // 0.01–0.05 named an "80" 60 and 50 and a "100" 120 with neither behind them: the classifier called those
        // discs no speed value or named the value at 0.02–0.25, the text line read "?", "0" or nothing.
        let classifierBacksIt = Self.classifier(verdict, names: value, atLeast: narrowTemplateBacking)
        if match.margin < classifierVetoLead {
            let classifierNamesAnother = verdict?.value.map { $0 != value } ?? false
            guard classifierBacksIt || (textLineSpellsPart && !classifierNamesAnother) else { return nil }
        }
        if let textLine, textLine.leastConfidence >= textLineConfidence, textLine.text != String(value) { return nil }
        var reading = SpeedReading(value: value, confidence: match.score)
        reading.templateLead = match.margin
        reading.namedByTemplatesOnly = !textLineSpellsPart && !classifierBacksIt
        return reading
    }

    /// Whether the standard crop's valid Tesseract read names another value than `value`, at least
    /// ``contradictionFloor`` sure.
    func contradicts(_ standardRead: SpeedReading?, _ value: Int) -> Bool {
        guard let standardRead else { return false }
        return standardRead.value != value && standardRead.confidence >= contradictionFloor
    }

    /// Whether the classifier's verdict names `value` at least `confidence` sure.
    static func classifier(
        _ verdict: SpeedDiscClassifier.Verdict?, names value: Int, atLeast confidence: Double
    ) -> Bool {
        guard let verdict else { return false }
        return verdict.value == value && verdict.confidence >= confidence
    }

    /// Whether `part`'s digits stand inside the longer `whole`'s ("20" in "120", "10" in "100"): what a reader that
    /// lost a digit at either end reads.
    static func value(_ part: Int, isPartOf whole: Int) -> Bool {
        let partDigits = String(part)
        let wholeDigits = String(whole)
        return wholeDigits.count > partDigits.count && wholeDigits.contains(partDigits)
    }

    /// Whether a text-line read, at any confidence, starts with `value`'s first digit and goes on past the value's
    /// length with something other than zeros: the legend is more than the value ("12?" and "121" on a "12t" weight
    /// limit that the templates took for 10, "7?5?" on a "7,5t" taken for 70). A soft real "100" read "1000" still
    /// spells its value; no right template read of the real sets was followed so.
    static func text(_ text: String, runsPast value: Int) -> Bool {
        let digits = String(value)
        guard text.count > digits.count, text.first == digits.first else { return false }
        return text.dropFirst(digits.count).contains { $0 != "0" }
    }

    /// Whether a text-line read too unsure to stand on its own still spells `value` in part: as many characters,
    /// every digit it names is the value's digit there, and at least one of them is not the last — every value but 5
    /// ends in 0, so a lone trailing "0" backs them all. Such a read backs a template match: on the second real set
    /// 8 template values were backed so ("4?" for 40, "?0?" for 100, an unsure "120"), none of the 5 wrong ones.
    static func text(_ text: String, partlySpells value: Int) -> Bool {
        let digits = Array(String(value))
        let characters = Array(text)
        guard characters.count == digits.count else { return false }
        var namesALeadingDigit = false
        for (index, character) in characters.enumerated() where character != "?" {
            guard character == digits[index] else { return false }
            if index < digits.count - 1 { namesALeadingDigit = true }
        }
        return namesALeadingDigit
    }
}
