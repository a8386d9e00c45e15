import Foundation
import StreamLensCore
import StreamLensTelemetry

/// Reads speed-limit signs: locate red rings → cut out the digits, normalised a few ways, read them with Tesseract and
/// check with a second recogniser (``DiscReader``) → validate against the region → vote across frames → one event per
/// physical sign, plus the current limit as a ``Detection``.
///
/// ``analyze(_:)`` returns at most one detection, the limit in force (class `speed_limit`, `text` = the value, box
/// of the sign in source pixels, its track id), so the compositor's badge shows the latest confirmed sign until a new
/// sign replaces it or it expires. Each sign, once passed (not seen for the track timeout) or at ``finish(at:)``,
/// becomes one ``SpeedLimitEvent`` in the event log and one cue in the WebVTT file — only when its reads agree: a
/// wrong limit is worse than none.
///
/// **Analysis width.** ``preferredAnalysisWidth`` defaults to nil (the full source width): a sign 24 px across in a
/// 1080p frame would be 16 px at 1280 wide, too small to read. Locating runs on the chroma planes only (a quarter of
/// the pixels, no colour conversion) and OCR runs on small crops, so full resolution costs little — up to 4K, whose
/// frames are analysed at 1920 wide (``SpeedLimitConfiguration/largeSourceWidth``).
///
/// **Interval.** Tuned for ``SpeedLimitConfiguration/recommendedInterval`` (80 ms: every second frame at 25 fps).
///
/// ## Thread Safety
/// `@unchecked Sendable`: all mutable state (locator, reader, tracker, the Tesseract engine) is touched only by
/// ``analyze(_:)`` and ``finish(at:)``, which the frame path calls from one analysis thread at a time. The Tesseract
/// engine is created on that thread when the first candidate needs reading — or, after
/// ``startReadersInBackground()``, on a loading thread and handed over at the first read — and freed with the stage.
/// ``ocrTimings`` and the event sinks are thread-safe on their own.
public final class SpeedLimitStage: AnalysisStage, @unchecked Sendable {
    public let name: String
    public let configuration: SpeedLimitConfiguration
    /// Time spent reading each candidate that reached OCR (Tesseract over its variants, and the text-line recogniser
    /// when it ran), for benchmarks and reports.
    public let ocrTimings = OCRTimings()

    private let events: EventLog?
    private let subtitles: WebVTTWriter?
    /// Where the vehicle was at a stream time (seconds), from the run's GPS track; nil without one.
    public typealias Locator = @Sendable (Double) -> GeoPosition?
    private let locate: Locator?
    private let clock: any MonotonicClock

    private var tessdataFolder: String?
    private var engine: TesseractEngine?
    /// The text-line model's file, found by ``prepare()``; nil: the reader runs without it.
    public private(set) var textLineModelPath: String?
    /// Why the installed text-line model could not be loaded, if it could not: the reader then runs without it.
    public private(set) var textLineModelProblem: String?
    private var textLineModelResolved = false
    private var textLine: TextLineRecogniser?
    /// The engines loading on their own thread, from ``startReadersInBackground()`` until the first read or
    /// ``finish(at:)`` takes them.
    private var loadingEngines: ReaderEngines?
    /// Whether engines started in background have not been taken yet (their thread may still be loading).
    var readerEnginesUntaken: Bool { loadingEngines != nil }
    /// When the reader's engines (Tesseract, the text-line model) were started, for reports: their memory is spent
    /// from then on.
    public enum EnginesStart: String, Sendable {
        /// Not yet: no candidate needed reading.
        case notStarted = "not_started"
        /// On the analysis thread, when the first candidate needed reading.
        case onFirstCandidate = "first_candidate"
        /// On a thread of their own when a frame-accurate run began (``resultsWillBeAwaited()``).
        case inBackground = "background"
        /// On a thread of their own before the input opened: a frame-accurate run on a file
        /// (``startReadersBeforeInput()``).
        case beforeInput = "before_input"
    }
    /// When the reader's engines were started.
    public private(set) var enginesStart = EnginesStart.notStarted
    private var locator = RedRingLocator()
    private var reader = DiscReader()
    private var tracker: SignTracker
    private var memory: SpeedLimitMemory
    private var sightings: [SignSighting] = []
    private var closedTracks: [SignTrack] = []
    private var recentSigns: RecentSigns
    /// Decided events waiting while a later piece of their sign may still lengthen them.
    private var heldEvents = HeldSignEvents()
    /// Stream time of the last analysed frame: a later frame before it starts a new timeline (a loop, a seek back,
    /// recordings joined end to end).
    private var lastAnalysedPTS: Duration?
    /// The US path (white rectangles instead of red rings), when the profile's signs are rectangular.
    private let usReader: UsSignReader?

