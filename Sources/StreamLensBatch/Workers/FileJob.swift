import Foundation

/// The outputs of one input under the batch's output folder, keeping the input tree's layout:
/// `DIR/<name>.mp4` (annotated video, unless the batch is analysis only), `DIR/<name>.report.json`,
/// `DIR/<name>.events.jsonl` and `DIR/<name>.vtt` (speed-limit subtitles).
public struct FileJob: Sendable, Equatable {
    public var input: String
    public var videoPath: String?
    public var reportPath: String
    public var eventsPath: String
    public var subtitlesPath: String

    /// `videoExtension` nil: no video output (`--output null`).
    public init(input: String, outputName: String, outputFolder: String, videoExtension: String?) {
        self.input = input
        let base = (outputFolder as NSString).appendingPathComponent(outputName)
        videoPath = videoExtension.map { base + "." + $0 }
        reportPath = base + ".report.json"
        eventsPath = base + ".events.jsonl"
        subtitlesPath = base + ".vtt"
    }

    /// The `streamlens run` arguments for this file: its own files, then the options every file shares (a pipeline
    /// file first, when given: `run`'s positional argument).
    public func runArguments(sharedOptions: [String]) -> [String] {
        ["run", "--input", input, "--output", videoPath ?? "null", "--report", reportPath, "--events", eventsPath,
         "--subtitles", subtitlesPath, "--quiet", "--keep-partial-on-interrupt"] + sharedOptions
    }
}
