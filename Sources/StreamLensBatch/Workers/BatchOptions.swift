import Foundation

/// How a batch runs, from the command line.
public struct BatchOptions: Sendable {
    /// The `streamlens` executable each file is run with.
    public var executable: String
    public var outputFolder: String
    /// The video file extension (`mp4`, `mkv`, `webm`, `mov`); nil for analysis only (`--output null`).
    public var videoExtension: String?
    /// Each file also gets its report as a page, `<name>.report.html` (a pipeline file's `report.html`).
    public var writesPages = false
    /// The catalog's line of the settings that decide the output videos (``OutputSettings``); empty: none.
    public var outputSettings = ""
    /// The `run` options every file gets.
    public var sharedRunOptions: [String]
    public var workers: Int
    public var lease: Duration
    /// The machine name in lease owners (tests give each process its own to play several machines).
    public var host: String
    public var showProgress: Bool

    public init(
        executable: String, outputFolder: String, videoExtension: String?, sharedRunOptions: [String], workers: Int,
        lease: Duration, host: String = WorkerIdentity.localHost, showProgress: Bool
    ) {
        self.executable = executable
        self.outputFolder = outputFolder
        self.videoExtension = videoExtension
        self.sharedRunOptions = sharedRunOptions
        self.workers = workers
        self.lease = lease
        self.host = host
        self.showProgress = showProgress
    }
}