    /// - Parameters:
    ///   - events: where each sign's event goes (`--events`); nil writes none.
    ///   - subtitles: where each sign's cue goes (`--subtitles`); nil writes none.
    ///   - locate: where the vehicle was at a stream time; each event then carries where its sign was passed.
    ///   - clock: times OCR calls.
    public init(
        name: String = "speed_limit", configuration: SpeedLimitConfiguration = SpeedLimitConfiguration(),
        events: EventLog? = nil, subtitles: WebVTTWriter? = nil, locate: Locator? = nil,
        clock: any MonotonicClock = SystemClock()
    ) {
        self.name = name
        self.configuration = configuration
        self.events = events
        self.subtitles = subtitles
        self.locate = locate
        self.clock = clock
        tracker = SignTracker(
            timeout: configuration.trackTimeout, maximumReads: configuration.maximumReadsPerSign,
            vote: configuration.vote)
        memory = SpeedLimitMemory(expiry: configuration.limitExpiry)
        recentSigns = RecentSigns(maximumGap: RecentSigns.allowedGap(trackTimeout: configuration.trackTimeout))
        usReader = configuration.profile.signShape == .whiteRectangle ? UsSignReader() : nil
        sightings.reserveCapacity(locator.maximumCandidates)
        closedTracks.reserveCapacity(8)
    }

    deinit {
        // Engines still loading when the stage goes (a run that failed before its first frame) are waited for, as in
        // ``finish(at:)``: the program's exit would tear down OpenCV's layer registry under the model's load.
        takeLoadedEngines()
    }

    public var preferredAnalysisWidth: Int? { configuration.analysisWidth }

    public func analysisWidth(forSourceWidth sourceWidth: Int) -> Int? {
        configuration.analysisWidth
            ?? (sourceWidth >= SpeedLimitConfiguration.largeSourceWidth
                ? SpeedLimitConfiguration.largeSourceAnalysisWidth : nil)
    }

    /// Finds Tesseract's language file and the text-line model now, so that a missing one fails the run before it
    /// starts. A model file named in the configuration is loaded now too, so that a broken one fails the run; the
    /// installed one and the Tesseract engine start on the first candidate that needs reading (many clips have
    /// none; the model costs about 20 MiB), or earlier in background (``startReadersInBackground()``). Call it before
    /// the first frame or on the analysis thread.
    public func prepare() throws {
        if tessdataFolder == nil { tessdataFolder = try TesseractEngine.dataFolder(tessdataPath: configuration.tessdataPath) }
        if !textLineModelResolved {
            switch configuration.textLineModel {
            case .installed: textLineModelPath = TextLineRecogniser.installedModel()
            case .file(let path):
                guard FileManager.default.fileExists(atPath: path) else {
                    throw SignsError.textLineModelUnusable(path: path, reason: "no such file")
                }
                textLineModelPath = path
                textLine = try TextLineRecogniser(modelPath: path)
            case .off: textLineModelPath = nil
            }
            textLineModelResolved = true
        }
    }

    /// In a frame-accurate run the video waits for this stage's lane, so the reader's engines start now, in
    /// background (``startReadersInBackground()``), rather than stalling the video at the first candidate.
    public func resultsWillBeAwaited() { startReadersInBackground() }

    /// Starts the reader's engines loading in background now, before the input opens, for a run known to await this
    /// stage's results (a frame-accurate run on a file): they load while the pipelines start, when a core is idle.
    /// Call it after ``prepare()``.
    public func startReadersBeforeInput() { startReadersInBackground(as: .beforeInput) }

    /// Starts the Tesseract engine and the installed text-line model loading on a thread of their own
    /// (``ReaderEngines``), so that the first candidate finds them ready instead of stalling the analysis lane. It
    /// costs their memory (about 35 MiB) even when no candidate ever comes, which is why only frame-accurate runs
    /// (``resultsWillBeAwaited()``) do it: a live run's lane may stall without stalling the video. Call it after
    /// ``prepare()``, before the first frame.
    func startReadersInBackground(as start: EnginesStart = .inBackground) {
        guard engine == nil, loadingEngines == nil, let tessdataFolder else { return }
        enginesStart = start
        loadingEngines = ReaderEngines(
            tessdataFolder: tessdataFolder, textLineModelPath: textLine == nil ? textLineModelPath : nil)
    }

