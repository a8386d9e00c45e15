import Foundation
import StreamLensTestMedia

/// Paths and external tools the detection tests use: the repository, fetched media, generated ONNX fixtures.
enum TestEnvironment {
    static var repositoryRoot: URL { MediaFiles.repositoryRoot }

    /// A fetched media file; fails the calling test with a message naming the fetch step when it is missing.
    static func media(_ name: String) throws -> URL { try MediaFiles.media(name) }

    /// A fresh temporary directory.
    static func temporaryDirectory(_ label: String) throws -> URL { try MediaFiles.temporaryDirectory(label) }

    /// Runs `executable` with `arguments`; returns its exit status and combined output.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try MediaFiles.run(executable, arguments)
    }

    /// The ONNX fixtures of scripts/datasets/make-test-onnx.py, generated once per test run. Uses the first Python that
    /// has the `onnx` package (`python3` on PATH, then Debian's `/usr/bin/python3` with `python3-onnx`); when
    /// none has it, installs it from PyPI into `python3`.
    static let onnxFixtures: Result<URL, TestSetupError> = {
        do {
            let directory = try temporaryDirectory("onnx")
            let script = repositoryRoot.appendingPathComponent("scripts/datasets/make-test-onnx.py").path
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
