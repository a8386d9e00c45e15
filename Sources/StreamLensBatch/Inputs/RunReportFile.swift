import Foundation

/// What a `streamlens run` report (`<name>.report.json`) says about the files of its run: a batch tells the files
/// StreamLens wrote from everyone else's by the report beside them, so that it neither takes an earlier batch's
/// outputs as new inputs nor replaces a user's own file that happens to carry an output's name.
struct RunReportFile {
    /// The run's output as the run was given it (`null` for an analysis-only run).
    var output: String?

    /// The report at `path`; nil when there is no file there or it is not a StreamLens run report.
    init?(at path: String) {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let run = object["run"] as? [String: Any], run["streamlens_version"] is String
        else { return nil }
        output = run["output"] as? String
    }

    /// The report a run writes beside its video when a batch names its files: `clip.mp4` → `clip.report.json`.
    static func path(besideVideo video: String) -> String {
        (video as NSString).deletingPathExtension + ".report.json"
    }

    /// Whether this run wrote the video at `path` (absolute). A relative output was relative to the run's own
    /// folder, which the report does not keep: its file name is compared.
    func wroteVideo(at path: String) -> Bool {
        guard let output, output != "null" else { return false }
        if output.hasPrefix("/") { return (output as NSString).standardizingPath == path }
        return (output as NSString).lastPathComponent == (path as NSString).lastPathComponent
    }
}
