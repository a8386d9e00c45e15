import StreamLensCore

/// A bounded, downsampled timeline of the run for plotting: time since the run started is cut into at most
/// `capacity` buckets; each keeps the number of arrivals, the smallest and largest inter-arrival interval, drops,
/// and the time spent stalled or blocked. When time runs past the last bucket, neighbouring buckets merge in pairs
/// and the bucket width doubles, so memory stays fixed however long the run.
struct IntervalSeries: Sendable {
    let capacity: Int
    private(set) var bucketWidth: Duration
    private(set) var usedBuckets = 0
    private var arrivals: [Int]
    private var minInterval: [Duration?]
    private var maxInterval: [Duration?]
    private var drops: [Int]
    private var stalled: [Duration]
    private var blocked: [Duration]

    init(capacity: Int = 2000, initialBucketWidth: Duration = .milliseconds(10)) {
        precondition(capacity >= 2 && capacity % 2 == 0, "the series needs an even number of buckets")
        self.capacity = capacity
        bucketWidth = initialBucketWidth
        arrivals = Array(repeating: 0, count: capacity)
        minInterval = Array(repeating: nil, count: capacity)
        maxInterval = Array(repeating: nil, count: capacity)
        drops = Array(repeating: 0, count: capacity)
        stalled = Array(repeating: .zero, count: capacity)
        blocked = Array(repeating: .zero, count: capacity)
    }

    /// A frame arrived `offset` after the start, `interval` after the previous one (nil for the first frame).
    mutating func recordArrival(at offset: Duration, interval: Duration?) {
        let bucket = bucketIndex(for: offset)
        arrivals[bucket] += 1
        if let interval {
            minInterval[bucket] = min(minInterval[bucket] ?? interval, interval)
            maxInterval[bucket] = max(maxInterval[bucket] ?? interval, interval)
        }
    }

    mutating func recordDrop(at offset: Duration) {
        drops[bucketIndex(for: offset)] += 1
    }

    /// Spreads a stall (`isStall`) or blocked period over the buckets it covers.
    mutating func recordEpisode(from start: Duration, to end: Duration, isStall: Bool) {
        guard end > start else { return }
        _ = bucketIndex(for: end)  // widen first, so the whole period fits
        let startBucket = bucketIndex(for: start)
        let endBucket = bucketIndex(for: end)
        for bucket in startBucket...endBucket {
            let bucketStart = bucketWidth * bucket
            let overlap = min(end, bucketStart + bucketWidth) - max(start, bucketStart)
            guard overlap > .zero else { continue }
            if isStall { stalled[bucket] += overlap } else { blocked[bucket] += overlap }
        }
    }

    /// Withdraws a stall recorded earlier (it turned out to be backpressure).
    mutating func removeStall(from start: Duration, to end: Duration) {
        guard end > start else { return }
        let startBucket = bucketIndex(for: start)
        let endBucket = bucketIndex(for: end)
        for bucket in startBucket...endBucket {
            let bucketStart = bucketWidth * bucket
            let overlap = min(end, bucketStart + bucketWidth) - max(start, bucketStart)
            guard overlap > .zero else { continue }
            stalled[bucket] = max(.zero, stalled[bucket] - overlap)
        }
    }

    /// The series as it goes into the report.
    var report: TimelineReport {
        let used = 0..<usedBuckets
        return TimelineReport(
            bucketMilliseconds: bucketWidth.reportMilliseconds,
            arrivals: Array(arrivals[used]),
            minIntervalMilliseconds: minInterval[used].map { $0?.reportMilliseconds },
            maxIntervalMilliseconds: maxInterval[used].map { $0?.reportMilliseconds },
            drops: Array(drops[used]),
            stalledMilliseconds: stalled[used].map(\.reportMilliseconds),
            blockedMilliseconds: blocked[used].map(\.reportMilliseconds))
    }

    /// The bucket for `offset`, merging buckets until it fits.
    private mutating func bucketIndex(for offset: Duration) -> Int {
        let clamped = max(offset, .zero)
        var index = Int(clamped / bucketWidth)
        while index >= capacity {
            halveResolution()
            index = Int(clamped / bucketWidth)
        }
        usedBuckets = max(usedBuckets, index + 1)
        return index
    }

    private mutating func halveResolution() {
        let half = capacity / 2
        for target in 0..<half {
            let a = 2 * target, b = 2 * target + 1
            arrivals[target] = arrivals[a] + arrivals[b]
            minInterval[target] = Self.combine(minInterval[a], minInterval[b], by: min)
            maxInterval[target] = Self.combine(maxInterval[a], maxInterval[b], by: max)
            drops[target] = drops[a] + drops[b]
            stalled[target] = stalled[a] + stalled[b]
            blocked[target] = blocked[a] + blocked[b]
        }
        for index in half..<capacity {
            arrivals[index] = 0
            minInterval[index] = nil
            maxInterval[index] = nil
            drops[index] = 0
            stalled[index] = .zero
            blocked[index] = .zero
        }
        usedBuckets = (usedBuckets + 1) / 2
        bucketWidth *= 2
    }

    private static func combine(
        _ a: Duration?, _ b: Duration?, by pick: (Duration, Duration) -> Duration
    ) -> Duration? {
        switch (a, b) {
        case (let a?, let b?): pick(a, b)
        case (let a?, nil): a
        case (nil, let b?): b
        case (nil, nil): nil
        }
    }
}
