import Foundation

/// Turns a batch's `INPUT...` into the files to process: a file is taken as it is (the user named it, so even a
/// broken one is tried and recorded as failed); a folder is searched recursively for video files (by extension or,
/// for other names, by content); `@LIST` reads one input a line (blank lines and `#` comments skipped, relative
/// paths from the list's folder).
///
/// Outputs keep the input tree's layout: a file in a folder input goes to the same relative path under the output
/// folder, a file named directly goes to the top. Inputs that would share outputs are told apart
/// (``separatingSharedNames(_:)``).
///
/// A folder search skips hidden files and folders (`.Trashes`, `.thumbnails`) and the batch's own output folder: an
/// output folder inside an input folder was searched too, so each run took the last run's outputs as new inputs and
/// nested them one level deeper. It also skips a video that a StreamLens run wrote (a run report beside it names it
/// as its output): an earlier batch's output folder inside the input tree held annotated copies that a later batch,
/// writing elsewhere, took as new recordings. A file named directly is taken whatever it is.
public enum InputDiscovery {
    public static func discover(_ inputs: [String], outputFolder: String? = nil) throws(BatchInputError) -> [CatalogInput] {
        var found: [Found] = []
        let base = FileManager.default.currentDirectoryPath
        let skipped = outputFolder.map { absolute($0, relativeTo: base) }
        for input in inputs { try collect(input, relativeTo: base, skipping: skipped, into: &found) }
        var seen = Set<String>()
        found = found.filter { seen.insert($0.path).inserted }
        var result: [CatalogInput] = []
        for file in try separatingSharedNames(found) {
            result.append(CatalogInput(
                path: file.path, outputName: file.outputName, identity: try FileIdentity(ofFileAt: file.path),
                outputFolder: skipped ?? ""))
        }
        guard !result.isEmpty else { throw .noVideoFiles }
        return result.sorted { $0.path < $1.path }
    }

    /// A video file found, the name of its outputs, and the folder it was found from (a folder input, or the folder
    /// of a file named directly).
    struct Found {
        var path: String
        var outputName: String
        var root: String
    }

    /// Inputs whose outputs would have one name are told apart: by the folder each was found from (`batch Front Rear`
    /// of a dashcam whose two cameras name their files alike: `Front/clip0001`, `Rear/clip0001`), else by their
    /// extension (`a.mkv` and `a.mp4` in one folder: `a-mkv`, `a-mp4`). Only names that meet are changed, so a batch
    /// keeps its outputs where they were until another input takes the same name. Refused when neither separates
    /// them (two `cam/a.mp4` from different places).
    static func separatingSharedNames(_ found: [Found]) throws(BatchInputError) -> [Found] {
        let groups = Dictionary(grouping: found.indices, by: { found[$0].outputName })
        var result = found
        var taken = Set(found.map(\.outputName))
        for (name, members) in groups.sorted(by: { $0.key < $1.key }) where members.count > 1 {
            let byFolder = members.map { "\((found[$0].root as NSString).lastPathComponent)/\(name)" }
            let byExtension = members.map { "\(name)-\((found[$0].path as NSString).pathExtension.lowercased())" }
            guard let names = [byFolder, byExtension].first(where: { candidates in
                Set(candidates).count == members.count && taken.isDisjoint(with: candidates)
            }) else {
                throw .sameOutputName(name, first: found[members[0]].path, second: found[members[1]].path)
            }
            for (member, separated) in zip(members, names) { result[member].outputName = separated }
            taken.formUnion(names)
        }
        return result
    }

    private static func collect(
        _ input: String, relativeTo base: String, skipping outputFolder: String?, into found: inout [Found]
    ) throws(BatchInputError) {
        if input.hasPrefix("@") {
            let listPath = absolute(String(input.dropFirst()), relativeTo: base)
            guard FileManager.default.fileExists(atPath: listPath) else { throw .notFound(path: listPath) }
            guard let text = try? String(contentsOfFile: listPath, encoding: .utf8) else { throw .unreadable(path: listPath) }
            let listFolder = (listPath as NSString).deletingLastPathComponent
            for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
                let entry = line.trimmingCharacters(in: .whitespaces)
                if entry.isEmpty || entry.hasPrefix("#") { continue }
                do { try collect(entry, relativeTo: listFolder, skipping: outputFolder, into: &found) } catch .notFound {
                    throw .notFoundInList(path: entry, list: listPath, line: number + 1)
                }
            }
            return
        }
        let path = absolute(input, relativeTo: base)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .notFound(path: input) }
        if !isFolder.boolValue {
            found.append(Found(
                path: path, outputName: stem(of: (path as NSString).lastPathComponent),
                root: (path as NSString).deletingLastPathComponent))
            return
        }
        guard let walker = FileManager.default.enumerator(atPath: path) else { throw .unreadable(path: path) }
        var relativePaths: [String] = []
        while let relative = walker.nextObject() as? String {
            let full = (path as NSString).appendingPathComponent(relative)
            var entryIsFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &entryIsFolder) else { continue }
            if (relative as NSString).lastPathComponent.hasPrefix(".") || full == outputFolder {
                if entryIsFolder.boolValue { walker.skipDescendants() }
                continue
            }
            guard !entryIsFolder.boolValue, VideoFileSniffer.isVideo(path: full), !isStreamLensOutput(full) else { continue }
            relativePaths.append(relative)
        }
        for relative in relativePaths.sorted() {
            found.append(Found(
                path: (path as NSString).appendingPathComponent(relative), outputName: stem(of: relative), root: path))
        }
    }

    /// A video whose run report beside it names it as that run's output.
    private static func isStreamLensOutput(_ video: String) -> Bool {
        RunReportFile(at: RunReportFile.path(besideVideo: video))?.wroteVideo(at: video) == true
    }

    /// `path` made absolute from `base` (by default the current folder) and standardized.
    static func absolute(_ path: String, relativeTo base: String = FileManager.default.currentDirectoryPath) -> String {
        let joined = path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }

    /// `day1/clip.mp4` → `day1/clip`.
    private static func stem(of relative: String) -> String {
        (relative as NSString).deletingPathExtension
    }
}
