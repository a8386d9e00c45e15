import Foundation
import Testing

/// Runs the built plugin the way users do: `gst-launch-1.0`, `gst-inspect-1.0` and Python (gi) in their own
/// processes, with `GST_PLUGIN_PATH` pointing at the folder that holds `libgststreamlens.so`. The test process never
/// loads the plugin itself (it links the same modules statically).
enum PluginHarness {
    /// The repository root (this file is Tests/StreamLensGstPluginTests/Support/PluginHarness.swift).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding the plugin: `$STREAMLENS_PLUGIN_DIR`, else the debug build folder, else the release one.
    static let pluginDirectory: URL = {
        if let folder = ProcessInfo.processInfo.environment["STREAMLENS_PLUGIN_DIR"], !folder.isEmpty {
            return URL(fileURLWithPath: folder)
        }
        let candidates = [".build/debug", ".build/release"].map { repositoryRoot.appendingPathComponent($0) }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(libraryName).path) }
            ?? candidates[0]
    }()

    static let libraryName = "libgststreamlens.so"

    /// A registry of this test run's own, so that the plugin is scanned fresh (by gst-plugin-scanner) and the
    /// user's registry is left alone.
    static let registry = FileManager.default.temporaryDirectory
        .appendingPathComponent("streamlens-plugin-tests-\(ProcessInfo.processInfo.processIdentifier).registry").path

    /// The system Python, which sees Debian's python3-gi (a pyenv python3 on PATH would not).
    static let python = "/usr/bin/python3"

    static var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(
            ["GST_PLUGIN_PATH": pluginDirectory.path, "GST_REGISTRY": registry]) { $1 }
    }

    /// Fails the test unless the plugin was built (scripts/test.sh builds it before the tests).
    static func requirePlugin() throws {
        try #require(
            FileManager.default.fileExists(atPath: pluginDirectory.appendingPathComponent(libraryName).path),
            "no \(libraryName) in \(pluginDirectory.path): run swift build --product gststreamlens")
    }

    /// Real media: `$STREAMLENS_MEDIA`, else `<repo>/.media-cache/media` (scripts/datasets/fetch-media.sh).
    static func media(_ relative: String) throws -> String {
        let folder = ProcessInfo.processInfo.environment["STREAMLENS_MEDIA"].flatMap { $0.isEmpty ? nil : $0 }
            ?? repositoryRoot.appendingPathComponent(".media-cache/media").path
        let path = URL(fileURLWithPath: folder).appendingPathComponent(relative).path
        try #require(FileManager.default.fileExists(atPath: path), "missing \(path): run scripts/datasets/fetch-media.sh")
        return path
    }

    /// A generated sign test set: European (scripts/datasets/make-sign-testset.sh) or US (scripts/datasets/make-us-sign-testset.sh).
    enum SignSet {
        case europe, unitedStates

        var environmentKey: String { self == .europe ? "STREAMLENS_SIGN_TESTSET" : "STREAMLENS_US_SIGN_TESTSET" }
        var defaultFolder: String { self == .europe ? ".media-cache/sign-testset" : ".media-cache/us-sign-testset" }
        var script: String { self == .europe ? "scripts/datasets/make-sign-testset.sh" : "scripts/datasets/make-us-sign-testset.sh" }
    }

    /// A clip of a generated sign test set: raw I420, 640×272, 12.5 fps.
    static func signClip(_ name: String, from set: SignSet = .europe) throws -> String {
        let folder = ProcessInfo.processInfo.environment[set.environmentKey].flatMap { $0.isEmpty ? nil : $0 }
            ?? repositoryRoot.appendingPathComponent(set.defaultFolder).path
        let path = URL(fileURLWithPath: folder).appendingPathComponent("\(name).i420").path
        try #require(FileManager.default.fileExists(atPath: path), "no sign test set: run \(set.script)")
        return path
    }

    /// The pipeline head that plays a sign test-set clip.
    static func signClipSource(_ name: String, from set: SignSet = .europe) throws -> String {
        "filesrc location=\(try signClip(name, from: set)) ! rawvideoparse format=i420 width=640 height=272 "
            + "framerate=25/2"
    }

    /// A fresh folder for a test's files.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streamlens-plugin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// What a finished process left.
