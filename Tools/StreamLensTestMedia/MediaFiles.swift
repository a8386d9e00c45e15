import Foundation

/// Where the tests and the diagnostics find the repository, its fetched media and external programs.
public enum MediaFiles {
    /// The repository root (this file is Tools/StreamLensTestMedia/MediaFiles.swift).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Fetched media (scripts/datasets/fetch-media.sh): `$STREAMLENS_MEDIA`, default `<repo>/.media-cache/media`.
    public static var mediaDirectory: URL {
        if let configured = ProcessInfo.processInfo.environment["STREAMLENS_MEDIA"], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        return repositoryRoot.appendingPathComponent(".media-cache/media")
    }

    /// A fetched media file; throws a line naming the fetch step when it is missing.
    public static func media(_ name: String) throws -> URL {
        let url = mediaDirectory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw MediaError("media file \(url.path) is missing: run scripts/datasets/fetch-media.sh (or set STREAMLENS_MEDIA)")
        }
        return url
    }

    /// A fresh temporary directory whose name starts with `streamlens-<label>-`.
    public static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("streamlens-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `executable` (looked up on PATH) with `arguments`; returns its exit status and combined output.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
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
}

/// Media or a tool the caller needs is missing or failed: one line saying what to do.
public struct MediaError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
