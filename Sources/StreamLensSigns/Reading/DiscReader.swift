import StreamLensCore

/// Reads one candidate ring: normalises its inner disc in several ways (``DiscVariant``), reads each picture that
/// holds digits with Tesseract, decides with a ``VariantVote``, and checks that decision against the independent
/// ``SpeedDiscClassifier`` (``RecogniserAgreement``). When those two decide nothing, the ``TextLineRecogniser`` reads
/// the disc's grey middle band as a line of text, and when that decides nothing either, the ``DiscTemplateMatcher``
/// compares the whole disc with rendered, blurred and smeared speed values.
///
/// A clean sign costs one OCR call and a hard one at most ``maximumOCRCalls`` plus one text-line read; variants the
/// cropper rejects (no digits, extra marks…) and pictures identical to one already read cost none.
///
/// ## Thread Safety
/// Not synchronized: keeps the cropper's scratch buffers. Use one per analysis thread, with that thread's engine.
struct DiscReader {
    /// What one variant gave: the cropper's outcome and, when it found digits, the OCR text and its meaning.
    struct Attempt: Sendable {
        var variant: DiscVariant
        var outcome: CropOutcome
        var text: String?
        var confidence: Double
        var reading: SpeedReading?
        /// The disc was read whole, in grey, without cutting out digits (``DigitCropper/prepareWholeDisc``);
        /// `outcome` is then why the first variant's cut-out was rejected.
        var isWholeDisc = false
    }

    var variants: [DiscVariant]
    var vote: VariantVote
    var agreement = RecogniserAgreement()
    /// Most Tesseract calls per candidate.
    var maximumOCRCalls: Int
    /// When every variant was rejected before OCR, the disc is read whole in grey (one more OCR call).
    var readsWholeDisc = true
    private var cropper = DigitCropper()
    private var reads: [SpeedReading] = []
    private var texts: [String] = []
    /// Valid value of the standard variant (the first), if it read one at the minimum confidence.
    private var standardValue: Int?
    /// The standard variant's valid read at any confidence.
    private var standardReading: SpeedReading?
    /// How tall the standard variant's lettering stands in its disc (``DigitCropper/lastLegendHeightShare``).
    private var standardLegendHeightShare: Double?
    /// Fingerprints of the OCR pictures already read for this candidate, with their attempt: two variants that cut
    /// out the same picture (nothing to join, the same threshold) cost one OCR call.
    private var readPictures: [(fingerprint: UInt64, attempt: Int)] = []
    /// The second recogniser; nil when the bridge could not build it.
    private let classifier = SpeedDiscClassifier()
    /// The classifier's verdict on the last candidate (nil without a classifier or a usable disc).
    private(set) var lastVerdict: SpeedDiscClassifier.Verdict?
    /// The text-line recogniser's read of the last candidate (nil when it was not needed or could not run).
    private(set) var lastTextLineRead: TextLineRecogniser.Read?
    /// The text line's value of the last candidate when it was too unsure to stand and nothing ruled it out
    /// (``RecogniserAgreement/unsureTextLineReading(_:profile:standardRead:classifier:legendHeightShare:)``): the
    /// track pools these over sightings.
    private(set) var lastUnsureTextLineReading: SpeedReading?
    /// The last resort, for discs too soft for every reader; nil when the bridge could not build it.
    private let templateMatcher = DiscTemplateMatcher()
    /// Whether the template matcher may name a disc (``init(variants:vote:maximumOCRCalls:matchesTemplates:)``). The
    /// stage always matches; `DiscTemplateMatcherTests` reads the same discs both ways to show what the matcher adds,
    /// and `DiscReaderTests` turns it off so that only the recogniser under test names a disc.
    let matchesTemplates: Bool
    /// Narrowest ring (outer width, pixels) whose disc is matched with the templates: the smallest counted
    /// sign. Below it the digits are a few samples wide and a window or a doorway matches a value as well (a 26-pixel
    /// street candidate in vtest.avi matched "5" at 0.73 on two frames).
    static let templateMinimumWidth = 32.0
    /// The template matcher's match of the last candidate (nil when it was not needed or could not run).
    private(set) var lastTemplateMatch: DiscTemplateMatcher.Match?
    private var textLineBand = TextLineBand()
    /// Time spent reading the last candidate: Tesseract (all its variants), the text-line recogniser and the template
    /// matcher.
    private(set) var lastOCRDuration: Duration = .zero
    /// Tesseract calls made for the last candidate.
    private(set) var lastOCRCalls = 0
    /// The variants tried for the last candidate, in order (for diagnostics).
    private(set) var attempts: [Attempt] = []

