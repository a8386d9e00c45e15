import Foundation

/// The frame-interval timeline: per bucket a vertical line from the smallest to the largest inter-arrival interval
/// (log scale), red drop ticks along the top, orange shading where the source stalled, a blue band where the
/// producer was blocked.
struct TimelineChart {
    let timeline: TimelineReport

    static let width = 1216.0
    static let height = 300.0
    private static let left = 64.0, right = 1200.0
    private static let dropTop = 6.0, dropBottom = 24.0
    private static let plotTop = 30.0, plotBottom = 236.0
    private static let blockedTop = 242.0, blockedBottom = 254.0

    func render() -> String {
        var svg = SVGCanvas(width: Self.width, height: Self.height)
        let buckets = timeline.arrivals.count
        guard buckets > 0 else {
            svg.text("no frames arrived", x: Self.width / 2, y: Self.height / 2, className: "empty", anchor: "middle")
            return svg.render(id: "timeline-chart", label: "frame interval timeline (empty)")
        }
        let intervals = timeline.maxIntervalMilliseconds.compactMap { $0 }
        let yMax = max(10, pow(10, ceil(log10(max(intervals.max() ?? 10, 1e-3)))))
        let yMin = 0.1
        func y(_ milliseconds: Double) -> Double {
            let clamped = min(max(milliseconds, yMin), yMax)
            let fraction = (log10(clamped) - log10(yMin)) / (log10(yMax) - log10(yMin))
            return Self.plotBottom - fraction * (Self.plotBottom - Self.plotTop)
        }
        let step = (Self.right - Self.left) / Double(buckets)
        func x(_ bucket: Int) -> Double { Self.left + Double(bucket) * step }

        // Grid and axes.
        var decade = yMin
        while decade <= yMax * 1.0001 {
            svg.line(x1: Self.left, y1: y(decade), x2: Self.right, y2: y(decade), className: "grid")
            svg.text(Self.label(milliseconds: decade), x: Self.left - 6, y: y(decade) + 4, className: "tick", anchor: "end")
            decade *= 10
        }
        svg.text("drops", x: 4, y: Self.dropBottom - 6, className: "axis-title")
        svg.text("blocked", x: 4, y: Self.blockedBottom - 2, className: "axis-title")
        let totalSeconds = Double(buckets) * timeline.bucketMilliseconds / 1000
        let tickSeconds = Self.niceStep(totalSeconds / 8)
        var tick = 0.0
        while tick <= totalSeconds + 1e-9 {
            let tickX = Self.left + tick / totalSeconds * (Self.right - Self.left)
            svg.line(x1: tickX, y1: Self.blockedBottom, x2: tickX, y2: Self.blockedBottom + 5, className: "axis")
            svg.text(Self.label(seconds: tick), x: tickX, y: Self.blockedBottom + 18, className: "tick", anchor: "middle")
            tick += tickSeconds
        }
        svg.text("time since start (s)", x: Self.right, y: Self.height - 4, className: "axis-title", anchor: "end")

        // Stalls behind everything: opacity grows with the share of the bucket spent stalled.
        let bucketMilliseconds = timeline.bucketMilliseconds
        for (bucket, stalled) in timeline.stalledMilliseconds.enumerated() where stalled > 0 {
            let share = min(1, stalled / bucketMilliseconds)
            svg.rect(
                x: x(bucket), y: Self.plotTop, width: step, height: Self.plotBottom - Self.plotTop,
                className: "stall", data: [("bucket", String(bucket)), ("ms", String(stalled))],
                attributes: [("opacity", SVGCanvas.number(0.15 + 0.45 * share))])
        }
        for (bucket, blocked) in timeline.blockedMilliseconds.enumerated() where blocked > 0 {
            let share = min(1, blocked / bucketMilliseconds)
            svg.rect(
                x: x(bucket), y: Self.blockedBottom - share * (Self.blockedBottom - Self.blockedTop), width: step,
                height: share * (Self.blockedBottom - Self.blockedTop), className: "blocked",
                data: [("bucket", String(bucket)), ("ms", String(blocked))])
        }
        // Interval ranges.
        let strokeWidth = SVGCanvas.number(max(1, step * 0.8))
        for bucket in 0..<buckets {
            guard let low = timeline.minIntervalMilliseconds[bucket], let high = timeline.maxIntervalMilliseconds[bucket]
            else { continue }
            let center = x(bucket) + step / 2
            // A range thinner than 2 px still shows as a short mark.
            let top = min(y(high), y(low) - 2)
            svg.line(
                x1: center, y1: y(low), x2: center, y2: top, className: "interval",
                data: [("bucket", String(bucket)), ("min", String(low)), ("max", String(high))],
                attributes: [("stroke-width", strokeWidth)])
        }
        // Drops along the top, height by count relative to the worst bucket.
        let maxDrops = timeline.drops.max() ?? 0
        for (bucket, drops) in timeline.drops.enumerated() where drops > 0 {
            let share = 0.3 + 0.7 * Double(drops) / Double(maxDrops)
            svg.rect(
                x: x(bucket), y: Self.dropBottom - share * (Self.dropBottom - Self.dropTop), width: max(2, step),
                height: share * (Self.dropBottom - Self.dropTop), className: "drop",
                data: [("bucket", String(bucket)), ("count", String(drops))],
                title: "\(drops) dropped at \(Self.label(seconds: Double(bucket) * bucketMilliseconds / 1000)) s")
        }
        svg.line(x1: Self.left, y1: Self.plotBottom, x2: Self.right, y2: Self.plotBottom, className: "axis")
        svg.line(x1: Self.left, y1: Self.plotTop, x2: Self.left, y2: Self.plotBottom, className: "axis")
        return svg.render(id: "timeline-chart", label: "frame interval timeline")
    }

    /// 1, 2 or 5 times a power of ten, at least `rough`.
    static func niceStep(_ rough: Double) -> Double {
        guard rough > 0 else { return 1 }
        let power = pow(10, floor(log10(rough)))
        for multiple in [1.0, 2, 5, 10] where multiple * power >= rough { return multiple * power }
        return 10 * power
    }

    static func label(milliseconds: Double) -> String {
        milliseconds >= 1000 ? "\(SVGCanvas.number(milliseconds / 1000)) s" : "\(SVGCanvas.number(milliseconds)) ms"
    }

    static func label(seconds: Double) -> String { SVGCanvas.number(seconds) }
}
