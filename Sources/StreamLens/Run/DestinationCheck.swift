import Foundation
import StreamLensStats
#if canImport(Glibc)
import Glibc
#endif

/// Refuses, before anything is opened, a run that would write over its own input or write two outputs into one
/// file, or whose report could not be written at its end. Every file the run writes is compared with every file it
/// reads: by resolved path (symlinks followed) and, when both exist, by device and inode (hard links).
///
/// Files read: the input file, a `file://` URI, `location=`/`uri=file://` values in a source description, the
/// pipeline file, overlay clips and the analysers' model files.
/// Files written: the output file and its `NAME.partial`, `location=` values in a sink description (filesink,
/// multifilesink, splitmuxsink, hlssink2's `playlist-location`…), and the report, timeline, HTML, events and
/// subtitles files with their partial names. A re-run replaces these files freely, but never an existing file that
/// is not of their kind (``SideFileKind``): `--events drive.mp4` would empty a recording.
enum DestinationCheck {
    static func check(_ configuration: RunConfiguration) throws(RunError) {
        let reads = inputFiles(configuration.input)
        let writes = outputFiles(configuration)
        for written in writes {
            if written.replacedByRename, let kind = FileOnDisk.nonRegularKind(at: written.path) {
                throw .outputNotAFile(option: written.option, path: written.path, kind: kind)
            }
            for read in reads {
                if let how = FileOnDisk.sameFile(written.path, read) ?? FileOnDisk.namedByPattern(written.path, read) {
                    throw .outputIsInput(option: written.option, path: written.path, input: read, how: how)
                }
            }
            if let pipelineFile = configuration.pipelineFile,
                let how = FileOnDisk.sameFile(written.path, pipelineFile)
            {
                throw .outputIsPipelineFile(option: written.option, path: written.path, how: how)
            }
            for used in usedFiles(configuration) {
                if let how = FileOnDisk.sameFile(written.path, used.path) {
                    throw .outputIsUsedFile(
                        option: written.option, path: written.path, role: used.role, file: used.path, how: how)
                }
            }
            if let kind = written.kind, !kind.matches(fileAt: written.path) {
                throw .outputWouldReplaceOtherFile(option: written.option, path: written.path, kind: kind.description)
            }
        }
        for (index, first) in writes.enumerated() {
            for second in writes[(index + 1)...] where FileOnDisk.sameFile(first.path, second.path) != nil {
                throw .outputsCollide(path: second.path, first: first.option, second: second.option)
            }
        }
        // The report and its page are written at the end: a folder that is not there should stop the run now, not
        // after an hour of video.
        for case let path? in [configuration.reportPath, configuration.htmlPath] {
            if let problem = FileOnDisk.folderProblem(forNewFile: path) {
                throw .cannotWrite(path: path, reason: "\(problem); choose a writable location")
            }
        }
    }

    /// A file the run writes, with the option that names it (for the message).
    struct WrittenFile {
        var option: String
        var path: String
        /// StreamLens writes it as NAME.partial and renames it, so it must be (or become) a regular file; a sink
        /// description may write where it likes (a FIFO, a device).
        var replacedByRename = true
        /// What an existing file under this name must look like to be replaced (nil: anything, as for the video).
        var kind: SideFileKind?
    }

    /// The kinds of file a run writes beside its video, each recognised by what StreamLens writes into it, so that a
    /// re-run replaces its own earlier file and nothing else: a user's own `drive.json`, `drive.vtt` or page of the
    /// same name is not StreamLens's, though it has the same extension
    /// (OutputSafetyTests.aUsersOwnFileOfTheSameKindIsNotReplaced).
    enum SideFileKind: CustomStringConvertible {
        case jsonReport, timeline, htmlPage, eventLines, subtitles, motTracks, cocoResults

        var description: String {
            switch self {
            case .jsonReport: "a StreamLens report (JSON)"
            case .timeline: "a StreamLens timeline (CSV)"
            case .htmlPage: "a StreamLens report page (HTML)"
            case .eventLines: "a StreamLens events file (JSON lines)"
            case .subtitles: "StreamLens speed-limit subtitles (WebVTT)"
            case .motTracks: "StreamLens tracks (MOTChallenge text)"
            case .cocoResults: "StreamLens detections (COCO results JSON)"
            }
        }

        static let eventTypes: Set<String> = ["detection", "track", "speed_limit", "speeding"]

