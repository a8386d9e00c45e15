import Foundation
import Synchronization
import Testing
import StreamLensCompositing
import StreamLensCore
@testable import StreamLensFramePath
@testable import StreamLensGStreamer

/// The repository root (this file is Tests/StreamLensTests/Support.swift).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The `streamlens` executable built next to the tests.
let streamlensExecutable: URL = {
    let candidates = [".build/debug/streamlens", ".build/release/streamlens"].map { repositoryRoot.appendingPathComponent($0) }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
}()

/// A fresh temporary folder.
func makeTemporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streamlens-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Result of running the command-line tool.
struct ToolResult: Sendable {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Runs `work` on a thread of its own and waits for it without holding one of Swift concurrency's few threads (tests
/// run in parallel; blocking calls on the shared pool would starve tests that need it, like the metrics server's).
func offThePool<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
    }
}

/// Runs `streamlens` with `arguments` to its end. (Tests that interrupt a run use ``BackgroundRun`` and signal it
/// once what they wait for has happened.)
func runTool(
    _ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:],
    timeout: Duration = .seconds(120)
) async throws -> ToolResult {
    try await offThePool {
        try runToolBlocking(arguments, in: folder, environment: environment, timeout: timeout)
    }
}

private func runToolBlocking(
    _ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:],
    timeout: Duration = .seconds(120)
) throws -> ToolResult {
    let process = Process()
    process.executableURL = streamlensExecutable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    let deadline = Date().addingTimeInterval(timeout.seconds)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning {
        process.terminate()
        Issue.record("streamlens \(arguments) did not finish within \(timeout)")
    }
    process.waitUntilExit()
    return ToolResult(
        status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
        standardError: String(decoding: errorData, as: UTF8.self))
}

/// What a decoded file holds: frames with their PTS and the frame-stamp index read back from each.
struct DecodedFile: @unchecked Sendable {
    var frames: [(pts: Duration?, stampIndex: Int?)]
    var width: Int
    var height: Int
}

/// Decodes `file` to the end with GStreamer (through StreamLens's own frame path, without output); `probe` sees every
/// decoded frame with its index.
func decode(_ file: URL, probe: (@Sendable (YUVPlanes, Int) -> Void)? = nil) async throws -> DecodedFile {
    try await offThePool { try decodeBlocking(file, probe: probe) }
}

private func decodeBlocking(_ file: URL, probe: (@Sendable (YUVPlanes, Int) -> Void)?) throws -> DecodedFile {
    final class StampReader: CompositingStage {
        let name = "stamp-reader"
        let frames = Mutex<[(pts: Duration?, stampIndex: Int?)]>([])
        let size = Mutex((0, 0))
        let probe: (@Sendable (YUVPlanes, Int) -> Void)?
        init(probe: (@Sendable (YUVPlanes, Int) -> Void)?) { self.probe = probe }
        func composite(onto frame: YUVPlanes, context: CompositeContext) {
            probe?(frame, context.frameIndex)
            let index = FrameStampStage.readFrameIndex(from: frame)
            frames.withLock { $0.append((context.pts, index)) }
            size.withLock { $0 = (frame.width, frame.height) }
        }
    }
    let reader = StampReader(probe: probe)
    let input = try Pipeline(
        "uridecodebin uri=\(file.absoluteString) ! videoconvert ! video/x-raw,format=I420 ! appsink name=sink sync=false",
        label: "check")
    let path = try FramePath(
        configuration: .init(pool: PoolConfiguration(capacity: 3, policy: .block), compositors: [reader]),
        input: input, sinkName: "sink", output: nil, sourceName: "")
    path.start()
    try input.setState(.playing)
    var failure: GStreamerError?
    while true {
        if path.waitUntilDrained(timeout: .milliseconds(20)) { break }
        if case .error(let error) = input.nextMessage(timeout: .zero) {
            failure = error
            path.stopAdmitting()
        }
    }
    try input.setState(.null)
    if let failure { throw failure }
    let size = reader.size.withLock { $0 }
    return DecodedFile(frames: reader.frames.withLock { $0 }, width: size.0, height: size.1)
}
