import Foundation
import StreamLensTestMedia
import StreamLensCore

@testable import StreamLensSigns

/// `us-signs [SET]`: prints, per frame of the US set's sign clips, what the locator found, what the cropper made of
/// it and what Tesseract read — the first thing to look at when a sign is missed. SET is another set of the same
/// format (the real photographs' clips/heldout); without it, the generated US set (scripts/datasets/make-us-sign-testset.sh).
enum UsSignSteps {
    static func run(setFolder: String?) throws {
        let set = try setFolder.map {
            try SignSet.load(folder: $0, expectedVersion: SignSet.Version.realPhoto)
        } ?? SignSet.load(
            folder: SignSet.repository.appendingPathComponent(".media-cache/us-sign-testset").path,
            expectedVersion: SignSet.Version.unitedStates)
        let only = ProcessInfo.processInfo.environment["STREAMLENS_US_DIAGNOSTICS_CLIP"] ?? "us_"
        var locator = UsSignLocator()
        var cropper = UsDigitCropper()
        var words = UsPlateWordsPicture()
        let engine = try TesseractEngine()
        for clip in set.clips where clip.name.contains(only) && clip.kind != "distractor" {
            var lines: [String] = []
            try set.forEachFrame(of: clip) { frame in
                let truth = clip.signs.compactMap { $0.box(atFrame: frame.frameIndex) }.first
                locator.locate(in: frame.planes)
                var parts: [String] = []
                for candidate in locator.candidates {
                    let box = candidate.box
                    var part = "[\(Int(box.x)),\(Int(box.y)) \(Int(box.width))x\(Int(box.height))"
                    if let truth { part += String(format: " iou %.2f", box.intersectionOverUnion(truth)) }
                    let outcome = cropper.prepare(planes: frame.planes, candidate: candidate)
                    switch outcome {
                    case .rejected(let why): part += " \(why)"
                    case .digits(let layout):
                        let (text, confidence) = cropper.ocrImage.withUnsafeBufferPointer {
                            engine.read(
                                gray: $0.baseAddress!, width: cropper.ocrWidth, height: cropper.ocrHeight,
                                bytesPerRow: cropper.ocrWidth)
                        }
                        part += String(format: " read '%@' %.2f glyphs %d", text, confidence, layout.glyphCount)
                        if candidate.plate.height >= UsPlateWordsPicture.minimumPlateHeight {
                            // What the words above the number say (the reader asks only when the number made a limit).
                            words.prepare(luma: frame.planes.y, plate: candidate.plate)
                            let (wordText, wordConfidence) = words.image.withUnsafeBufferPointer {
                                engine.readWords(
                                    gray: $0.baseAddress!, width: words.width, height: words.height,
                                    bytesPerRow: words.width)
                            }
                            part += " words '\(wordText.filter { !$0.isNewline })' "
                                + "\(UsPlateWords.judge(text: wordText, confidence: wordConfidence))"
                        }
                        if let dump = ProcessInfo.processInfo.environment["STREAMLENS_US_DIAGNOSTICS_DUMP"] {
                            // The OCR picture as a PGM, to look at what Tesseract was given.
                            GreyPicture.write(
                                cropper.ocrImage, width: cropper.ocrWidth, height: cropper.ocrHeight,
                                to: "\(dump)/\(clip.name)_\(frame.frameIndex).pgm")
                        }
                    }
                    parts.append(part + "]")
                }
                let truthText = truth.map { "truth \(Int($0.x)),\(Int($0.y)) \(Int($0.width))x\(Int($0.height))" } ?? "-"
                lines.append("  \(frame.frameIndex): \(truthText) \(parts.joined(separator: " "))")
            }
            print("\(clip.name)\n" + lines.joined(separator: "\n"))
        }
    }
}

/// `us-locator-cost`: the US locator's cost per frame beside the red-ring locator's on the same frames, at the
/// generated US set's 640 × 272 (full-resolution search) and tiled up to 1920 × 1080 (chroma-resolution search).
/// Absolute times are noise on a shared machine; the ratio in one run is the figure.
enum UsSignLocatorCost {
    static func run() throws {
        let set = try SignSet.load(
            folder: SignSet.repository.appendingPathComponent(".media-cache/us-sign-testset").path,
            expectedVersion: SignSet.Version.unitedStates)
        var usLocator = UsSignLocator()
        var ringLocator = RedRingLocator()
        let clock = ContinuousClock()
        let big = OwnedYUVImage(layout: .i420, width: 1920, height: 1080)
        var frames = 0
        var us = (small: Duration.zero, big: Duration.zero)
        var ring = (small: Duration.zero, big: Duration.zero)
        for clip in set.clips.prefix(12) {
            try set.forEachFrame(of: clip) { frame in
                us.small += clock.measure { usLocator.locate(in: frame.planes) }
                ring.small += clock.measure { ringLocator.locate(in: frame.planes) }
                big.withPlanes { planes in
                    // The frame tiled 3 × 4 (cropped): the same content at 1080p size.
                    for (target, source) in [(planes.y, frame.planes.y), (planes.u, frame.planes.u), (planes.v, frame.planes.v)] {
                        for y in 0..<target.height {
                            for x in 0..<target.width { target[x, y] = source[x % source.width, y % source.height] }
                        }
                    }
                    us.big += clock.measure { usLocator.locate(in: planes) }
                    ring.big += clock.measure { ringLocator.locate(in: planes) }
                }
                frames += 1
            }
        }
        print("locator cost over \(frames) frames (debug build): 640x272 US \(us.small / frames), red ring "
            + "\(ring.small / frames), ratio \(String(format: "%.2f", us.small / ring.small)); 1920x1080 US "
            + "\(us.big / frames), red ring \(ring.big / frames), ratio \(String(format: "%.2f", us.big / ring.big))")
    }
}
