import Foundation

/// Paths and external tools the detection tests use: the repository, fetched media, generated ONNX fixtures.
enum TestEnvironment {
    /// The repository root (this file is Tests/StreamLensDetectionTests/Support/TestEnvironment.swift).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Fetched media (scripts/fetch-media.sh): `$STREAMLENS_MEDIA`, default `<repo>/.media-cache/media`.
    static var mediaDirectory: URL {
        if let configured = ProcessInfo.processInfo.environment["STREAMLENS_MEDIA"], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        return repositoryRoot.appendingPathComponent(".media-cache/media")
    }

    /// A fetched media file; fails the calling test with a message naming the fetch step when it is missing.
    static func media(_ name: String) throws -> URL {
        let url = mediaDirectory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw TestSetupError("media file \(url.path) is missing: run scripts/fetch-media.sh (or set STREAMLENS_MEDIA)")
        }
        return url
    }

    /// A fresh temporary directory.
    static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("streamlens-detection-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `executable` with `arguments`; returns its exit status and combined output.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The ONNX fixtures of scripts/make-test-onnx.py, generated once per test run. Uses the first Python that
    /// has the `onnx` package (`python3` on PATH, then Debian's `/usr/bin/python3` with `python3-onnx`); when
    /// none has it, installs it from PyPI into `python3`.
    static let onnxFixtures: Result<URL, TestSetupError> = {
        do {
            let directory = try temporaryDirectory("onnx")
            let script = repositoryRoot.appendingPathComponent("scripts/make-test-onnx.py").path
            var failures: [String] = []
            for python in ["python3", "/usr/bin/python3"] {
                guard let probe = try? run(python, ["-c", "import onnx"]), probe.status == 0 else { continue }
                let result = try run(python, [script, directory.path])
                if result.status == 0 { return .success(directory) }
                failures.append("\(python): \(result.output)")
            }
            let install = try run("python3", ["-m", "pip", "install", "--quiet", "onnx"])
            guard install.status == 0 else {
                return .failure(TestSetupError(
                    "the onnx Python package is missing and pip install onnx failed: \(install.output) \(failures)"))
            }
            let result = try run("python3", [script, directory.path])
            guard result.status == 0 else {
                return .failure(TestSetupError("make-test-onnx.py failed: \(result.output)"))
            }
            return .success(directory)
        } catch {
            return .failure(TestSetupError("cannot run make-test-onnx.py: \(error)"))
        }
    }()

    static func onnxFixture(_ name: String) throws -> String {
        try onnxFixtures.get().appendingPathComponent(name).path
    }
}

/// A test precondition that does not hold (missing media, a tool that failed).
struct TestSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