struct ProcessOutcome: Sendable {
    var status: Int32
    /// True when the process ended by a signal (a crash or an abort under G_DEBUG=fatal-criticals).
    var crashed: Bool
    var standardOutput: String
    var standardError: String
}

extension PluginHarness {
    /// Runs `executable` with the plugin environment (plus `extraEnvironment`), off Swift concurrency's threads, and
    /// waits (at most `timeout`).
    static func run(
        _ executable: String, _ arguments: [String], extraEnvironment: [String: String] = [:],
        timeout: Duration = .seconds(180)
    ) async throws -> ProcessOutcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    try runBlocking(executable, arguments, environment: environment.merging(extraEnvironment) { $1 }, timeout: timeout)
                })
            }.start()
        }
    }

    /// `gst-launch-1.0 -m DESCRIPTION` (bus messages printed), the description split at spaces as a shell would
    /// (gst-launch quotes each argument it gets; paths here hold no spaces).
    static func launch(
        _ description: String, extraEnvironment: [String: String] = [:], timeout: Duration = .seconds(180)
    ) async throws -> ProcessOutcome {
        let words = description.split(separator: " ").map(String.init)
        return try await run("/usr/bin/gst-launch-1.0", ["-m"] + words, extraEnvironment: extraEnvironment, timeout: timeout)
    }

    /// `gst-inspect-1.0 ARGUMENTS`.
    static func inspect(_ arguments: String...) async throws -> ProcessOutcome {
        try await run("/usr/bin/gst-inspect-1.0", arguments)
    }

    /// Runs pipelines/gst-read-metas.py (the Python example) on `description` and parses its JSON lines.
    static func readMetas(_ description: String) async throws -> MetaRecording {
        let script = repositoryRoot.appendingPathComponent("pipelines/gst-read-metas.py").path
        let outcome = try await run(python, [script, description])
        var recording = MetaRecording(outcome: outcome)
        for line in outcome.standardOutput.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                // Every line is one JSON record; one that is not means a record was lost.
                Issue.record("gst-read-metas.py wrote a line that is not one JSON record: \(line)")
                continue
            }
            if let regions = object["regions"] as? [[String: Any]] {
                recording.buffers.append(BufferRecord(pts: object["pts"] as? Double, regions: regions))
            } else if object["message"] != nil {
                recording.messages.append(object)
            } else if let error = object["error"] as? String {
                recording.error = error
            }
        }
        return recording
    }

    private static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String], timeout: Duration
    ) throws -> ProcessOutcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = repositoryRoot
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes while the process runs, so neither fills up and blocks it.
        let outputData = PipeContents(), errorData = PipeContents()
        let readers = DispatchGroup()
        for (pipe, sink) in [(output, outputData), (error, errorData)] {
            readers.enter()
            Thread {
                sink.data = pipe.fileHandleForReading.readDataToEndOfFile()
                readers.leave()
            }.start()
        }
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            process.terminate()
            Issue.record("\(executable) \(arguments) did not finish within \(timeout)")
        }
        process.waitUntilExit()
        readers.wait()
        return ProcessOutcome(
            status: process.terminationStatus, crashed: process.terminationReason == .uncaughtSignal,
            standardOutput: String(decoding: outputData.data, as: UTF8.self),
            standardError: String(decoding: errorData.data, as: UTF8.self))
    }

    /// What one reader thread read; the dispatch group orders its write before the read.
    private final class PipeContents: @unchecked Sendable {
        var data = Data()
    }
}

/// The JSON lines of pipelines/gst-read-metas.py.
struct MetaRecording: @unchecked Sendable {
    var outcome: ProcessOutcome
    var buffers: [BufferRecord] = []
    /// `streamlens-*` element messages, with their fields.
    var messages: [[String: Any]] = []
    var error: String?

    func messages(named name: String) -> [[String: Any]] {
        messages.filter { $0["message"] as? String == name }
    }
}

/// One buffer's regions of interest.
struct BufferRecord: @unchecked Sendable {
    var pts: Double?
    var regions: [[String: Any]]
}
