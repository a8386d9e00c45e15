import Foundation
import StreamLensTestMedia
import StreamLensCore

@testable import StreamLensSigns

/// `sign-misses [--stage] SET`: where the reader loses real signs, step by step (located? cropped? read?), on a
/// real-photo set's clips (its `dev` split for tuning). `--stage` reads each candidate as the stage does (early stop,
/// at most 3 OCR calls) and adds Tesseract calls and OCR time per candidate; each sighting's decision is shown as
/// `=value`.
/// `STREAMLENS_SIGN_CLIP=<part of a clip name>` runs only those clips. `STREAMLENS_CLASSIFIER_DUMP=<folder>` writes
/// each located disc as the classifier and the template matcher see it; `M<value>@<score>/<lead>` is the template
/// match, when the matcher ran.
enum SignMisses {
    /// `STREAMLENS_SIGN_OTHER_CANDIDATES=1` also reads every other candidate and prints those that give a value.
    static let readsOtherCandidates = ProcessInfo.processInfo.environment["STREAMLENS_SIGN_OTHER_CANDIDATES"] == "1"
    /// `STREAMLENS_SIGN_READ_AT_TRUTH=1` reads a sign the locator missed at its true box, as a faint candidate (its
    /// sighting shown as `<width>@truth:`, and counted in the totals like a located one): whether locating it would
    /// read it.
    static let readsAtTruth = ProcessInfo.processInfo.environment["STREAMLENS_SIGN_READ_AT_TRUTH"] == "1"