    init(
        variants: [DiscVariant] = DiscVariant.tried, vote: VariantVote = VariantVote(), maximumOCRCalls: Int = 3,
        matchesTemplates: Bool = true
    ) {
        precondition(!variants.isEmpty && maximumOCRCalls >= 1, "a reader needs a variant and an OCR call")
        self.variants = variants
        self.vote = vote
        self.maximumOCRCalls = maximumOCRCalls
        self.matchesTemplates = matchesTemplates
        reads.reserveCapacity(variants.count)
        texts.reserveCapacity(variants.count)
        readPictures.reserveCapacity(variants.count)
        attempts.reserveCapacity(variants.count)
    }

    /// The classifier's verdict alone on `candidate` (no OCR, well under a millisecond): nil without a classifier or
    /// a usable disc.
    mutating func classify(planes: YUVPlanes, candidate: RingCandidate) -> SpeedDiscClassifier.Verdict? {
        guard let classifier, cropper.prepareClassifierImage(planes: planes, candidate: candidate) else { return nil }
        return cropper.classifierImage.withUnsafeBufferPointer {
            classifier.classify(gray: $0.baseAddress!, side: DigitCropper.canvasSize)
        }
    }

    /// The value of `candidate`, or nil when no recogniser can name it or they contradict each other.
    ///
    /// The classifier looks first (it costs far less than one OCR call). Tesseract then reads the standard variant;
    /// the fallback variants are read only while the classifier names a value that no read backs yet — without the
    /// classifier's value they could not decide anything (``RecogniserAgreement``), so they would only cost time.
    /// When the classifier names a value and every variant's cut-out was rejected before OCR, the disc is read whole.
    /// When all that decides nothing, `textLine` (if given) reads the disc's middle band: it costs several OCR calls,
    /// so clean signs that Tesseract reads never pay for it. Last, a European disc is matched with the templates.
    mutating func read(
        planes: YUVPlanes, candidate: RingCandidate, engine: TesseractEngine, textLine: TextLineRecogniser? = nil,
        profile: SpeedLimitProfile, minimumConfidence: Double, clock: any MonotonicClock = SystemClock()
    ) -> SpeedReading? {
        reads.removeAll(keepingCapacity: true)
        attempts.removeAll(keepingCapacity: true)
        readPictures.removeAll(keepingCapacity: true)
        texts.removeAll(keepingCapacity: true)
        standardValue = nil
        standardReading = nil
        standardLegendHeightShare = nil
        lastOCRDuration = .zero
        lastOCRCalls = 0
        lastVerdict = nil
        lastTextLineRead = nil
        lastUnsureTextLineReading = nil
        lastTemplateMatch = nil
        // The classifier's picture of the disc serves the template matcher too.
        let hasDiscPicture =
            (classifier != nil || templateMatcher != nil)
            && cropper.prepareClassifierImage(planes: planes, candidate: candidate)
        if let classifier, hasDiscPicture {
            lastVerdict = cropper.classifierImage.withUnsafeBufferPointer {
                classifier.classify(gray: $0.baseAddress!, side: DigitCropper.canvasSize)
            }
        }
        for (index, variant) in variants.enumerated() where lastOCRCalls < maximumOCRCalls {
            if index > 0 {
                guard let wanted = lastVerdict?.value else { break }
                if let decided = decision(minimumConfidence: minimumConfidence),
                    decided.value == wanted || vote.isSettled(reads)
                {
                    break
                }
            }
            let outcome = cropper.prepare(planes: planes, candidate: candidate, variant: variant)
            if index == 0 { standardLegendHeightShare = cropper.lastLegendHeightShare }
            guard case .digits(let layout) = outcome else {
                attempts.append(Attempt(variant: variant, outcome: outcome, confidence: 0))
                continue
            }
            let fingerprint = pictureFingerprint()
            if let earlier = readPictures.first(where: { $0.fingerprint == fingerprint }) {
                var repeated = attempts[earlier.attempt]
                repeated.variant = variant
                attempts.append(repeated)
                continue
            }
            let (text, confidence) = readOCRPicture(engine: engine, clock: clock)
            readPictures.append((fingerprint, attempts.count))
            let reading = SpeedTextInterpreter.interpret(
                text: text, confidence: confidence, layout: layout, profile: profile)
            keepEvidence(text: text, reading: reading)
            if index == 0, let reading {
                standardReading = reading
                if reading.confidence >= minimumConfidence { standardValue = reading.value }
            }
            attempts.append(
                Attempt(variant: variant, outcome: outcome, text: text, confidence: confidence, reading: reading))
        }
        // Every cut-out rejected before OCR (none read): the disc is read whole, but only while the classifier names a
        // value — without its backing such a read decides nothing (``RecogniserAgreement``), so it would only cost.
        if readsWholeDisc, lastVerdict?.value != nil, let firstOutcome = attempts.first?.outcome,
            !attempts.contains(where: { $0.text != nil }),
            firstOutcome != .rejected(.outsideFrame), firstOutcome != .rejected(.mostlyRed),
            cropper.prepareWholeDisc(planes: planes, candidate: candidate)
        {
            readWholeDisc(rejectedBecause: firstOutcome, engine: engine, profile: profile, clock: clock)
        }
        if let decided = decision(minimumConfidence: minimumConfidence) { return decided }
        if let textLine, textLineBand.prepare(planes: planes, candidate: candidate) {
            let started = clock.now()
            lastTextLineRead = textLineBand.pixels.withUnsafeBufferPointer {
                textLine.read(gray: $0.baseAddress!, width: textLineBand.width, height: TextLineRecogniser.inputHeight)
            }
            lastOCRDuration += clock.now() - started
            if let lastTextLineRead,
                let reading = agreement.decide(
                    textLine: lastTextLineRead, profile: profile, standardRead: standardReading,
                    classifier: lastVerdict, legendHeightShare: standardLegendHeightShare)
            {
                return reading
            }
            lastUnsureTextLineReading = lastTextLineRead.flatMap {
                agreement.unsureTextLineReading(
                    $0, profile: profile, standardRead: standardReading, classifier: lastVerdict,
                    legendHeightShare: standardLegendHeightShare)
            }
        }
        // The templates are European round-sign digits.
        guard matchesTemplates, hasDiscPicture, profile == .europe, candidate.box.width >= Self.templateMinimumWidth,
            let templateMatcher
        else { return nil }
        let started = clock.now()
        lastTemplateMatch = cropper.classifierImage.withUnsafeBufferPointer {
            templateMatcher.match(gray: $0.baseAddress!, side: DigitCropper.canvasSize)
        }
        lastOCRDuration += clock.now() - started
        guard let lastTemplateMatch else { return nil }
        return agreement.decide(
            templates: lastTemplateMatch, textLine: lastTextLineRead, profile: profile, standardRead: standardReading,
            classifier: lastVerdict, legendHeightShare: standardLegendHeightShare)
    }

