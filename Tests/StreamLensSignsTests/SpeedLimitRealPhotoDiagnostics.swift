import Foundation
import StreamLensCore
import Testing

@testable import StreamLensSigns

/// Where the reader loses real signs, step by step (located? cropped? read?), on the real-photo set's `dev` split.
/// A development aid: runs only with `STREAMLENS_SIGN_DIAGNOSE=1` and asserts nothing about recall.
struct SpeedLimitRealPhotoDiagnostics {
    static let enabled = ProcessInfo.processInfo.environment["STREAMLENS_SIGN_DIAGNOSE"] == "1"
        && SpeedLimitRealPhotoTests.isPresent

    @Test(.enabled(if: enabled, "set STREAMLENS_SIGN_DIAGNOSE=1 (and build the real-photo set) to run"))
    func stepsPerSign() throws {
        let set = try SignTestSet.load(
            folder: SpeedLimitRealPhotoTests.folder, expectedVersion: SpeedLimitRealPhotoTests.expectedGeneratorVersion)
        let engine = try TesseractEngine()
        var totals: [String: Int] = [:]
        for clip in set.clips where clip.kind == "sign" {
            guard let sign = clip.signs.first else { continue }
            var locator = RedRingLocator()
            var cropper = DigitCropper()
            var steps: [String] = []
            try set.forEachFrame(of: clip) { frame in
                guard let truth = sign.box(atFrame: frame.frameIndex) else { return }
                locator.locate(in: frame.planes)
                guard let candidate = locator.candidates.first(where: { $0.box.intersectionOverUnion(truth) > 0.3 })
                else {
                    steps.append("\(Int(truth.width)):none")
                    totals["not located", default: 0] += 1
                    return
                }
                switch cropper.prepare(planes: frame.planes, candidate: candidate) {
                case .rejected(let reason):
                    steps.append("\(Int(truth.width)):\(reason)")
                    totals["rejected \(reason)", default: 0] += 1
                case .digits(let layout):
                    let (text, confidence) = cropper.ocrImage.withUnsafeBufferPointer {
                        engine.read(
                            gray: $0.baseAddress!, width: cropper.ocrWidth, height: cropper.ocrHeight,
                            bytesPerRow: cropper.ocrWidth)
                    }
                    let reading = SpeedTextInterpreter.interpret(
                        text: text, confidence: confidence, layout: layout, profile: .europe)
                    steps.append("\(Int(truth.width)):'\(text)'\(String(format: "%.2f", confidence))")
                    totals[reading?.value == sign.value ? "read right" : reading == nil ? "read nothing" : "read WRONG",
                        default: 0] += 1
                }
            }
            print("\(clip.name): \(steps.joined(separator: " "))")
        }
        print(totals.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
    }
}
