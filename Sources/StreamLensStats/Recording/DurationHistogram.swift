import Histogram
import StreamLensCore

/// Percentiles of durations, kept in an HdrHistogram at microsecond resolution with three significant digits.
///
/// Memory is fixed when the histogram is made (about 86 KB): recording never allocates. Counts are 32-bit — a bucket
/// would need four billion durations within its microsecond of precision to wrap; a run at 60 fps records 5 million a
/// day — which halves the memory of the run's dozen histograms. Durations longer than
/// ``highestTrackable`` are recorded as that value; the exact largest duration is kept separately for ``max``.
struct DurationHistogram: Sendable {
    /// Ten minutes: far beyond any per-frame time worth measuring precisely.
    static let highestTrackable = Duration.seconds(600)
    private static let highestTrackableMicroseconds = UInt64(highestTrackable.nanoseconds / 1000)

    private var histogram: Histogram<UInt32>
    /// The exact largest duration recorded (the histogram rounds within its precision).
    private(set) var max = Duration.zero
    /// Exact counts per plot bin (see ``bins()``); HdrHistogram's buckets do not line up with round edges.
    private var plotCounts = [Int](repeating: 0, count: DurationHistogram.plotEdgesMicroseconds.count)

    init() {
        histogram = Histogram(
            lowestDiscernibleValue: 1, highestTrackableValue: Self.highestTrackableMicroseconds,
            numberOfSignificantValueDigits: .three)
    }

    var count: Int { Int(histogram.totalCount) }

    /// Records one duration; negative durations count as zero.
    mutating func record(_ duration: Duration) {
        let clamped = Swift.max(duration, .zero)
        // Round to the nearest microsecond.
        let microseconds = UInt64((clamped.nanoseconds + 500) / 1000)
        histogram.record(Swift.min(microseconds, Self.highestTrackableMicroseconds))
        plotCounts[Self.plotBin(forMicroseconds: microseconds)] += 1
        if clamped > max { max = clamped }
    }

    /// The value at `percentile` (0...100) in milliseconds; 0 when nothing was recorded. HdrHistogram answers with
    /// the top of the value's bucket, which can lie above the largest duration recorded: never more than ``max``.
    func milliseconds(atPercentile percentile: Double) -> Double {
        guard histogram.totalCount > 0 else { return 0 }
        return Swift.min(Double(histogram.valueAtPercentile(percentile)) / 1000, max.reportMilliseconds)
    }

    /// p50, p95, p99, max and count, in milliseconds.
    var summary: PercentileSummary {
        PercentileSummary(
            p50: milliseconds(atPercentile: 50), p95: milliseconds(atPercentile: 95),
            p99: milliseconds(atPercentile: 99), max: max.reportMilliseconds, count: count)
    }

    /// Counts per bin for plotting, from the first bin holding a value to the last. Bin edges follow the 1-2-5
    /// series in milliseconds (0, 0.01, 0.02, 0.05, 0.1, …); every recorded value lands in exactly one bin.
    func bins() -> [HistogramBin] {
        guard let first = plotCounts.firstIndex(where: { $0 > 0 }),
            let last = plotCounts.lastIndex(where: { $0 > 0 })
        else { return [] }
        return (first...last).map { bin in
            HistogramBin(
                from: Double(Self.lowerEdgeMicroseconds(ofBin: bin)) / 1000,
                to: Double(Self.lowerEdgeMicroseconds(ofBin: bin + 1)) / 1000, count: plotCounts[bin])
        }
    }

    /// Upper edges of the plot bins in microseconds: 10, 20, 50, 100, … up to 1000 s.
    private static let plotEdgesMicroseconds: [UInt64] = {
        var edges: [UInt64] = []
        var decade: UInt64 = 10
        while decade <= 100_000_000 {
            edges += [decade, 2 * decade, 5 * decade]
            decade *= 10
        }
        edges.append(decade)
        return edges
    }()

    private static func lowerEdgeMicroseconds(ofBin bin: Int) -> UInt64 {
        bin == 0 ? 0 : plotEdgesMicroseconds[bin - 1]
    }

    /// The plot bin of a value: how many edges lie at or below it.
    private static func plotBin(forMicroseconds microseconds: UInt64) -> Int {
        var bin = 0
        while bin < plotEdgesMicroseconds.count - 1 && plotEdgesMicroseconds[bin] <= microseconds { bin += 1 }
        return bin
    }
}
