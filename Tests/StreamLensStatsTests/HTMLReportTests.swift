import Foundation
import StreamLensCore
import Testing
@testable import StreamLensStats

@Suite("HTML report")
struct HTMLReportTests {
    /// The JSON embedded in the page, decoded.
    static func embeddedReport(in html: String) throws -> RunReport {
        let opening = "<script type=\"application/json\" id=\"report-data\">"
        let start = try #require(html.range(of: opening))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return try RunReport.decode(Data(html[start.upperBound..<end.lowerBound].utf8), path: "embedded report-data")
    }

    /// `data-<name>` values of the SVG elements with class `className`.
    static func dataValues(_ html: String, className: String, attribute: String) -> [String] {
        html.split(separator: "\n").filter { $0.contains("class=\"\(className)\"") }.compactMap { line in
            guard let range = line.range(of: "data-\(attribute)=\"") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test func embeddedDataIsTheReportAndThePlotsShowIt() throws {
        let report = RealisticRun.makeReport()
        let html = try HTMLReport.render(report: report)
        #expect(try Self.embeddedReport(in: html) == report)

        // Self-contained: no scripts to run, nothing fetched.
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("src="))
        #expect(html.components(separatedBy: "<script").count == 2)

        // Timeline: one interval mark per bucket with intervals, one drop mark per bucket with drops.
        let timeline = report.timeline
        #expect(Self.dataValues(html, className: "interval", attribute: "bucket").count
            == timeline.maxIntervalMilliseconds.compactMap { $0 }.count)
        let dropCounts = Self.dataValues(html, className: "drop", attribute: "count").compactMap(Int.init)
        #expect(dropCounts.count == timeline.drops.filter { $0 > 0 }.count)
        #expect(dropCounts.reduce(0, +) == report.frames.dropped["pool_full"])
        let stalled = Self.dataValues(html, className: "stall", attribute: "ms").compactMap(Double.init)
        #expect(abs(stalled.reduce(0, +) - report.stalls.totalMilliseconds) < 1e-6)
        let blocked = Self.dataValues(html, className: "blocked", attribute: "ms").compactMap(Double.init)
        #expect(abs(blocked.reduce(0, +) - timeline.blockedMilliseconds.reduce(0, +)) < 1e-6)

        // Latency histogram bars carry the report's bins.
        let barCounts = Self.dataValues(html, className: "latency-bar", attribute: "count").compactMap(Int.init)
        #expect(barCounts == report.latencyHistogramMilliseconds.map(\.count))
        #expect(barCounts.reduce(0, +) == report.latencyMilliseconds.count)

        // Stage bars: the p50 of each stage as in the JSON.
        let stageNames = Self.dataValues(html, className: "stage-p50", attribute: "stage")
        let stageP50 = Self.dataValues(html, className: "stage-p50", attribute: "p50").compactMap(Double.init)
        #expect(stageNames.first == "end to end" && stageP50.first == report.latencyMilliseconds.p50)
        for (name, p50) in zip(stageNames.dropFirst(), stageP50.dropFirst()) {
            #expect(report.stages[name]?.p50 == p50, "stage \(name)")
        }
        #expect(stageNames.contains("analysis:ocr"))
    }

    @Test func theScenarioProducesWhatThePageIsAbout() {
        let report = RealisticRun.makeReport()
        #expect(report.stalls.count == 1)
        #expect(report.stalls.totalMilliseconds > 2000 && report.stalls.totalMilliseconds < 2100)
        #expect(report.blocked.count == 1)
        #expect(report.frames.gaps == 1 && report.frames.missingFrames == 3)
        #expect(report.frames.dropped["pool_full"]! > 5)
        #expect(report.frames.dropped["late_at_sink"] == 2)
        #expect(report.frames.decoded == report.frames.output + report.frames.droppedTotal)
        #expect(report.frames.analysisSkipped["ocr"]! > 0)
    }

    @Test func textIsEscaped() throws {
        var report = RealisticRun.makeReport()
        report.run.input = "<script>alert(1)</script> & \"quotes\""
        let html = try HTMLReport.render(report: report)
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;"))
        // The embedded JSON cannot end its script element early, and still decodes to the report.
        #expect(try Self.embeddedReport(in: html) == report)
    }

    @Test func emptyRunStillRenders() throws {
        let recorder = RunRecorder()
        recorder.runStarted(at: .zero)
        recorder.finish(at: .seconds(1))
        let report = recorder.makeReport(context: testContext(interrupted: true, error: "no such file"))
        let html = try HTMLReport.render(report: report)
        #expect(html.contains("no frames arrived"))
        #expect(html.contains("no frames were output"))
        #expect(try Self.embeddedReport(in: html) == report)
    }
}

/// Opens the page in a real headless browser. Files stay in `STREAMLENS_TEST_OUTPUT` when that is set (to look at
/// the screenshot), otherwise in a temporary folder that is removed.
@Suite("HTML report in a browser", .serialized)
struct HTMLReportBrowserTests {
    @Test func chromiumRendersTheReport() throws {
        let keep = ProcessInfo.processInfo.environment["STREAMLENS_TEST_OUTPUT"]
        let folder = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("html-report-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: folder) } }

        let report = RealisticRun.makeReport()
        let page = "\(folder)/report.html"
        try HTMLReport.write(report: report, toPath: page)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(try HTMLReportTests.embeddedReport(in: html) == report)

        // A blank page of the same size is the baseline for "not blank".
        let blankPage = "\(folder)/blank.html"
        try "<!DOCTYPE html><html><body></body></html>".write(toFile: blankPage, atomically: true, encoding: .utf8)
        let screenshot = "\(folder)/report.png"
        let blankScreenshot = "\(folder)/blank.png"
        try HeadlessChromium.screenshot(page: page, to: screenshot)
        try HeadlessChromium.screenshot(page: blankPage, to: blankScreenshot)

        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        let blank = try Data(contentsOf: URL(fileURLWithPath: blankScreenshot))
        let size = try HeadlessChromium.pngSize(png)
        #expect(size.width == 1280 && size.height == 2000)
        // A white page compresses to almost nothing; text, tiles and charts do not.
        #expect(png.count > 8 * blank.count, "screenshot \(png.count) bytes vs blank \(blank.count) bytes")
    }
}
