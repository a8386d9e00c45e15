import Foundation
import Testing

/// The repository's own rules (scripts/check-tree.py): no Sources file over 600 lines outside Generated/, no "round N"
/// in the code, no STREAMLENS_* switch read but the documented paths, no module importing one above it (the layers in
/// Package.swift's header), every generated file naming its script.
@Suite struct RepositoryRulesTests {
    @Test func theTreeFollowsItsRules() async throws {
        let outcome = try await offThePool { () throws -> (Int32, String) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", repositoryRoot.appendingPathComponent("scripts/check-tree.py").path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self))
        }
        #expect(outcome.0 == 0, "\(outcome.1)")
    }
}
