/// A 256-bin histogram of luma samples and the levels both croppers threshold and stretch by. Its storage is kept
/// across candidates (no allocation per frame).
struct LumaHistogram {
    private var counts = [Int](repeating: 0, count: 256)

    mutating func removeAll() {
        for level in 0..<256 { counts[level] = 0 }
    }

    mutating func add(_ sample: UInt8) {
        counts[Int(sample)] += 1
    }

    /// The lowest level with more than `share` of `total` samples at or below it.
    func percentile(total: Int, share: Double) -> Int {
        let target = Int(Double(total) * share)
        var running = 0
        for level in 0..<256 {
            running += counts[level]
            if running > target { return level }
        }
        return 255
    }

    /// `value` stretched so that `dark` is black and `bright` white (clamped).
    static func stretched(_ value: UInt8, dark: Int, bright: Int) -> UInt8 {
        let span = Double(max(1, bright - dark))
        return UInt8(max(0, min(255, (Double(value) - Double(dark)) * 255 / span)).rounded())
    }

    /// Otsu's threshold over `low...high`: the level that best separates ink from paper (maximal between-class
    /// variance). Pixels at or below it are ink.
    func otsuThreshold(from low: Int, to high: Int) -> Int {
        var total = 0
        var weightedTotal = 0.0
        for level in low...high {
            total += counts[level]
            weightedTotal += Double(level * counts[level])
        }
        var best = (low + high) / 2
        var bestVariance = -1.0
        var darkCount = 0
        var darkSum = 0.0
        for level in low..<high {
            darkCount += counts[level]
            darkSum += Double(level * counts[level])
            let brightCount = total - darkCount
            guard darkCount > 0, brightCount > 0 else { continue }
            let meanDark = darkSum / Double(darkCount)
            let meanBright = (weightedTotal - darkSum) / Double(brightCount)
            let variance = Double(darkCount) * Double(brightCount) * (meanBright - meanDark) * (meanBright - meanDark)
            if variance > bestVariance {
                bestVariance = variance
                best = level
            }
        }
        return best
    }

    /// Lower quartile of the samples brighter than `threshold` (the paper): stretching it to white leaves the paper
    /// around the digits as white as the OCR picture's margin (a grey box around each digit costs confidence).
    func paperWhite(above threshold: Int) -> Int {
        var paper = 0
        for level in (threshold + 1)..<256 { paper += counts[level] }
        var running = 0
        for level in (threshold + 1)..<256 {
            running += counts[level]
            if running * 4 >= paper { return level }
        }
        return 255
    }
}
