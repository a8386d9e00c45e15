/// Per-stage time: one row per stage (end-to-end latency first, then the frame path's steps in order, then each
/// analysis stage), a solid bar to p50, a light bar on to p95 and a tick at p99.
struct StageChart {
    let report: RunReport

    static let width = 596.0
    private static let labelWidth = 150.0, right = 520.0, rowHeight = 30.0, top = 10.0

    /// The rows drawn: stages that measured something.
    var rows: [(name: String, summary: PercentileSummary)] {
        let stages = report.stages.keys.sorted(by: ReportMetric.stageOrder).compactMap { name in
            report.stages[name].map { (name: name, summary: $0) }
        }
        return ([(name: "end to end", summary: report.latencyMilliseconds)] + stages).filter { $0.summary.count > 0 }
    }

    func render() -> String {
        let rows = rows
        let height = Self.top + Double(max(rows.count, 1)) * Self.rowHeight + 34
        var svg = SVGCanvas(width: Self.width, height: height)
        guard !rows.isEmpty else {
            svg.text("no stage was measured", x: Self.width / 2, y: height / 2, className: "empty", anchor: "middle")
            return svg.render(id: "stage-chart", label: "time per stage (empty)")
        }
        let scaleMax = TimelineChart.niceStep(max(rows.map(\.summary.p99).max() ?? 1, 0.01) * 1.05)
        func x(_ milliseconds: Double) -> Double {
            Self.labelWidth + min(milliseconds, scaleMax) / scaleMax * (Self.right - Self.labelWidth)
        }
        let bottom = Self.top + Double(rows.count) * Self.rowHeight
        for fraction in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let lineX = x(fraction * scaleMax)
            svg.line(x1: lineX, y1: Self.top, x2: lineX, y2: bottom, className: "grid")
            svg.text(SVGCanvas.number(fraction * scaleMax), x: lineX, y: bottom + 16, className: "tick", anchor: "middle")
        }
        for (index, row) in rows.enumerated() {
            let rowTop = Self.top + Double(index) * Self.rowHeight + 6
            let barHeight = Self.rowHeight - 12
            let summary = row.summary
            svg.text(row.name, x: Self.labelWidth - 8, y: rowTop + barHeight - 4, className: "tick", anchor: "end")
            svg.rect(
                x: x(0), y: rowTop, width: x(summary.p95) - x(0), height: barHeight, className: "stage-p95",
                data: [("stage", row.name), ("p95", String(summary.p95))])
            svg.rect(
                x: x(0), y: rowTop, width: x(summary.p50) - x(0), height: barHeight, className: "stage-p50",
                data: [("stage", row.name), ("p50", String(summary.p50))],
                title: "\(row.name): p50 \(summary.p50) ms, p95 \(summary.p95) ms, p99 \(summary.p99) ms, max \(summary.max) ms")
            svg.line(
                x1: x(summary.p99), y1: rowTop - 2, x2: x(summary.p99), y2: rowTop + barHeight + 2, className: "stage-p99",
                data: [("stage", row.name), ("p99", String(summary.p99))])
            svg.text(
                HTMLReport.format(summary.p50) + " / " + HTMLReport.format(summary.p95), x: Self.right + 6,
                y: rowTop + barHeight - 4, className: "tick")
        }
        svg.text("ms (p50 / p95 at right)", x: Self.right, y: height - 4, className: "axis-title", anchor: "end")
        return svg.render(id: "stage-chart", label: "time per stage")
    }
}