        /// Whether the file at `path` may be replaced: it does not exist, is not a regular file (judged elsewhere),
        /// is empty, or was written by StreamLens as this kind of file.
        func matches(fileAt path: String) -> Bool {
            guard FileOnDisk.nonRegularKind(at: path) == nil, let text = RunReport.startOfFile(at: path) else {
                return true
            }
            let trimmed = text.drop { $0.isWhitespace }
            guard !trimmed.isEmpty else { return true }
            switch self {
            case .jsonReport:
                return RunReport.isWrittenByStreamLens(start: trimmed)
            case .eventLines:
                // Its first line is one of StreamLens's events.
                let line = trimmed.prefix { !$0.isNewline }
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let type = object["type"] as? String
                else { return false }
                return Self.eventTypes.contains(type) && object["start"] is NSNumber
            case .timeline:
                return trimmed.hasPrefix("index,pts_ms,")
            case .htmlPage:
                return text.prefix(4096).contains("<title>StreamLens report")
            case .subtitles:
                return Self.holdsOnlySpeedLimitCues(trimmed)
            case .motTracks:
                // Its first line is a track line as ``MOTWriter`` writes it: ten numbers ending in -1,-1,-1.
                let fields = trimmed.prefix { !$0.isNewline }.split(separator: ",")
                return fields.count == 10 && fields.suffix(3).allSatisfy { $0 == "-1" }
                    && fields.prefix(7).allSatisfy { Double($0) != nil }
            case .cocoResults:
                // ``COCOWriter`` writes its keys sorted: annotations first.
                return trimmed.hasPrefix("{\"annotations\":[")
            }
        }

        /// `WEBVTT`, then cues (number, timing line, text) whose texts all name a speed limit, as ``WebVTTWriter``
        /// writes them.
        private static func holdsOnlySpeedLimitCues(_ text: Substring) -> Bool {
            let lines = text.split(whereSeparator: \.isNewline)
            guard lines.first?.trimmingCharacters(in: .whitespaces) == "WEBVTT" else { return false }
            return lines.dropFirst().allSatisfy { line in
                line.allSatisfy(\.isNumber) || line.contains("-->") || line.hasPrefix("Speed limit ")
            }
        }
    }

    static func inputFiles(_ input: InputSource) -> [String] {
        switch input {
        case .file(let path): [path]
        case .uri(let uri): URL(string: uri).flatMap { $0.isFileURL ? $0.path : nil }.map { [$0] } ?? []
        case .camera: []
        case .description(let description): locations(in: description, keySuffix: "location") + fileURIs(in: description)
        }
    }

    /// The other files the run reads, with what each is for: overlay clips and the analysers' models.
    static func usedFiles(_ configuration: RunConfiguration) -> [(role: String, path: String)] {
        var files = configuration.overlays.map { (role: "overlay clip", path: $0.path) }
        if let detection = configuration.detection {
            switch detection.detector {
            case .onnx(let path): files.append(("ONNX model", path))
            case .cascade(let name) where name.contains("/") || name.hasSuffix(".xml"):
                files.append(("cascade file", name))
            default: break
            }
            if let names = detection.classNamesPath { files.append(("class names file", names)) }
        }
        if let model = configuration.speedLimits?.textLineModel, model != "off", !model.isEmpty {
            files.append(("text-line model", model))
        }
        return files
    }

    static func outputFiles(_ configuration: RunConfiguration) -> [WrittenFile] {
        var files: [WrittenFile] = []
        switch configuration.output {
        case .null: break
        case .file(let path, _):
            // The file is written as NAME.partial (next to the symlink's target) and renamed: both names matter.
            let destination = PartialFile(path: path)
            files.append(WrittenFile(option: "--output", path: path))
            files.append(WrittenFile(option: "--output", path: destination.partialPath))
        case .description(let description):
            files += locations(in: description, keySuffix: "location").map {
                WrittenFile(option: "--output", path: $0, replacedByRename: false)
            }
        }
        let reports: [(String, String?, SideFileKind)] = [
            ("--report", configuration.reportPath, .jsonReport), ("--timeline", configuration.timelinePath, .timeline),
            ("--html", configuration.htmlPath, .htmlPage), ("--events", configuration.eventsPath, .eventLines),
            ("--subtitles", configuration.subtitlesPath, .subtitles), ("--export mot", configuration.motPath, .motTracks),
            ("--export coco", configuration.cocoPath, .cocoResults),
        ]
        for case (let option, let path?, let kind) in reports {
            files.append(WrittenFile(option: option, path: path, kind: kind))
            files.append(WrittenFile(option: option, path: PartialFile(path: path).partialPath))
        }
        // The maps (`--export`), written whole at the end through a temporary file and a rename.
        files += configuration.telemetry.exports.map { WrittenFile(option: "--export", path: $0.path) }
        return files
    }

    /// Values of properties whose name ends in `keySuffix` (`location=`, `playlist-location=`) in a
    /// `gst-launch`-style description; quoted values may hold spaces and escaped quotes.
    static func locations(in description: String, keySuffix: String) -> [String] {
        propertyValues(in: description).filter { $0.key.hasSuffix(keySuffix) }.map(\.value)
    }

