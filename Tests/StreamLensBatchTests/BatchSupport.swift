import Foundation
import Testing
import StreamLensBatch

/// The repository root (this file is Tests/StreamLensBatchTests/BatchSupport.swift).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The `streamlens` executable built next to the tests.
let streamlensExecutable: String = {
    let candidates = [".build/debug/streamlens", ".build/release/streamlens"].map { repositoryRoot.appendingPathComponent($0).path }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
}()

let mediaFolder = repositoryRoot.appendingPathComponent(".media-cache/media")

/// A fresh temporary folder.
func makeTemporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streamlens-batch-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// What a command printed and how it ended.
struct CommandResult: Sendable {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Runs a command to the end on a thread of its own (not on Swift concurrency's few threads).
func runCommand(_ executable: String, _ arguments: [String], timeout: TimeInterval = 300) async throws -> CommandResult {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            do {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                let output = Pipe()
                let errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                try process.run()
                let timer = DispatchSource.makeTimerSource()
                timer.schedule(deadline: .now() + timeout)
                timer.setEventHandler { if process.isRunning { process.terminate() } }
                timer.resume()
                // Read both pipes at once: a child filling one while we wait on the other would hang.
                let errorData = LockedData()
                let errorReader = Thread { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
                errorReader.start()
                let outputData = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                timer.cancel()
                while !errorData.isSet { Thread.sleep(forTimeInterval: 0.01) }
                continuation.resume(returning: CommandResult(
                    status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                    standardError: String(decoding: errorData.value, as: UTF8.self)))
            } catch {
                continuation.resume(throwing: error)
            }
        }.start()
    }
}

/// Data written once by one thread and read by another.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ value: Data) { lock.withLock { data = value } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
}

/// Runs `streamlens ARGUMENTS`.
func streamlens(_ arguments: [String], timeout: TimeInterval = 300) async throws -> CommandResult {
    try await runCommand(streamlensExecutable, arguments, timeout: timeout)
}

/// Starts `streamlens ARGUMENTS` without waiting (to kill it); its output goes to `log`.
func startStreamlens(_ arguments: [String], log: URL) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: streamlensExecutable)
    process.arguments = arguments
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    return process
}

/// A folder `in` holding `long.mp4`: 1200 frames of real footage, tens of seconds of HOG on every frame
/// (`--analysis-interval 0`), far longer than a stop may take.
func makeLongClipFolder(in folder: URL) async throws -> URL {
    let inputs = folder.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: try await longClip.value, to: inputs.appendingPathComponent("long.mp4"))
    return inputs
}

/// `long.mp4`, encoded once per test process (each test gets a copy of its own).
private let longClip = Task<URL, any Error> {
    let clip = try makeTemporaryFolder().appendingPathComponent("long.mp4")
    let made = try await runCommand("/usr/bin/gst-launch-1.0", [
        "-q", "filesrc", "location=\(mediaFolder.appendingPathComponent("vtest.avi").path)", "!", "decodebin", "!",
        "videoconvert", "!", "videoscale", "!", "video/x-raw,width=384,height=288", "!", "identity",
        "eos-after=1201", "!", "x264enc", "speed-preset=ultrafast", "bitrate=500", "!", "mp4mux", "!", "filesink",
        "location=\(clip.path)",
    ])
    guard made.status == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot make long.mp4: \(made.standardError)"])
    }
    return clip
}

/// A tmpfs of `size` ("200k") mounted at `folder` (created), for a disk that fills up; the returned closure unmounts it.
func mountTmpfs(at folder: URL, size: String) throws -> () -> Void {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    func mountCommand(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
    let mounted = try mountCommand("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path])
    try #require(mounted == 0, "this machine does not allow mounting a tmpfs")
    return { _ = try? mountCommand("/bin/umount", [folder.path]) }
}

/// Waits (polling every 0.1 s, up to `timeout`) until `condition` holds.
func waitUntil(timeout: TimeInterval = 120, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(100))
    }
    return false
}

/// The pipeline every batch test runs: HOG people detection (real events on the street clips) with a latency budget
/// no call reaches, so that which frames are analysed depends on stream time only, not on how busy the machine is
/// (the default 250 ms budget would stretch the cadence on a loaded machine and change the events).
let testPipeline: String = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("streamlens-batch-test-pipeline-\(getpid()).yaml").path
    try? "stages:\n  detector: { backend: hog, budget: 60 }\n".write(toFile: path, atomically: true, encoding: .utf8)
    return path
}()

/// The batch options every batch test uses: the test pipeline, no video.
let analysisOptions = ["--pipeline", testPipeline, "--output", "null"]

/// Short clips cut from the real media (decoded and re-encoded here, never committed), made once per test process.
/// Names carry a dashcam-style start time so drive times can be checked.
enum TestClips {
    struct Clip: Sendable {
        var relativePath: String
        var source: String
        var width: Int
        var height: Int
        /// The least number of frames the file holds (the lone run counts them exactly).
        var frames: Int
    }