    /// Takes what ``startReadersInBackground()`` loaded, waiting for it if need be. An engine that failed to start
    /// there is started again on first use, which throws the same error where the reader expects it.
    private func takeLoadedEngines() {
        guard let loading = loadingEngines else { return }
        loadingEngines = nil
        let loaded = loading.take()
        engine = try? loaded.engine.get()
        switch loaded.textLine {
        case .success(let recogniser)?: textLine = recogniser
        case .failure(let error)?: textLineModelProblem = "\(error)"
        case nil: break
        }
    }

    /// The text-line recogniser, loaded on first use (on the analysis thread) unless it was loading already; nil
    /// without a model, or when the installed one cannot be loaded (``textLineModelProblem`` says why; the reader
    /// goes on without it).
    private func startedTextLine() -> TextLineRecogniser? {
        takeLoadedEngines()
        if let textLine { return textLine }
        guard let textLineModelPath, textLineModelProblem == nil else { return nil }
        do {
            textLine = try TextLineRecogniser(modelPath: textLineModelPath)
        } catch {
            textLineModelProblem = "\(error)"
        }
        return textLine
    }

    /// The engine, started on first use (on the analysis thread, like every other use) unless it was loading already.
    private func startedEngine() throws -> TesseractEngine {
        takeLoadedEngines()
        if let engine { return engine }
        try prepare()
        let started = try TesseractEngine(dataFolder: tessdataFolder!)
        if enginesStart == .notStarted { enginesStart = .onFirstCandidate }
        engine = started
        return started
    }

    public func analyze(_ frame: AnalysisFrame) throws -> Detections {
        try prepare()
        ocrTimings.noteAnalysedSize(width: frame.planes.width, height: frame.planes.height)
        if let usReader { return try analyzeRectangularSigns(frame, reader: usReader) }
        let scale = frame.scaleToSource
        locator.locate(in: frame.planes)
        ocrTimings.noteContrastSeedsPassedOver(total: locator.seedsPassedOver)
        sightings.removeAll(keepingCapacity: true)
        for candidate in locator.candidates {
            let box = candidate.box
            var reading: SpeedReading?
            // A sign whose reads are complete is only followed, not read again; nor is a still ring that reads nothing.
            let wasRead = tracker.wantsRead(at: box)
            if wasRead {
                reading = reader.read(
                    planes: frame.planes, candidate: candidate, engine: try startedEngine(),
                    textLine: startedTextLine(), profile: configuration.profile,
                    minimumConfidence: candidate.isFaint
                        ? configuration.faintRingMinimumConfidence : configuration.minimumConfidence, clock: clock)
                if reader.lastOCRDuration > .zero {
                    ocrTimings.record(
                        reader.lastOCRDuration, textLine: reader.lastTextLineRead != nil,
                        templates: reader.lastTemplateMatch != nil)
                }
            } else {
                ocrTimings.recordNotRead()
            }
            var sighting = SignSighting(
                analysisBox: box, sourceBox: box.scaled(x: scale.x, y: scale.y), reading: reading, wasRead: wasRead)
            if wasRead { sighting.unsureTextLineReading = reader.lastUnsureTextLineReading }
            if reading == nil, tracker.wouldResumeConfirmedSign(at: box) {
                // The read's verdict, or the classifier alone (well under a millisecond) for a ring not read.
                let verdict = wasRead ? reader.lastVerdict : reader.classify(planes: frame.planes, candidate: candidate)
                sighting.looksLikeNoSpeedValue =
                    verdict.map { $0.value == nil && $0.confidence >= SignTrack.NoSpeedValue.minimumMargin } ?? false
            }
            sightings.append(sighting)
        }
        closedTracks.removeAll(keepingCapacity: true)
        tracker.update(pts: frame.pts, sightings: sightings, closed: &closedTracks)
        settleClosedTracks(at: frame.pts)
        forgetWrittenSignsIfTheTimelineRestarted(at: frame.pts)
        return detections(at: frame.pts)
    }

    /// The signs written before a timeline restart are no pieces of the signs after it, however close their times:
    /// the same sign seen again on a second pass is a second event. (The tracker has closed their tracks already.)
    private func forgetWrittenSignsIfTheTimelineRestarted(at pts: Duration) {
        if let lastAnalysedPTS, pts < lastAnalysedPTS {
            writeHeldEvents(at: nil)
            recentSigns.forgetAll()
        }
        lastAnalysedPTS = pts
    }

    public func finish(at pts: Duration) {
        // Engines still loading in background are waited for (local files: it ends): the program may exit right after
        // a short clip, and exit tears down OpenCV's layer registry under a model load still using it (a crash).
        takeLoadedEngines()
        closedTracks.removeAll(keepingCapacity: true)
        tracker.closeAll(into: &closedTracks)
        settleClosedTracks(at: nil)
    }

