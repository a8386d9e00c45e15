import Foundation
import StreamLensTelemetry

/// Speed and limit over the video's time: the speed as a line (broken where it is unknown), the limit in force as a
/// step line (one horizontal step per value, joined where one follows another), speeding stretches shaded.
struct SpeedLimitChart {
    let profile: DriveProfile

    static let width = 1216.0
    static let height = 280.0
    private static let left = 64.0, right = 1200.0
    private static let top = 26.0, bottom = 236.0

    func render() -> String {
        var svg = SVGCanvas(width: Self.width, height: Self.height)
        let span = max(profile.end - profile.start, 1e-3)
        func x(_ time: Double) -> Double { Self.left + (time - profile.start) / span * (Self.right - Self.left) }
        let highest = max(
            profile.looks.compactMap(\.speed).max() ?? 0, Double(profile.limits.map(\.value).max() ?? 0), 10)
        let yStep = TimelineChart.niceStep(highest * 1.1 / 5)
        let yMax = (highest * 1.1 / yStep).rounded(.up) * yStep
        func y(_ speed: Double) -> Double { Self.bottom - min(max(speed, 0), yMax) / yMax * (Self.bottom - Self.top) }

        var gridLine = 0.0
        while gridLine <= yMax + 1e-9 {
            svg.line(x1: Self.left, y1: y(gridLine), x2: Self.right, y2: y(gridLine), className: "grid")
            svg.text(SVGCanvas.number(gridLine), x: Self.left - 6, y: y(gridLine) + 4, className: "tick", anchor: "end")
            gridLine += yStep
        }
        svg.text(profile.unit, x: 4, y: 12, className: "axis-title")
        let timeStep = TimelineChart.niceStep(span / 8)
        var tick = (profile.start / timeStep).rounded(.up) * timeStep
        while tick <= profile.end + 1e-9 {
            svg.line(x1: x(tick), y1: Self.bottom, x2: x(tick), y2: Self.bottom + 5, className: "axis")
            svg.text(SVGCanvas.number(tick), x: x(tick), y: Self.bottom + 18, className: "tick", anchor: "middle")
            tick += timeStep
        }
        svg.text("stream time (s)", x: Self.right, y: Self.height - 4, className: "axis-title", anchor: "end")

        for stretch in profile.speeding {
            svg.rect(
                x: x(stretch.start), y: Self.top, width: x(stretch.end) - x(stretch.start), height: Self.bottom - Self.top,
                className: "speeding-band",
                data: [
                    ("start", SVGCanvas.number(stretch.start)), ("end", SVGCanvas.number(stretch.end)),
                    ("limit", String(stretch.limit)), ("max-speed", String(format: "%.1f", stretch.maxSpeed)),
                ],
                title: String(
                    format: "speeding %@–%@ s: up to %.0f %@ under %d", SVGCanvas.number(stretch.start),
                    SVGCanvas.number(stretch.end), stretch.maxSpeed, stretch.unit, stretch.limit))
        }
        for (index, step) in profile.limits.enumerated() {
            if index > 0, abs(profile.limits[index - 1].to - step.from) < 1e-9 {
                let previous = profile.limits[index - 1]
                svg.line(
                    x1: x(step.from), y1: y(Double(previous.value)), x2: x(step.from), y2: y(Double(step.value)),
                    className: "limit-rise")
            }
            svg.line(
                x1: x(step.from), y1: y(Double(step.value)), x2: x(step.to), y2: y(Double(step.value)),
                className: "limit-step",
                data: [("limit", String(step.value)), ("from", SVGCanvas.number(step.from)), ("to", SVGCanvas.number(step.to))])
        }
        // The speed: one line per run of looks a step apart with a known speed.
        var run: [DriveProfile.Look] = []
        func drawRun() {
            if run.count > 1 {
                svg.polyline(
                    run.map { (x($0.time), y($0.speed!)) }, className: "speed-line",
                    data: [("from", SVGCanvas.number(run.first!.time)), ("to", SVGCanvas.number(run.last!.time))])
            }
            run = []
        }
        for look in profile.looks {
            if look.speed == nil || (run.last.map { look.time - $0.time > profile.step * 1.5 } ?? false) { drawRun() }
            if look.speed != nil { run.append(look) }
        }
        drawRun()
        svg.line(x1: Self.left, y1: Self.bottom, x2: Self.right, y2: Self.bottom, className: "axis")
        svg.line(x1: Self.left, y1: Self.top, x2: Self.left, y2: Self.bottom, className: "axis")
        return svg.render(id: "speed-chart", label: "speed and speed limit over time")
    }
}
