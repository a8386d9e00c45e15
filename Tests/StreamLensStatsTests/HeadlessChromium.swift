import Foundation
import Testing

/// Screenshots pages with the system's headless Chromium (Debian package `chromium`).
enum HeadlessChromium {
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "chromium is not installed: run scripts/setup.sh (it installs the Debian package 'chromium'), or apt-get install -y chromium"
        }
    }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// The chromium executable on PATH.
    static func executable() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        throw Missing()
    }

    /// Screenshots `page` (a local HTML file) at `width`×`height` into `png`; gives up after `timeout`.
    static func screenshot(page: String, to png: String, width: Int = 1280, height: Int = 2000, timeout: TimeInterval = 90) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-profile-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(profile)",
            "--screenshot=\(png)", "--window-size=\(width),\(height)", URL(fileURLWithPath: page).absoluteString,
        ]
        let log = Pipe()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw Failed(description: "chromium did not finish the screenshot of \(page) in \(Int(timeout)) s")
        }
        let output = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: png) else {
            throw Failed(description: "chromium failed (status \(process.terminationStatus)) on \(page): \(output.suffix(600))")
        }
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ data: Data) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            bytes[12..<16] == [0x49, 0x48, 0x44, 0x52]  // "IHDR"
        else { throw Failed(description: "not a PNG file") }
        func bigEndian(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (bigEndian(16), bigEndian(20))
    }
}