    /// `mode`: "stage" reads as the stage does, anything else tries every variant the classifier lets it.
    static func run(setFolder: String, mode: String) throws {
        let set = try SignSet.load(folder: setFolder, expectedVersion: SignSet.Version.realPhoto)
        let engine = try TesseractEngine()
        // The stage's text-line recogniser, when installed (scripts/models/install-text-line-model.sh).
        let textLine = try mode == "stage" ? TextLineRecogniser.installedModel().map(TextLineRecogniser.init) : nil
        var totals: [String: Int] = [:]
        var ocrCalls: [Int] = []
        var ocrDurations: [Duration] = []
        let only = ProcessInfo.processInfo.environment["STREAMLENS_SIGN_CLIP"]
        for clip in set.clips where clip.kind == "sign" && (only.map { clip.name.contains($0) } ?? true) {
            guard let sign = clip.signs.first else { continue }
            var locator = RedRingLocator()
            // Every variant may be read (the vote never settles) so the figures show what each one adds; variants
            // after the first still wait for the classifier to name a value, as in the stage.
            var reader = DiscReader(maximumOCRCalls: DiscVariant.tried.count)
            if mode == "stage" {
                reader = DiscReader()
            } else {
                reader.vote = VariantVote(settlingConfidence: 1.01)
            }
            let configuration = SpeedLimitConfiguration()
            var steps: [String] = []
            // Reads the frame's other candidates (`STREAMLENS_SIGN_OTHER_CANDIDATES`).
            var otherReader = DiscReader()
            try set.forEachFrame(of: clip) { frame in
                // Every frame, as in the stage: the contrast search alternates whole-frame and around-the-seeds frames.
                locator.locate(in: frame.planes)
                if readsOtherCandidates {
                    // What the other candidates of the frame read as (where invented events come from).
                    let truth = sign.box(atFrame: frame.frameIndex)
                    let others = locator.candidates.filter { candidate in
                        truth.map { candidate.box.intersectionOverUnion($0) <= 0.3 } ?? true
                    }
                    for other in others {
                        if let reading = otherReader.read(
                            planes: frame.planes, candidate: other, engine: engine, textLine: textLine, profile: .europe,
                            minimumConfidence: configuration.minimumConfidence)
                        {
                            let box = other.box
                            let match = otherReader.lastTemplateMatch.map {
                                " M@" + String(format: "%.2f/%.2f", $0.score, $0.margin)
                            } ?? ""
                            print(
                                "  frame \(frame.frameIndex) other candidate (\(Int(box.x)),\(Int(box.y)) "
                                    + "\(Int(box.width))x\(Int(box.height))) read \(reading.value)\(match)")
                        }
                    }
                }
                guard let truth = sign.box(atFrame: frame.frameIndex) else { return }
                var located = locator.candidates.first(where: { $0.box.intersectionOverUnion(truth) > 0.3 })
                let readAtTruth = located == nil && readsAtTruth
                if readAtTruth {
                    // What the readers would make of the sign had it been located: the true box as a faint ring of a
                    // sign's proportions.
                    let radiusX = truth.width / 2
                    let radiusY = truth.height / 2
                    let ringShare = locator.insideCheck.ringShare
                    located = RingCandidate(
                        centerX: truth.x + radiusX, centerY: truth.y + radiusY, radiusX: radiusX, radiusY: radiusY,
                        innerRadiusX: ringShare * radiusX, innerRadiusY: ringShare * radiusY, ringCoverage: 1,
                        isFaint: true)
                }
                guard let candidate = located else {
                    steps.append("\(Int(truth.width)):none")
                    totals["not located", default: 0] += 1
                    return
                }
                let minimumConfidence = candidate.isFaint
                    ? configuration.faintRingMinimumConfidence : configuration.minimumConfidence
                let reading = reader.read(
                    planes: frame.planes, candidate: candidate, engine: engine, textLine: textLine, profile: .europe,
                    minimumConfidence: minimumConfidence)
                if reader.lastOCRCalls > 0 {
                    ocrCalls.append(reader.lastOCRCalls)
                    ocrDurations.append(reader.lastOCRDuration)
                }
                var described: [String] = []
                for (index, attempt) in reader.attempts.enumerated() {
                    if let text = attempt.text {
                        described.append(
                            "\(attempt.isWholeDisc ? "W" : "")'\(text)'\(String(format: "%.2f", attempt.confidence))")
                        if let value = attempt.reading?.value, attempt.confidence >= minimumConfidence {
                            let name = attempt.isWholeDisc ? "whole disc" : "variant \(index)"
                            totals["\(name) read \(value == sign.value ? "right" : "WRONG")", default: 0] += 1
                        }
                    } else if case .rejected(let reason) = attempt.outcome {
                        described.append("\(reason)")
                        totals["variant \(index) rejected \(reason)", default: 0] += 1
                    }
                }
                if let verdict = reader.lastVerdict {
                    described.append("C\(verdict.value.map(String.init) ?? "-")@\(String(format: "%.2f", verdict.confidence))")
                    let bin = verdict.confidence >= 0.9 ? "0.9" : verdict.confidence >= 0.7 ? "0.7" : verdict.confidence >= 0.5 ? "0.5" : "0"
                    let verdictStep = verdict.value == nil ? "none" : verdict.value == sign.value ? "right" : "WRONG"
                    totals["classifier \(bin) \(verdictStep)", default: 0] += 1
                }
                if let folder = ProcessInfo.processInfo.environment["STREAMLENS_CLASSIFIER_DUMP"] {
                    // The disc as the classifier and the template matcher see it.
                    var cropper = DigitCropper()
                    if cropper.prepareClassifierImage(planes: frame.planes, candidate: candidate) {
                        let side = DigitCropper.canvasSize
                        GreyPicture.write(
                            cropper.classifierImage, width: side, height: side,
                            to: "\(folder)/\(clip.name)_\(frame.frameIndex).pgm")
                    }
                }
                if let read = reader.lastTextLineRead, let folder = ProcessInfo.processInfo.environment["STREAMLENS_TEXT_LINE_DUMP"] {
                    // The band the recogniser read, and the frame around the true box and the candidate, named after
                    // the clip, frame and read.
                    let name = "\(folder)/\(clip.name)_\(frame.frameIndex)_\(read.text.replacingOccurrences(of: "?", with: "x")).pgm"
                    var band = TextLineBand()
                    if band.prepare(planes: frame.planes, candidate: candidate) {
                        GreyPicture.write(band.pixels, width: band.width, height: TextLineRecogniser.inputHeight, to: name)
                        GreyPicture.writeSurroundings(of: truth, in: frame.planes, to: name + ".truth.pgm")
                        GreyPicture.writeSurroundings(of: candidate.box, in: frame.planes, to: name + ".candidate.pgm")
                    }
                }
                if let read = reader.lastTextLineRead {
                    described.append("T'\(read.text)'\(String(format: "%.2f", read.leastConfidence))")
                    let verdict = Int(read.text) == sign.value ? "right" : read.text.isEmpty ? "empty" : "other"
                    totals["text line \(read.leastConfidence >= 0.9 ? "sure" : "unsure") \(verdict)", default: 0] += 1
                }
                if let match = reader.lastTemplateMatch {
                    described.append(
                        "M\(match.value.map(String.init) ?? "-")@\(String(format: "%.2f/%.2f", match.score, match.margin))")
                    let verdict = match.value == sign.value ? "right" : "other"
                    let sure = RecogniserAgreement().decide(templates: match, textLine: nil, profile: .europe, standardRead: nil) != nil
                    totals["templates \(sure ? "sure" : "unsure") \(verdict)", default: 0] += 1
                }
                // The reader's decision for the sighting, as the tracker gets it.
                if let reading { described.append("=\(reading.value)") }
                steps.append("\(Int(truth.width))\(readAtTruth ? "@truth" : ""):\(described.joined(separator: "|"))")
                let firstRejection = reader.attempts.compactMap { attempt -> CropRejection? in
                    if case .rejected(let reason) = attempt.outcome { return reason }
                    return nil
                }.first
                let step = if let reading { reading.value == sign.value ? "read right" : "read WRONG" }
                    else if reader.attempts.contains(where: { $0.text != nil }) { "read nothing" }
                    else { "rejected \(firstRejection.map { "\($0)" } ?? "?")" }
                totals[step, default: 0] += 1
                if let reading, reading.lastDigitFromShape { totals["\(step), last 0 from its shape", default: 0] += 1 }
            }
            print("\(clip.name): \(steps.joined(separator: " "))")
        }
        let calls = ocrCalls.sorted()
        let durations = ocrDurations.sorted()
        if !calls.isEmpty {
            let mean = Double(calls.reduce(0, +)) / Double(calls.count)
            let histogram = (1...DiscVariant.tried.count).map { n in "\(n):\(calls.filter { $0 == n }.count)" }
            print(
                "candidates read by Tesseract \(calls.count): calls per candidate mean \(String(format: "%.2f", mean)), "
                    + "median \(calls[calls.count / 2]), histogram \(histogram.joined(separator: " ")); OCR per candidate "
                    + "median \(String(format: "%.1f ms", durations[durations.count / 2].milliseconds))")
        }
        print(totals.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
    }
}