    static let clips = [
        Clip(relativePath: "20240501_093000.mp4", source: "bikes.mp4", width: 640, height: 272, frames: 40),
        Clip(relativePath: "20240501_093100.mp4", source: "vtest.avi", width: 384, height: 288, frames: 50),
        Clip(relativePath: "day2/20240502_080000.mp4", source: "bikes-1080p.mp4", width: 480, height: 270, frames: 30),
        Clip(relativePath: "day2/20240502_081500.mp4", source: "vtest.avi", width: 320, height: 240, frames: 35),
    ]

    /// The clips, made side by side (independent gst-launch-1.0 processes).
    private static let made = Task<URL, any Error> {
        let folder = try makeTemporaryFolder().appendingPathComponent("clips")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for clip in clips {
                group.addTask {
                    let destination = folder.appendingPathComponent(clip.relativePath)
                    try FileManager.default.createDirectory(
                        at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                    let result = try await runCommand("/usr/bin/gst-launch-1.0", [
                        "-q", "filesrc", "location=\(mediaFolder.appendingPathComponent(clip.source).path)", "!", "decodebin",
                        "!", "videoconvert", "!", "videoscale", "!", "video/x-raw,width=\(clip.width),height=\(clip.height)", "!",
                        // eos-after=N after a frame-threaded decoder lets N - 1 or N frames through, depending on timing.
                        "identity", "eos-after=\(clip.frames + 1)", "!", "x264enc", "speed-preset=ultrafast", "!", "mp4mux",
                        "!", "filesink", "location=\(destination.path)",
                    ])
                    guard result.status == 0 else {
                        throw CocoaError(
                            .fileWriteUnknown,
                            userInfo: [NSLocalizedDescriptionKey: "cannot make \(clip.relativePath): \(result.standardError)"])
                    }
                }
            }
            try await group.waitForAll()
        }
        return folder
    }

    /// A copy of the clip folder for one test (tests change and kill things in it).
    static func folder() async throws -> URL {
        let source = try await made.value
        let copy = try makeTemporaryFolder().appendingPathComponent("clips")
        try FileManager.default.copyItem(at: source, to: copy)
        return copy
    }

    /// What a lone `streamlens run` of a clip wrote: its events, and the frames its report says it decoded.
    typealias LoneRun = (events: [String], frames: Int)

    /// The events of a lone `streamlens run` of `relativePath` with the test pipeline (run once per clip).
    static func eventsOfLoneRun(_ relativePath: String) async throws -> [String] {
        try await loneRun(of: relativePath).events
    }

    /// The frames a lone run of `relativePath` decoded (its report's `frames.decoded`).
    static func framesOfLoneRun(_ relativePath: String) async throws -> Int {
        try await loneRun(of: relativePath).frames
    }

    /// Starts the lone runs now, for a test that compares with them later (they run beside what it does first).
    static func startLoneRuns() { _ = loneRuns }

    private static func loneRun(of relativePath: String) async throws -> LoneRun {
        guard let run = try await loneRuns.value[relativePath] else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(relativePath) is not a test clip"])
        }
        return run
    }

    /// The lone runs of every clip, made side by side at the first request: they are independent `streamlens run`
    /// processes, and which frames HOG analyses depends on stream time only (see ``testPipeline``), so their events
    /// do not depend on how busy the machine is.
    private static let loneRuns = Task<[String: LoneRun], any Error> {
        try await withThrowingTaskGroup(of: (String, LoneRun).self) { group in
            for clip in clips { group.addTask { (clip.relativePath, try await runAlone(clip.relativePath)) } }
            var runs: [String: LoneRun] = [:]
            for try await (path, run) in group { runs[path] = run }
            return runs
        }
    }

    private static func runAlone(_ relativePath: String) async throws -> LoneRun {
        let source = try await made.value.appendingPathComponent(relativePath)
        let folder = try makeTemporaryFolder()
        let events = folder.appendingPathComponent("events.jsonl")
        let report = folder.appendingPathComponent("report.json")
        let result = try await streamlens([
            "run", testPipeline, "--input", source.path, "--events", events.path, "--report", report.path,
            "--output", "null", "--quiet",
        ])
        guard result.status == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "lone run failed: \(result.standardError)"])
        }
        let lines = try String(contentsOf: events, encoding: .utf8).split(separator: "\n").map(String.init)
        let reportObject = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let frames = (reportObject?["frames"] as? [String: Any])?["decoded"] as? Int ?? -1
        return (lines, frames)
    }
}

/// The catalog's events of one file, as the run wrote them.
func catalogEvents(_ catalog: any BatchCatalog, file: String) async throws -> [String] {
    try await catalog.events(type: nil).filter { $0.file == file }.map(\.json)
}

/// Processes whose command line mentions `text` (a child left behind would show here).
func processes(mentioning text: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
        guard pid != getpid(), let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        return String(decoding: data, as: UTF8.self).contains(text)
    }
}