    /// Reads the cropper's whole-disc picture: plain digits only (no blobs to repair letters against).
    private mutating func readWholeDisc(
        rejectedBecause outcome: CropOutcome, engine: TesseractEngine, profile: SpeedLimitProfile,
        clock: any MonotonicClock
    ) {
        let (text, confidence) = readOCRPicture(engine: engine, clock: clock)
        let reading = SpeedTextInterpreter.interpret(text: text, confidence: confidence, layout: nil, profile: profile)
        keepEvidence(text: text, reading: reading)
        var attempt = Attempt(
            variant: variants[0], outcome: outcome, text: text, confidence: confidence, reading: reading)
        attempt.isWholeDisc = true
        attempts.append(attempt)
    }

    /// Reads the cropper's OCR picture with Tesseract, counting the call and its time for this candidate.
    private mutating func readOCRPicture(
        engine: TesseractEngine, clock: any MonotonicClock
    ) -> (text: String, confidence: Double) {
        lastOCRCalls += 1
        let started = clock.now()
        let result = cropper.ocrImage.withUnsafeBufferPointer {
            engine.read(
                gray: $0.baseAddress!, width: cropper.ocrWidth, height: cropper.ocrHeight, bytesPerRow: cropper.ocrWidth)
        }
        lastOCRDuration += clock.now() - started
        return result
    }

    /// Keeps what one read says for the decision: its valid value for the vote, its text (letters mapped to the digits
    /// they are mistaken for) for ``RecogniserAgreement``.
    private mutating func keepEvidence(text: String, reading: SpeedReading?) {
        if let reading { reads.append(reading) }
        texts.append(String(text.map { SpeedTextInterpreter.confusions[$0] ?? $0 }))
    }

    /// What the reads so far and the classifier's verdict decide.
    private func decision(minimumConfidence: Double) -> SpeedReading? {
        let tesseract = vote.decide(reads: reads, minimumConfidence: minimumConfidence)
        let evidence = RecogniserAgreement.TesseractEvidence(
            decision: tesseract, standardVariantAgrees: tesseract != nil && tesseract?.value == standardValue,
            validReads: reads, texts: texts)
        return agreement.decide(tesseract: evidence, classifier: lastVerdict, minimumConfidence: minimumConfidence)
    }

    /// FNV-1a over the OCR picture's size and pixels.
    private func pictureFingerprint() -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        mix(UInt8(truncatingIfNeeded: cropper.ocrWidth))
        mix(UInt8(truncatingIfNeeded: cropper.ocrHeight))
        for index in 0..<(cropper.ocrWidth * cropper.ocrHeight) { mix(cropper.ocrImage[index]) }
        return hash
    }
}
