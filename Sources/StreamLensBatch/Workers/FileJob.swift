import Foundation

/// The outputs of one input under the batch's output folder, keeping the input tree's layout:
/// `DIR/<name>.mp4` (annotated video, unless the batch is analysis only), `DIR/<name>.report.json`,
/// `DIR/<name>.events.jsonl`, `DIR/<name>.vtt` (speed-limit subtitles) and, when asked, `DIR/<name>.report.html`.
public struct FileJob: Sendable, Equatable {
    public var input: String
    public var videoPath: String?
    public var reportPath: String
    public var eventsPath: String
    public var subtitlesPath: String
    /// The report as a page; nil when the batch writes none.
    public var pagePath: String?

    /// `videoExtension` nil: no video output (`--output null`).
    public init(input: String, outputName: String, outputFolder: String, videoExtension: String?, writesPage: Bool = false) {
        self.input = input
        let base = (outputFolder as NSString).appendingPathComponent(outputName)
        videoPath = videoExtension.map { base + "." + $0 }
        reportPath = base + ".report.json"
        eventsPath = base + ".events.jsonl"
        subtitlesPath = base + ".vtt"
        pagePath = writesPage ? base + ".report.html" : nil
    }

    /// The first of this job's output files that already exists and is not a StreamLens output: someone else's
    /// file (say a recording of the same name in the output folder) that the run would replace. The run report at
    /// ``reportPath`` tells: a video counts as StreamLens's when that report names it as its run's output, the
    /// report, events and subtitles when the report is a StreamLens run report (the catalog already keeps two
    /// recordings from sharing one output name). Nil when nothing there is someone else's.
    public func foreignOutput() -> String? {
        let report = RunReportFile(at: reportPath)
        if let videoPath, FileManager.default.fileExists(atPath: videoPath),
            report?.wroteVideo(at: InputDiscovery.absolute(videoPath)) != true
        {
            return videoPath
        }
        guard report == nil else { return nil }
        return [reportPath, eventsPath, subtitlesPath, pagePath].compactMap { $0 }
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The output of this job that is its input file itself (an output folder that is the input's own folder, and
    /// the same container), by path or, through links, by device and inode; nil when there is none.
    public func outputReplacingInput() -> String? {
        var inputStatus = stat()
        let inputKnown = stat(input, &inputStatus) == 0
        return [videoPath, reportPath, eventsPath, subtitlesPath, pagePath].compactMap { $0 }.first { output in
            if InputDiscovery.absolute(output) == InputDiscovery.absolute(input) { return true }
            var outputStatus = stat()
            return inputKnown && stat(output, &outputStatus) == 0
                && outputStatus.st_dev == inputStatus.st_dev && outputStatus.st_ino == inputStatus.st_ino
        }
    }

    /// The `streamlens run` arguments for this file: its own files, then the options every file shares (a pipeline
    /// file first, when given: `run`'s positional argument).
    public func runArguments(sharedOptions: [String]) -> [String] {
        ["run", "--input", input, "--output", videoPath ?? "null", "--report", reportPath, "--events", eventsPath,
         "--subtitles", subtitlesPath, "--quiet", "--keep-partial-on-interrupt"]
            + (pagePath.map { ["--html", $0] } ?? []) + sharedOptions
    }
}
