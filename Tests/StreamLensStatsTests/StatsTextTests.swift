import StreamLensCore
import Testing
@testable import StreamLensStats

@Suite("stats command text")
struct StatsTextTests {
    /// A run: 40 frames at 25 fps, each output `latency` ms after arrival, `drops` of them dropped for a full pool.
    static func report(latency: Double, drops: Int, input: String = "clip.mp4") -> RunReport {
        let recorder = RunRecorder()
        var source = SyntheticSource(recorder: recorder)
        for frame in 0..<40 {
            let time = Double(frame) * 40
            let index = source.arrive(ptsMilliseconds: time, atMilliseconds: time)
            if frame < drops {
                recorder.frameDropped(index: index, pts: ms(time), cause: .poolFull, at: ms(time))
            } else {
                source.output(
                    index: index, ptsMilliseconds: time, arrivalMilliseconds: time, outputMilliseconds: time + latency,
                    composite: latency / 2)
            }
        }
        recorder.finish(at: ms(1600))
        return recorder.makeReport(
            context: RunContext(
                input: input, output: "out.mp4", live: false, policy: .block, poolCapacity: 3,
                streamlensVersion: "0.1.0", gstreamerVersion: "1.22.0"))
    }

    /// The cells of the table row starting with `label` (columns are two or more spaces apart).
    static func cells(of text: String, label: String) -> [String]? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(label + "  ") }) else { return nil }
        return line.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test func summaryShowsTheReportsNumbers() {
        let report = Self.report(latency: 12, drops: 3)
        let text = StatsSummary.render(report)
        #expect(!text.contains("\u{1B}"))
        #expect(text.hasPrefix("StreamLens run: clip.mp4 → out.mp4\nfile · policy block · pool 3 · streamlens 0.1.0 · GStreamer 1.22.0\n"))
        #expect(text.contains("frames    decoded 40   output 37   dropped 3 (pool_full 3)\n"))
        #expect(text.contains("duration 1.60 s   throughput 23.12 fps"))
        #expect(Self.cells(of: text, label: "latency") == ["latency", "12.00", "12.00", "12.00", "12.00", "37"])
        #expect(Self.cells(of: text, label: "composite") == ["composite", "6.00", "6.00", "6.00", "6.00", "37"])
        #expect(text.contains("stalls 0 (0.00 ms)   blocked 0 (0.00 ms)"))
        // The percentile table is aligned: every row has the header's width.
        let tableLines = text.split(separator: "\n").drop(while: { !$0.hasPrefix("ms ") }).prefix(while: { !$0.hasPrefix("jitter rfc3550") })
        #expect(tableLines.count == 8)
        #expect(Set(tableLines.map(\.count)).count == 1)
    }

    /// A live run's reconnects and timestamp repairs were in its JSON and its own summary, but not in `stats`, its
    /// comparison or the page.
    @Test func reconnectsAndTimestampRepairsAreShown() throws {
        var live = Self.report(latency: 12, drops: 0)
        live.reconnects = ReconnectSummary(count: 1, totalMilliseconds: 7674, attempts: 4)
        live.frames.timestampRepairs = 2
        let text = StatsSummary.render(live)
        #expect(text.contains("   reconnects 1 (4 attempts, 7674.00 ms without input)"), "\(text)")
        #expect(text.contains("   timestamp repairs 2"), "\(text)")
        let file = Self.report(latency: 12, drops: 0)
        #expect(!StatsSummary.render(file).contains("reconnects") && !StatsSummary.render(file).contains("repairs"))
        let comparison = StatsComparison.render(file, live)
        #expect(Self.cells(of: comparison, label: "reconnects") == ["reconnects", "0", "1", "+1", "—"])
        #expect(Self.cells(of: comparison, label: "timestamp repairs") == ["timestamp repairs", "0", "2", "+2", "—"])
        #expect(!StatsComparison.render(file, file).contains("reconnects"))
        let page = try HTMLReport.render(report: live)
        #expect(page.contains("<div class=\"label\">reconnects</div><div class=\"value\">1</div>"))
        #expect(page.contains("4 attempts · 7674 ms without input"))
        #expect(page.contains("<div class=\"label\">timestamp repairs</div><div class=\"value\">2</div>"))
    }

    @Test func summaryColoursLossesWhenAsked() {
        let text = StatsSummary.render(Self.report(latency: 12, drops: 3), colour: true)
        #expect(text.contains("\u{1B}[31mdropped 3 (pool_full 3)\u{1B}[0m"))
        let clean = StatsSummary.render(Self.report(latency: 12, drops: 0), colour: true)
        #expect(!clean.contains("\u{1B}[31m"))
    }

    @Test func comparisonShowsDeltaAndRatio() {
        let a = Self.report(latency: 10, drops: 4, input: "a.mp4")
        let b = Self.report(latency: 25, drops: 1, input: "b.mp4")
        let text = StatsComparison.render(a, b)
        #expect(!text.contains("\u{1B}"))
        #expect(text.hasPrefix("A: a.mp4 (file, policy block)\nB: b.mp4 (file, policy block)\n\n"))
        #expect(Self.cells(of: text, label: "frames dropped") == ["frames dropped", "4", "1", "-3", "0.25×"])
        #expect(Self.cells(of: text, label: "frames output") == ["frames output", "36", "39", "+3", "1.08×"])
        #expect(Self.cells(of: text, label: "latency p50 (ms)") == ["latency p50 (ms)", "10.00", "25.00", "+15.00", "2.50×"])
        #expect(Self.cells(of: text, label: "  stream_error") == ["stream_error", "0", "0", "0", "—"])
        #expect(Self.cells(of: text, label: "stage composite max (ms)") == ["stage composite max (ms)", "5.00", "12.50", "+7.50", "2.50×"])
    }

    @Test func comparisonColoursBetterGreenAndWorseRed() {
        let a = Self.report(latency: 10, drops: 4)
        let b = Self.report(latency: 25, drops: 1)
        let text = StatsComparison.render(a, b, colour: true)
        let dropped = text.split(separator: "\n").first { $0.hasPrefix("frames dropped") }!
        #expect(dropped.contains("\u{1B}[32m-3\u{1B}[0m"))
        let latency = text.split(separator: "\n").first { $0.hasPrefix("latency p50 (ms)") }!
        #expect(latency.contains("\u{1B}[31m+15.00\u{1B}[0m"))
        // Unchanged rows stay plain; decoded frames have no better direction.
        let decoded = text.split(separator: "\n").first { $0.hasPrefix("frames decoded") }!
        #expect(!decoded.contains("\u{1B}[3"))
    }
}
