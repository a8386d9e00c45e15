import Foundation
import StreamLensCore
import StreamLensTelemetry

/// `--html PATH.html`: one self-contained page a person reads at a glance — headline numbers, the frame-interval
/// timeline with drop, stall and blocked markers, the latency histogram and per-stage bars; and, when the run had GPS
/// telemetry, the drive's track coloured by speed against the limit and its speed and limit over time.
///
/// Everything is inline (CSS and SVG; no scripts, fonts or images from anywhere). The report itself is embedded as
/// `<script type="application/json" id="report-data">`, the exact JSON the plots were drawn from.
public enum HTMLReport {
    /// The page for `report`; `drive` adds the track and the speed chart (nil: the run had no telemetry).
    public static func render(report: RunReport, drive: DriveProfile? = nil) throws -> String {
        let json = String(decoding: try report.jsonData(), as: UTF8.self)
            // "</script" or "<!--" inside a script element would end or confuse it. "<" occurs only inside JSON
            // strings, where "\u003c" is the same character.
            .replacingOccurrences(of: "<", with: "\\u003c")
        let run = report.run
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>StreamLens report — \(HTMLText.escape(run.input))</title>
            <style>\(style)</style>
            </head>
            <body>
            <header>
            <h1>StreamLens run report</h1>
            <p class="run">\(HTMLText.escape(run.input))\(run.output.map { " → " + HTMLText.escape($0) } ?? "")</p>
            <p class="about">\(HTMLText.escape(about(run)))</p>
            \(run.error.map { "<p class=\"error\">error: \(HTMLText.escape($0))</p>" } ?? "")
            </header>

            """
        page += headline(report)
        page += section(
            "Frame intervals",
            note: "Time between arrivals from the source (min–max per \(format(report.timeline.bucketMilliseconds)) ms "
                + "bucket, log scale). Red ticks: drops. Orange: source stalled. Blue: producer blocked on the pool.",
            body: TimelineChart(timeline: report.timeline).render())
        page += "<div class=\"row\">\n"
        page += section(
            "End-to-end latency",
            note: "Frames by time from arrival to output (\(report.latencyMilliseconds.count) frames).",
            body: LatencyChart(bins: report.latencyHistogramMilliseconds).render())
        page += section(
            "Time per stage",
            note: "Bar: p50, light: up to p95, tick: p99 (ms).",
            body: StageChart(report: report).render())
        page += "</div>\n"
        if let drive { page += driveSections(drive) }
        page += details(report)
        page += "<script type=\"application/json\" id=\"report-data\">\n\(json)\n</script>\n</body>\n</html>\n"
        return page
    }

    /// Renders and writes the page to `path`.
    public static func write(report: RunReport, drive: DriveProfile? = nil, toPath path: String) throws(StatsError) {
        do {
            try Data(render(report: report, drive: drive).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .cannotWrite(path: path, reason: String(describing: error))
        }
    }

    // MARK: - Parts

    private static func about(_ run: RunContext) -> String {
        var parts = [
            run.live ? "live source" : "file", "policy \(run.policy.rawValue)", "pool \(run.poolCapacity)",
            "streamlens \(run.streamlensVersion)", "GStreamer \(run.gstreamerVersion)",
        ]
        if run.interrupted { parts.append("interrupted") }
        return parts.joined(separator: " · ")
    }

    private static func headline(_ report: RunReport) -> String {
        let frames = report.frames
        var tiles: [(label: String, value: String, detail: String, alert: Bool)] = [
            ("frames output", "\(frames.output)", "of \(frames.decoded) decoded", false),
            ("dropped", "\(frames.droppedTotal)", dropDetail(frames), frames.droppedTotal > 0),
            ("throughput", format(report.throughputFPS) + " fps", "over " + format(report.durationSeconds) + " s", false),
            ("latency p50", format(report.latencyMilliseconds.p50) + " ms",
             "p95 \(format(report.latencyMilliseconds.p95)) · p99 \(format(report.latencyMilliseconds.p99)) · max \(format(report.latencyMilliseconds.max))",
             false),
            ("jitter p95", format(report.jitterMilliseconds.p95) + " ms",
             "RFC 3550 \(format(report.jitterMilliseconds.rfc3550)) ms · max \(format(report.jitterMilliseconds.max))", false),
        ]
        if let behind = report.behindRealTimeMilliseconds {
            tiles.append((
                "behind real time", format(behind.max / 1000) + " s", "at most · p95 \(format(behind.p95 / 1000)) s",
                report.fellBehindRealTime != nil))
        }
        tiles += [
            ("stalls", "\(report.stalls.count)", format(report.stalls.totalMilliseconds) + " ms silent", report.stalls.count > 0),
            ("blocked", "\(report.blocked.count)", format(report.blocked.totalMilliseconds) + " ms waiting", false),
            ("gaps", "\(frames.gaps)", "\(frames.missingFrames) frames missing", frames.gaps > 0),
        ]
        if let reconnects = report.reconnects, reconnects.inputWasLost {
            tiles.append((
                "reconnects", "\(reconnects.count)",
                "\(reconnects.attempts) attempts · \(format(reconnects.totalMilliseconds)) ms without input", reconnects.count > 0))
        }
        if let repairs = frames.timestampRepairs, repairs > 0 {
            tiles.append(("timestamp repairs", "\(repairs)", "times went back or jumped: later frames shifted", true))
        }
        if let cpu = report.cpuSeconds, let rss = report.peakRSSMegabytes {
            tiles.append(("resources", format(cpu) + " s CPU", String(format: "peak RSS %.1f MB", rss), false))
        }
        var html = "<section class=\"tiles\">\n"
        for tile in tiles {
            html += "<div class=\"tile\(tile.alert ? " alert" : "")\"><div class=\"label\">\(HTMLText.escape(tile.label))</div>"
                + "<div class=\"value\">\(HTMLText.escape(tile.value))</div>"
                + "<div class=\"detail\">\(HTMLText.escape(tile.detail))</div></div>\n"
        }
        return html + "</section>\n"
    }

    /// The speeding rule's tolerance in words, from the rule the speeding events use.
    static var toleranceText: String {
        let rule = SpeedingFinder.Rule()
        let floorMph = rule.toleranceFloorKmh / 1.609344
        return "\(Int((rule.toleranceFraction * 100).rounded())) %, at least \(format(rule.toleranceFloorKmh)) km/h "
            + "or \(String(format: "%.1f", floorMph)) mph"
    }

    private static func driveSections(_ drive: DriveProfile) -> String {
        let over = drive.looks.filter { $0.standing == .over }.count
        let seconds = drive.speeding.reduce(0) { $0 + $1.end - $1.start }
        let stretches = drive.speeding.count == 1 ? "1 speeding stretch" : "\(drive.speeding.count) speeding stretches"
        var html = section(
            "Track",
            note: "The drive during the video (\(drive.looks.count) looks, one every \(format(drive.step)) s), north up, "
                + "no map underneath. \(drive.signs.count) sign(s) passed; \(stretches) (\(format(seconds)) s); "
                + "\(over) look(s) over the tolerance (\(Self.toleranceText)).",
            body: DriveMapChart(profile: drive).render() + "\n" + DriveMapChart.legend)
        html += section(
            "Speed and limit",
            note: "Speed (\(drive.unit)) as a line, the limit read from the signs as steps, speeding stretches shaded.",
            body: SpeedLimitChart(profile: drive).render())
        return html
    }

    private static func dropDetail(_ frames: FrameCounts) -> String {
        let causes = DropCause.allCases.compactMap { cause -> String? in
            let count = frames.dropped[cause.rawValue] ?? 0
            return count > 0 ? "\(cause.rawValue) \(count)" : nil
        }
        return causes.isEmpty ? "none" : causes.joined(separator: " · ")
    }

    private static func section(_ title: String, note: String, body: String) -> String {
        "<section class=\"chart\">\n<h2>\(HTMLText.escape(title))</h2>\n<p class=\"note\">\(HTMLText.escape(note))</p>\n\(body)\n</section>\n"
    }

    private static func details(_ report: RunReport) -> String {
        var html = "<section class=\"details\">\n<h2>Details</h2>\n<table>\n<tr><th>drop cause</th><th>frames</th></tr>\n"
        for cause in DropCause.allCases {
            html += "<tr><td>\(cause.rawValue)</td><td>\(report.frames.dropped[cause.rawValue] ?? 0)</td></tr>\n"
        }
        html += "</table>\n"
        if !report.analysis.isEmpty {
            html += "<table>\n<tr><th>analysis stage</th><th>done</th><th>skipped</th><th>failed</th><th>detections</th></tr>\n"
            for (name, stage) in report.analysis.sorted(by: { $0.key < $1.key }) {
                html += "<tr><td>\(HTMLText.escape(name))</td><td>\(stage.completed)</td><td>\(stage.skipped)</td>"
                    + "<td>\(stage.failed)</td><td>\(stage.detections)</td></tr>\n"
            }
            html += "</table>\n"
        }
        return html + "</section>\n"
    }

    static func format(_ value: Double) -> String {
        abs(value) >= 100 ? String(format: "%.0f", value) : abs(value) >= 10 ? String(format: "%.1f", value) : String(format: "%.2f", value)
    }

    private static let style = """
        body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:24px 32px;color:#1d2430;background:#fff}
        h1{font-size:26px;margin:0 0 4px} h2{font-size:18px;margin:0 0 2px}
        .run{font-size:16px;margin:2px 0;font-weight:bold;color:#334} .about,.note{color:#5a6270;font-size:13px;margin:2px 0 8px}
        .error{color:#b3261e;font-weight:bold}
        .tiles{display:grid;grid-template-columns:repeat(5,1fr);gap:10px;margin:16px 0 20px}
        .tile{border:1px solid #d8dde6;border-radius:8px;padding:10px 12px;background:#f7f9fc}
        .tile.alert{border-color:#e3a19b;background:#fdf1f0} .tile.alert .value{color:#b3261e}
        .label{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#5a6270}
        .value{font-size:24px;font-weight:bold;margin:2px 0} .detail{font-size:12px;color:#5a6270}
        .chart{margin:0 0 22px} .row{display:flex;gap:24px} .row .chart{flex:1}
        svg text{font-family:inherit;font-size:12px;fill:#3b4350} svg .axis{stroke:#9aa3b0;stroke-width:1}
        svg .grid{stroke:#e6e9ef;stroke-width:1} svg .interval{stroke:#2f6fd0} svg .drop{fill:#d93025}
        svg .stall{fill:#f29900} svg .blocked{fill:#4a90e2} svg .latency-bar{fill:#5b8def}
        svg .stage-p50{fill:#2f6fd0} svg .stage-p95{fill:#a9c4f2} svg .stage-p99{stroke:#1d2430;stroke-width:2}
        svg .track-segment{stroke-width:3;stroke-linecap:round} svg .sign{fill:#fff;stroke:#d93025;stroke-width:3}
        svg .sign-value{font-size:10px;font-weight:bold;fill:#1d2430} svg .scale-bar{stroke:#1d2430;stroke-width:2}
        svg .speed-line{fill:none;stroke:#2f6fd0;stroke-width:2} svg .limit-step,svg .limit-rise{stroke:#d93025;stroke-width:2}
        svg .speeding-band{fill:#d93025;opacity:.18}
        .legend{font-size:12px;color:#5a6270} .key{margin-right:14px}
        .swatch{display:inline-block;width:18px;height:4px;margin:0 5px 3px 0;vertical-align:middle}
        table{border-collapse:collapse;margin:6px 24px 6px 0;display:inline-table;vertical-align:top;font-size:13px}
        th,td{border-bottom:1px solid #e6e9ef;padding:4px 12px;text-align:right} th:first-child,td:first-child{text-align:left}
        """
}
