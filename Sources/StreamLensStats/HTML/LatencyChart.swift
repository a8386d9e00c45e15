/// The end-to-end latency histogram: one bar per 1-2-5 bin, labelled with its range and count.
struct LatencyChart {
    let bins: [HistogramBin]

    static let width = 596.0
    static let height = 280.0
    private static let left = 44.0, right = 588.0, top = 22.0, bottom = 226.0

    func render() -> String {
        var svg = SVGCanvas(width: Self.width, height: Self.height)
        guard let largest = bins.map(\.count).max(), largest > 0 else {
            svg.text("no frames were output", x: Self.width / 2, y: Self.height / 2, className: "empty", anchor: "middle")
            return svg.render(id: "latency-chart", label: "latency histogram (empty)")
        }
        let slot = (Self.right - Self.left) / Double(bins.count)
        for fraction in [0.0, 0.5, 1.0] {
            let lineY = Self.bottom - fraction * (Self.bottom - Self.top)
            svg.line(x1: Self.left, y1: lineY, x2: Self.right, y2: lineY, className: "grid")
            svg.text(
                SVGCanvas.number((fraction * Double(largest)).rounded()), x: Self.left - 6, y: lineY + 4,
                className: "tick", anchor: "end")
        }
        for (index, bin) in bins.enumerated() {
            let height = Double(bin.count) / Double(largest) * (Self.bottom - Self.top)
            let x = Self.left + Double(index) * slot
            let range = "\(SVGCanvas.number(bin.from))–\(SVGCanvas.number(bin.to))"
            svg.rect(
                x: x + slot * 0.1, y: Self.bottom - height, width: slot * 0.8, height: height, className: "latency-bar",
                data: [("from", String(bin.from)), ("to", String(bin.to)), ("count", String(bin.count))],
                title: "\(bin.count) frames in \(range) ms")
            if bin.count > 0 {
                svg.text(String(bin.count), x: x + slot / 2, y: Self.bottom - height - 4, className: "tick", anchor: "middle")
            }
            svg.text(range, x: x + slot / 2, y: Self.bottom + 16, className: "tick", anchor: "middle")
        }
        svg.line(x1: Self.left, y1: Self.bottom, x2: Self.right, y2: Self.bottom, className: "axis")
        svg.text("latency (ms)", x: Self.right, y: Self.height - 8, className: "axis-title", anchor: "end")
        svg.text("frames", x: 4, y: Self.top - 8, className: "axis-title")
        return svg.render(id: "latency-chart", label: "end-to-end latency histogram")
    }
}
