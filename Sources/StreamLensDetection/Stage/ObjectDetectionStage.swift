import StreamLensCore
import Synchronization

/// The object-detection analysis stage: detector → threshold and class filter → tracker → ``Detections``.
///
/// - Detections at or above the confidence threshold start and continue tracks; those between
///   ``Configuration/trackingFloor`` and the threshold are handed to the tracker's second round, where they only
///   continue tracks (``ByteTracker``). Only tracks are reported, so no box below the threshold is shown on its own.
///
/// - The detector is created lazily on the analysis thread by the loader given at init, so a model that fails
///   to load does not stop the run: the stage throws the load error for that frame (the runner counts it through
///   ``FramePathObserver/analysisFailed(stage:pts:error:)``), and the ``CircuitBreaker`` decides when to retry.
/// - Every detector call goes through the breaker. While it refuses (backoff, open circuit) the frame is not
///   analysed: the tracker keeps showing what it holds until ``TrackerConfiguration/maxAge``.
/// - Boxes are in source pixels; ``Detection/trackID`` is set; at most
///   ``TrackerConfiguration/maxConcurrent`` detections per frame.
/// - Events (when an ``EventLog`` is given): `{"type":"detection"}` per reported object per analysed frame and
///   `{"type":"track"}` per finished track (when it ends, or at ``finish(at:)``).
///
/// ## Thread Safety
/// ``analyze(_:)`` and ``finish(at:)`` run on one analysis thread at a time (the ``AnalysisStage`` contract);
/// detector and tracker are confined to it. ``report`` may be read from any thread: counters sit behind a
/// mutex, the breaker and latency recorder synchronize themselves.
public final class ObjectDetectionStage: AnalysisStage, @unchecked Sendable {
    /// Tuning of the stage around its detector.
    public struct Configuration: Sendable {
        /// Width of the analysis copy the stage asks for (nil: source width).
        public var preferredAnalysisWidth: Int? = 640
        /// The analysis copy's colours (``ObjectDetectionOptions/analysisColours``: the backend's need).
        public var analysisColours: AnalysisColours = .source
        /// Detections below this confidence start no track (ONNX models apply the lower of it and
        /// ``trackingFloor`` before NMS).
        public var confidenceThreshold: Double = 0.5
        /// Detections from this confidence up to ``confidenceThreshold`` only continue tracks; below it they are
        /// dropped. At or above the threshold: no second round.
        public var trackingFloor: Double = 0.1
        /// Class names to keep (empty: all) and to drop.
        public var allowedClasses: Set<String> = []
        public var deniedClasses: Set<String> = []
        public var tracker = TrackerConfiguration()
        /// The tracker's box smoothing once ``resultsWillBeAwaited()`` is called (frame-accurate runs draw each
        /// analysed frame with its own result: smoothing would move its box away from what was found on it, and
        /// the boxes between analysed frames are interpolated anyway). 1: none.
        public var smoothingWhenAwaited: Double = 1
        public var breaker = CircuitBreaker.Configuration()
        /// Write a `detection` event per reported object per analysed frame (track events are always written).
        public var emitDetectionEvents = true
        /// Where tracks go in MOTChallenge text (`--export mot FILE`), if anywhere.
        public var mot: MOTWriter?
        /// Where tracked boxes go as COCO detection results (`--export coco FILE`), if anywhere.
        public var coco: COCOWriter?

        public init() {}
    }

    private struct Counters {
        var analysedFrames = 0
        var reportedDetections = 0
        var skippedByBreaker = 0
        var tracksFinished = 0
        var tracksStarted = 0
        var lastError: String?
    }

    public let name: String
    public let configuration: Configuration
    public let breaker: CircuitBreaker
    /// Inference time of each successful detector call.
    public let inferenceLatency = LatencyRecorder()
    public var preferredAnalysisWidth: Int? { configuration.preferredAnalysisWidth }
    public var analysisColours: AnalysisColours { configuration.analysisColours }

    private let backendName: String
    private let loadDetector: @Sendable () throws -> any ObjectDetector
    private let clock: any MonotonicClock
    private let events: EventLog?
    /// Replaced only by ``resultsWillBeAwaited()``, before the first frame.
    private var tracker: ByteTracker
    private let counters = Mutex(Counters())
    /// Confined to the analysis thread.
    private var detector: (any ObjectDetector)?

    /// A stage whose detector is made by `loadDetector` on first use (and again after a failed load, when the
    /// breaker allows). `backendName` names it in reports before it exists.
    public init(
        name: String = "objects", backendName: String, configuration: Configuration = Configuration(),
        clock: any MonotonicClock = SystemClock(), events: EventLog? = nil,
        loadDetector: @escaping @Sendable () throws -> any ObjectDetector
    ) throws {
        try configuration.tracker.validate()
        try configuration.breaker.validate()
        guard (0...1).contains(configuration.confidenceThreshold) else {
            throw DetectionError.invalidOption("confidence threshold \(configuration.confidenceThreshold) outside 0…1")
        }
        guard (0...1).contains(configuration.trackingFloor) else {
            throw DetectionError.invalidOption("tracking floor \(configuration.trackingFloor) outside 0…1")
        }
        if let width = configuration.preferredAnalysisWidth, width < 16 {
            throw DetectionError.invalidOption("analysis width \(width) is too small")
        }
        self.name = name
        self.backendName = backendName
        self.configuration = configuration
        self.clock = clock
        self.events = events
        self.loadDetector = loadDetector
        self.breaker = CircuitBreaker(configuration: configuration.breaker, clock: clock)
        self.tracker = ByteTracker(configuration: configuration.tracker)
    }