    /// Paths of `uri=file://…` values.
    static func fileURIs(in description: String) -> [String] {
        propertyValues(in: description).filter { $0.key == "uri" }
            .compactMap { URL(string: $0.value).flatMap { $0.isFileURL ? $0.path : nil } }
    }

    /// Every `key=value` in a description, in order.
    static func propertyValues(in description: String) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        let characters = Array(description)
        var index = 0
        while index < characters.count {
            guard characters[index] == "=" else {
                index += 1
                continue
            }
            var keyStart = index
            while keyStart > 0, characters[keyStart - 1].isLetter || characters[keyStart - 1].isNumber
                || characters[keyStart - 1] == "-" || characters[keyStart - 1] == "_"
            {
                keyStart -= 1
            }
            let key = String(characters[keyStart..<index])
            index += 1
            var value = ""
            if index < characters.count, characters[index] == "\"" || characters[index] == "'" {
                let quote = characters[index]
                index += 1
                while index < characters.count, characters[index] != quote {
                    if characters[index] == "\\", index + 1 < characters.count { index += 1 }
                    value.append(characters[index])
                    index += 1
                }
                index += 1
            } else {
                while index < characters.count, !characters[index].isWhitespace, characters[index] != "!" {
                    value.append(characters[index])
                    index += 1
                }
            }
            if !key.isEmpty { pairs.append((key, value)) }
        }
        return pairs
    }
}

/// What the file system says about paths, for the destination check and partial files.
enum FileOnDisk {
    /// Why the file at `path` (a symlink's target) could not be created in its folder — "folder '…' does not exist"
    /// or "… is not writable" — or nil when it could.
    static func folderProblem(forNewFile path: String) -> String? {
        let folder = URL(fileURLWithPath: PartialFile(path: path).destination).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "folder '\(folder)' does not exist"
        }
        return FileManager.default.isWritableFile(atPath: folder) ? nil : "folder '\(folder)' is not writable"
    }

    /// Whether `pattern`, a sink's numbered file names (`hlssink2 location=seg%05d.ts`, `splitmuxsink`,
    /// `multifilesink`: a printf integer conversion), names `read`: "one of the files its pattern names", or nil.
    /// Compared as text, `seg%05d.ts` never equalled the input `seg00000.ts`, which the first segment replaced.
    static func namedByPattern(_ pattern: String, _ read: String) -> String? {
        let name = (pattern as NSString).lastPathComponent
        guard name.contains("%"),
            canonicalPath((pattern as NSString).deletingLastPathComponent) == canonicalPath((read as NSString).deletingLastPathComponent)
        else { return nil }
        var expression = "^"
        var rest = Substring(name)
        while let percent = rest.firstIndex(of: "%") {
            expression += NSRegularExpression.escapedPattern(for: String(rest[..<percent]))
            let conversion = rest[rest.index(after: percent)...].prefix { $0.isNumber || $0 == "l" }
            let kind = rest[rest.index(after: percent)...].dropFirst(conversion.count).first
            switch kind {
            case "d", "i", "u": expression += "[0-9]+"
            case "x", "X": expression += "[0-9a-fA-F]+"
            case "%": expression += "%"
            default: return nil
            }
            rest = rest[rest.index(after: percent)...].dropFirst(conversion.count + 1)
        }
        expression += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        let readName = (read as NSString).lastPathComponent
        guard let regex = try? NSRegularExpression(pattern: expression),
            regex.firstMatch(in: readName, range: NSRange(readName.startIndex..., in: readName)) != nil
        else { return nil }
        return "one of the files its pattern names"
    }

    /// How `written` and `read` are the same file ("the same path", "a symlink to it", "a hard link of it"), or nil
    /// when they are different files.
    static func sameFile(_ written: String, _ read: String) -> String? {
        if canonicalPath(written) == canonicalPath(read) {
            return isSymlink(written) || isSymlink(read) ? "the same file through a symlink" : "the same path"
        }
        if let first = identity(of: written), let second = identity(of: read), first == second {
            return "a hard link of the same file"
        }
        return nil
    }

    /// The absolute path with symlinks resolved; for a path that does not exist yet, its folder's resolved path
    /// and its name.
    static func canonicalPath(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        if let resolved = realPath(absolute) { return resolved }
        let url = URL(fileURLWithPath: absolute)
        let folder = realPath(url.deletingLastPathComponent().path) ?? url.deletingLastPathComponent().path
        return (folder as NSString).appendingPathComponent(url.lastPathComponent)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Device and inode of the file at `path` (symlinks followed); nil when it does not exist.
    static func identity(of path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    static func isSymlink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// "a folder", "a FIFO", "a device", "a socket" for an existing path that is not a regular file (symlinks
    /// followed); nil for a regular file or nothing.
    static func nonRegularKind(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        default: return "a device"
        }
    }

    /// The size of the regular file at `path`, nil when there is none.
    static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }
}
