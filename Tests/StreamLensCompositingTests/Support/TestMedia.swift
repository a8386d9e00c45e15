import Foundation

/// Where fetched media lives: `$STREAMLENS_MEDIA`, else `<repo>/.media-cache/media` (scripts/datasets/fetch-media.sh).
enum TestMedia {
    static var directory: URL {
        if let path = ProcessInfo.processInfo.environment["STREAMLENS_MEDIA"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // This file is <repo>/Tests/StreamLensCompositingTests/Support/TestMedia.swift.
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".media-cache/media")
    }

    /// Path of a fetched file, e.g. "overlays/gtk-logo.webm".
    static func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }

    /// A fresh temporary directory for files a test writes.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("streamlens-compositing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