    /// A stage around a detector that already exists.
    public convenience init(
        name: String = "objects", detector: any ObjectDetector, configuration: Configuration = Configuration(),
        clock: any MonotonicClock = SystemClock(), events: EventLog? = nil
    ) throws {
        nonisolated(unsafe) let ready = detector
        try self.init(
            name: name, backendName: detector.backendName, configuration: configuration, clock: clock,
            events: events, loadDetector: { ready })
    }

    public func analyze(_ frame: AnalysisFrame) throws -> Detections {
        if case .denied = breaker.requestPermission() {
            counters.withLock { $0.skippedByBreaker += 1 }
            // Tracks still age out while the detector rests; the frame itself was not looked at.
            throw AnalysisDeclined(
                reason: "the detector is resting after failures (circuit breaker open)",
                held: publish(tracker.advance(to: frame.pts), pts: frame.pts))
        }
        let started = clock.now()
        let found: [Detection]
        do {
            let detector = try self.detector ?? loadDetector()
            self.detector = detector
            found = try detector.detect(frame)
        } catch {
            breaker.recordFailure()
            counters.withLock { $0.lastError = String(describing: error) }
            // A failed call says nothing about the scene: hold the tracks, count no misses.
            _ = publish(tracker.advance(to: frame.pts), pts: frame.pts)
            throw error
        }
        let latency = clock.now() - started
        inferenceLatency.record(latency)
        breaker.recordSuccess(duration: latency)
        var confident: [Detection] = []
        var low: [Detection] = []
        for detection in found where isWantedClass(detection) {
            if detection.confidence >= configuration.confidenceThreshold {
                confident.append(detection)
            } else if detection.confidence >= configuration.trackingFloor {
                low.append(detection)
            }
        }
        counters.withLock { $0.analysedFrames += 1 }
        let update = tracker.update(confident, lowConfidence: low, at: frame.pts)
        if configuration.mot != nil || configuration.coco != nil {
            // The tracks this frame saw (not the held ones), as drawn.
            let seen = Set(update.observed.compactMap(\.trackID))
            let tracked = update.visible.filter { $0.trackID.map(seen.contains) == true }
            configuration.mot?.write(frame: frame.frameIndex + 1, detections: tracked)
            configuration.coco?.write(
                frame: frame.frameIndex + 1, width: frame.sourceWidth, height: frame.sourceHeight, detections: tracked)
        }
        return publish(update, pts: frame.pts)
    }

    /// Slow detector calls no longer trip the circuit breaker (failures still do), and boxes take
    /// ``Configuration/smoothingWhenAwaited``.
    public func resultsWillBeAwaited() {
        breaker.ignoreTimeouts()
        var awaited = configuration.tracker
        awaited.smoothing = configuration.smoothingWhenAwaited
        tracker = ByteTracker(configuration: awaited)
    }

    public func finish(at pts: Duration) {
        let finished = tracker.finishAll(at: pts)
        emitTrackEvents(finished)
        counters.withLock { $0.tracksStarted = tracker.tracksStarted }
    }

    /// Counters, breaker state and inference latency so far.
    public var report: DetectionStageReport {
        let breakerCounters = breaker.counters
        let snapshot = counters.withLock { $0 }
        return DetectionStageReport(
            stage: name, backend: backendName, analysedFrames: snapshot.analysedFrames,
            reportedDetections: snapshot.reportedDetections, failures: breakerCounters.failures,
            timeouts: breakerCounters.timeouts, breakerTrips: breakerCounters.trips,
            breakerProbes: breakerCounters.probes, framesSkippedByBreaker: snapshot.skippedByBreaker,
            breakerState: breaker.state, tracksStarted: snapshot.tracksStarted,
            tracksFinished: snapshot.tracksFinished, inferenceMedian: inferenceLatency.quantile(0.5),
            inferenceP95: inferenceLatency.quantile(0.95), lastError: snapshot.lastError)
    }

    private func isWantedClass(_ detection: Detection) -> Bool {
        (configuration.allowedClasses.isEmpty || configuration.allowedClasses.contains(detection.className))
            && !configuration.deniedClasses.contains(detection.className)
    }

    /// Writes the events of one update and wraps its visible tracks as this stage's ``Detections``.
    private func publish(_ update: ByteTracker.Update, pts: Duration) -> Detections {
        if let events, configuration.emitDetectionEvents {
            let shownIDs = Set(update.visible.compactMap(\.trackID))
            for detection in update.observed where detection.trackID.map(shownIDs.contains) == true {
                events.emit(DetectionEvent(stage: name, pts: pts, detection: detection))
            }
        }
        emitTrackEvents(update.finished)
        let started = tracker.tracksStarted
        counters.withLock {
            $0.reportedDetections += update.visible.count
            $0.tracksStarted = started
        }
        return Detections(pts: pts, source: name, items: update.visible)
    }

    private func emitTrackEvents(_ finished: [FinishedTrack]) {
        guard !finished.isEmpty else { return }
        counters.withLock { $0.tracksFinished += finished.count }
        guard let events else { return }
        // Tracks never reported (beyond the concurrency cap, or not the primary subject) stay out of the log.
        for track in finished where track.wasShown { events.emit(TrackEvent(stage: name, track: track)) }
    }
}