    /// The limit in force after the frames analysed so far (nil when none or expired). Call it on the analysis thread
    /// or after ``finish(at:)``, like ``analyze(_:)``.
    public func currentLimit(at pts: Duration) -> CurrentSpeedLimit? {
        let inView = tracker.latestConfirmedTrack().map {
            CurrentSpeedLimit(
                value: $0.reading.value, confidence: $0.reading.confidence, box: $0.track.lastSourceBox,
                trackID: $0.track.id, lastSeen: $0.track.lastSeen)
        }
        return memory.current(at: pts, inView: inView)
    }

    // MARK: - Steps

    /// Decides an event for each closed sign whose reads agree, hands it to the limit memory and writes the events
    /// no open track may still lengthen (all of them at the end: `pts` nil).
    private func settleClosedTracks(at pts: Duration?) {
        for track in closedTracks {
            // A sign seen once confirms with its one read (a still image) — unless frames analysed right after did not
            // show it: then it was a flash or a piece of a broken track, and needs the reads of two sightings.
            let sightings = track.framesMissed > 0 ? max(2, track.sightings) : track.sightings
            guard let decision = configuration.vote.decide(reads: track.reads, sightings: sightings) else {
                continue
            }
            let event = SpeedLimitEvent(
                value: decision.reading.value, unit: configuration.profile.unit, start: track.firstSeen.seconds,
                end: track.lastSeen.seconds, confidence: decision.reading.confidence,
                box: (track.largestReadSourceBox ?? track.largestSourceBox).rounded, reads: decision.agreeing)
            // One physical sign whose track broke in two writes one event: a later piece lengthens the event while
            // it is held, and is dropped once it was written.
            switch recentSigns.place(
                value: decision.reading.value, firstSeen: track.firstSeen, lastSeen: track.lastSeen,
                firstBox: track.firstSourceBox, lastBox: track.lastSourceBox)
            {
            case .pieceOf(let sign):
                heldEvents.join(event, toSign: sign)
                continue
            case .newSign(let sign):
                heldEvents.hold(event, sign: sign)
            }
            memory.settle(CurrentSpeedLimit(
                value: decision.reading.value, confidence: decision.reading.confidence, box: track.lastSourceBox,
                trackID: track.id, lastSeen: track.lastSeen))
        }
        writeHeldEvents(at: pts)
    }

    /// Writes the held events that no open track may still lengthen (all of them with `pts` nil).
    private func writeHeldEvents(at pts: Duration?) {
        heldEvents.release(at: pts, openTracks: tracker.openTracks, recentSigns: recentSigns) { decided in
            // The sign is passed at its last (nearest) sighting.
            var event = decided
            event.position = locate?(event.end)
            events?.emit(event)
            subtitles?.append(event)
        }
    }

    /// The confirmed sign in view, boxed where it was last seen. A sign that has left the picture is no detection
    /// (its box was drawn over empty road for as long as the limit held, up to the expiry); the badge keeps showing
    /// its limit by itself for as long (``currentLimit(at:)`` says what it is). A sign missed in the last analysed
    /// frame may be a blur or a glare: its box stays one analysis longer; missed twice, it is gone (its box stayed
    /// over empty road until the track's timeout).
    private func detections(at pts: Duration) -> Detections {
        guard let (track, reading) = tracker.latestConfirmedTrack(), track.missedSinceLastSeen <= 1 else {
            return .empty(pts: pts, source: name)
        }
        return Detections(pts: pts, source: name, items: [
            Detection(
                box: track.lastSourceBox, className: "speed_limit", confidence: reading.confidence, trackID: track.id,
                text: String(reading.value)),
        ])
    }
}

extension SpeedLimitStage {
    /// ``analyze(_:)`` for white rectangular signs: another locator and cropper, the same tracking, votes and events.
    private func analyzeRectangularSigns(_ frame: AnalysisFrame, reader: UsSignReader) throws -> Detections {
        sightings.removeAll(keepingCapacity: true)
        try reader.collectSightings(
            in: frame, engine: startedEngine, configuration: configuration, clock: clock, timings: ocrTimings,
            tracker: tracker, into: &sightings)
        closedTracks.removeAll(keepingCapacity: true)
        tracker.update(pts: frame.pts, sightings: sightings, closed: &closedTracks)
        settleClosedTracks(at: frame.pts)
        forgetWrittenSignsIfTheTimelineRestarted(at: frame.pts)
        return detections(at: frame.pts)
    }
}
