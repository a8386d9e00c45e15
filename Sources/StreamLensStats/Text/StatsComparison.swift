import Foundation

/// `streamlens stats A.json B.json`: two reports side by side with the difference (B − A) and ratio (B / A).
public enum StatsComparison {
    /// The comparison table. With `colour`, a change for the better is green and for the worse red (for metrics
    /// where a direction is better: fewer drops, lower latency, higher throughput).
    public static func render(
        _ a: RunReport, _ b: RunReport, colour: Bool = false, names: (a: String, b: String) = ("A", "B")
    ) -> String {
        var table = TextTable(alignments: [.left, .right, .right, .right, .right])
        table.add(["", names.a, names.b, "Δ", "\(names.b)/\(names.a)"].map { TextTable.Cell($0, colour: .bold) })
        for metric in ReportMetric.comparable(a, b) {
            let valueA = metric.value(a)
            let valueB = metric.value(b)
            let cells = [
                TextTable.Cell(metric.label),
                TextTable.Cell(valueA.map(metric.unit.format) ?? "—"),
                TextTable.Cell(valueB.map(metric.unit.format) ?? "—"),
            ]
            guard let valueA, let valueB else {
                table.add(cells + [TextTable.Cell("—"), TextTable.Cell("—")])
                continue
            }
            let delta = valueB - valueA
            // Compare at the printed precision, so a change too small to show is not coloured.
            let changed = metric.unit.format(valueA) != metric.unit.format(valueB)
            let tint: TextTable.Colour? =
                switch (metric.better, changed) {
                case (.lower, true): delta < 0 ? .green : .red
                case (.higher, true): delta > 0 ? .green : .red
                default: nil
                }
            let deltaText = changed ? (delta > 0 ? "+" : "") + metric.unit.format(delta) : "0"
            let ratioText = valueA != 0 ? String(format: "%.2f×", valueB / valueA) : "—"
            table.add(cells + [TextTable.Cell(deltaText, colour: tint), TextTable.Cell(ratioText, colour: tint)])
        }
        let header = "\(names.a): \(a.run.input) (\(a.run.live ? "live" : "file"), policy \(a.run.policy.rawValue))\n"
            + "\(names.b): \(b.run.input) (\(b.run.live ? "live" : "file"), policy \(b.run.policy.rawValue))\n\n"
        return header + table.render(colour: colour)
    }
}
