import StreamLensCore
import Synchronization

/// The most recent OCR durations (one per candidate read: Tesseract and, when they ran, the text-line recogniser and
/// the template matcher), kept in a fixed ring so recording never allocates; and how many candidates the text-line
/// recogniser read and the template matcher matched; what the stage spared itself: candidates it did not read
/// (``SignTracker/wantsRead(at:)``) and contrast seeds the locator passed over (``RejectedSeedMemory``); and the size
/// of the frames it analysed.
///
/// ## Thread Safety
/// A mutex guards the ring: the analysis thread records, any thread may ask for the summary.
public final class OCRTimings: Sendable {
    private struct Ring {
        var samples: [Duration]
        var next = 0
        var total = 0
        var textLineReads = 0
        var templateMatches = 0
        var candidatesNotRead = 0
        var contrastSeedsPassedOver = 0
        var analysedSize: (width: Int, height: Int)?
    }

    private let ring: Mutex<Ring>
    public let capacity: Int

    public init(capacity: Int = 1024) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
        ring = Mutex(Ring(samples: [Duration](repeating: .zero, count: capacity)))
    }

    /// Records one read's duration; `textLine`: the text-line recogniser read the candidate too; `templates`: the
    /// template matcher matched it.
    public func record(_ duration: Duration, textLine: Bool = false, templates: Bool = false) {
        ring.withLock { ring in
            if textLine { ring.textLineReads += 1 }
            if templates { ring.templateMatches += 1 }
            ring.samples[ring.next] = duration
            ring.next = (ring.next + 1) % capacity
            ring.total += 1
        }
    }

    /// Counts a candidate that was located but not read: its track's reads were complete, or it is a still ring
    /// that read nothing.
    public func recordNotRead() {
        ring.withLock { $0.candidatesNotRead += 1 }
    }

    /// Sets the locator's running count of contrast seeds passed over.
    public func noteContrastSeedsPassedOver(total: Int) {
        ring.withLock { $0.contrastSeedsPassedOver = total }
    }

    /// Notes the size of the frame being analysed (the source's, or its scaled copy's: see
    /// ``SpeedLimitConfiguration/analysisWidth``).
    public func noteAnalysedSize(width: Int, height: Int) {
        ring.withLock { $0.analysedSize = (width, height) }
    }

    /// The last ``capacity`` durations, oldest first.
    public func samples() -> [Duration] {
        ring.withLock { ring in
            ring.total <= capacity
                ? Array(ring.samples.prefix(ring.total))
                : Array(ring.samples[ring.next...] + ring.samples[..<ring.next])
        }
    }

    /// Candidates the text-line recogniser read so far.
    public var textLineReads: Int { ring.withLock { $0.textLineReads } }

    /// Candidates the template matcher matched so far.
    public var templateMatches: Int { ring.withLock { $0.templateMatches } }

    /// Candidates located but not read so far (``recordNotRead()``).
    public var candidatesNotRead: Int { ring.withLock { $0.candidatesNotRead } }

    /// Contrast seeds the locator has passed over so far.
    public var contrastSeedsPassedOver: Int { ring.withLock { $0.contrastSeedsPassedOver } }

    /// Size of the last frame analysed; nil before the first.
    public var analysedSize: (width: Int, height: Int)? { ring.withLock { $0.analysedSize } }

    /// Reads recorded so far, and the median of the last ``capacity`` of them (nil before the first).
    public func summary() -> (count: Int, median: Duration?) {
        let total = ring.withLock { $0.total }
        let sorted = samples().sorted()
        guard !sorted.isEmpty else { return (total, nil) }
        return (total, sorted[sorted.count / 2])
    }
}
