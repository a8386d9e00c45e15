import Foundation
import StreamLensTestMedia
import StreamLensCore

@testable import StreamLensSigns

/// `locate SET`: the locator alone on a real-photo set (no OCR): how many sign frames it locates, per size and light, how many
/// candidates it sends on from frames without a speed sign (distractor and sign-free clips: each one costs OCR time),
/// and its time per 1080p frame. A development aid for tuning the locator on the `dev` split.
/// `STREAMLENS_LOCATOR_<NAME>` overrides a locator setting
/// (see ``tuned(_:)``) so settings can be compared without rebuilding; `STREAMLENS_LOCATOR_CLIP=<part of a clip name>`
/// measures only those clips and prints why each missed frame was missed (with the shape search's seeds near the sign;
/// `STREAMLENS_LOCATOR_ALL_SEEDS=1` lists all of them, relative to the sign's centre).
enum LocatorMeasure {
    /// `STREAMLENS_LOCATOR_ALL_SEEDS=1`: a missed frame's line lists all the shape search's seeds, not only those near
    /// the sign.
    static let listsAllShapeSeeds = ProcessInfo.processInfo.environment["STREAMLENS_LOCATOR_ALL_SEEDS"] == "1"

    static func setting(_ name: String) -> Double? {
        ProcessInfo.processInfo.environment["STREAMLENS_LOCATOR_\(name)"].flatMap(Double.init)
    }

    static func tuned(_ locator: inout RedRingLocator) {
        if let value = setting("FAINT") { locator.minimumFaintRedness = Int(value) }
        if let value = setting("LOCAL") { locator.minimumLocalRedness = Int(value) }
        if let value = setting("CAP") { locator.maximumCandidates = Int(value) }
        if let value = setting("EDGE") { locator.circleFinder?.edgeThreshold = value }
        if let value = setting("VOTES") { locator.circleFinder?.accumulatorThreshold = value }
        if let value = setting("INSIDE") { locator.circleCheck.minimumInsideContrast = value }
        if let value = setting("OUTSIDE") { locator.circleCheck.minimumOutsideContrast = value }
        if let value = setting("INNER") { locator.circleCheck.minimumInnerShare = value }
        if let value = setting("DIRECTIONS") { locator.circleCheck.minimumDirectionShare = value }
        if let value = setting("CONTRAST_CHECKS") { locator.maximumContrastChecks = Int(value) }
        if let value = setting("SEED_REDNESS") { locator.contrastSearch.minimumRedness = Int(value) }
        if let value = setting("SEED_BOX_REDNESS") { locator.contrastSearch.minimumBoxRedness = Int(value) }
        if let value = setting("SEED_BOXES") { locator.contrastSearch.minimumRedBoxes = Int(value) }
        if let value = setting("SEED_BRIGHTER") { locator.contrastSearch.maximumBoxBrightening = Int(value) }
        if let value = setting("SEEDS") { locator.contrastSearch.maximumSeeds = Int(value) }
        if let value = setting("SEED_SMALLEST") { locator.contrastSearch.radii.removeAll { $0 < Int(value) } }
        if let value = setting("INSIDE_DARKENING") { locator.insideCheck.minimumDarkening = value }
        if let value = setting("INSIDE_REDNESS") { locator.insideCheck.minimumRedness = value }
        if let value = setting("EDGE_LUMA") { locator.insideCheck.minimumEdgeLuma = value }
        if let value = setting("EDGE_REDNESS") { locator.insideCheck.minimumEdgeRedness = value }
        if let value = setting("EDGE_SHARE") { locator.insideCheck.minimumEdgeShare = value }
        if let value = setting("INSIDE_DIRECTIONS") { locator.insideCheck.minimumDirectionShare = value }
        if let value = setting("NUDGE") { locator.seededCircleNudge = value }
        if let value = setting("NUDGE_DIRECTIONS") { locator.nudgedCheck.minimumDirectionShare = value }
        if let value = setting("REMEMBER_SEEDS") { locator.remembersRejectedSeeds = value != 0 }
        if let value = setting("SEARCH_INTERVAL") { locator.contrastSearchInterval = Int(value) }
        if let value = setting("FIT") { locator.fitsRingEdges = value != 0 }
        if let value = setting("FIT_ALL") { locator.fitsBeyondChecks = value != 0 }
        if let value = setting("FIT_DIRECTIONS") { locator.fittedCheck.minimumDirectionShare = value }
        if let value = setting("FIT_THIN") { locator.fittedRingShares = value > 0 ? [0.78, value] : [0.78] }
        if setting("SEED_RADII_FINE") == 1 {
            locator.contrastSearch.radii = [8, 9, 11, 12, 14, 16, 19, 22, 25, 29, 34, 39, 45, 52, 60, 69, 80]
        }
        if let value = setting("SYMMETRY_CHECKS") { locator.maximumSymmetryChecks = Int(value) }
        if let value = setting("SYMMETRY_INTERVAL") { locator.symmetrySearchInterval = Int(value) }
        if let value = setting("SYMMETRY_SEEDS") { locator.symmetrySearch.maximumSeeds = Int(value) }
        if let value = setting("SYMMETRY_GRADIENT") { locator.symmetrySearch.minimumGradient = Int(value) }
        if let value = setting("SYMMETRY_FULL") { locator.symmetrySearch.fullVoteGradient = Int(value) }
        if let value = setting("SYMMETRY_CELL") { locator.symmetrySearch.smallestCell = Int(value) }
        if let value = setting("SYMMETRY_SCORE") { locator.symmetrySearch.minimumScore = value }
        if let list = ProcessInfo.processInfo.environment["STREAMLENS_LOCATOR_SEED_RADIUS_SHARES"] {
            locator.seedRadiusShares = list.split(separator: ",").compactMap { Double($0) }
        }
        if let value = setting("RESIZED_REDNESS") { locator.resizedSeedCheck.minimumRedness = value }
        if let value = setting("FIT_INLIERS") { locator.edgeFit.minimumInliers = Int(value) }
        if let value = setting("FIT_DROP") { locator.edgeFit.minimumDrop = value }
    }

    static func run(setFolder: String) throws {
        let set = try SignSet.load(folder: setFolder, expectedVersion: SignSet.Version.realPhoto)
        var locator = RedRingLocator()
        Self.tuned(&locator)
        var located: [String: (hit: Int, all: Int)] = [:]
        var faintHits = 0
        // The contrast search's seeds: near a sign (centre within 0.35 radii, radius within ×1.5), and elsewhere.
        var seededSigns = 0
        var seedsWithoutSign = 0
        var candidatesWithoutSign = 0
        var framesWithoutSign = 0
        var faintWithoutSign = 0
        var busiestFrame = 0
        var candidatesByKind: [String: Int] = [:]
        var elapsed = Duration.zero
        var timedFrames = 0
        let clock = ContinuousClock()
        var missed: [String] = []
        let only = ProcessInfo.processInfo.environment["STREAMLENS_LOCATOR_CLIP"]
        for clip in set.clips where only.map({ clip.name.contains($0) }) ?? true {
            try set.forEachFrame(of: clip) { frame in
                let started = clock.now
                locator.locate(in: frame.planes)
                if clip.width == 1920 {
                    elapsed += clock.now - started
                    timedFrames += 1
                }
                let truth = clip.kind == "sign" ? clip.signs.first?.box(atFrame: frame.frameIndex) : nil
                guard let truth, let sign = clip.signs.first else {
                    if clip.kind != "sign" {
                        framesWithoutSign += 1
                        candidatesWithoutSign += locator.candidates.count
                        faintWithoutSign += locator.candidates.filter(\.isFaint).count
                        busiestFrame = max(busiestFrame, locator.candidates.count)
                        candidatesByKind[clip.kind, default: 0] += locator.candidates.count
                        seedsWithoutSign += locator.contrastSearch.seeds.count
                    }
                    return
                }
                let hit = locator.candidates.first { $0.box.intersectionOverUnion(truth) > 0.3 }
                let truthRadius = truth.width / 2
                let seeded = locator.contrastSearch.seeds.contains { seed in
                    let radius = Double(2 * seed.radius)
                    return hypot(Double(2 * seed.x + 1) - (truth.x + truthRadius),
                        Double(2 * seed.y + 1) - (truth.y + truth.height / 2)) <= 0.35 * truthRadius
                        && radius / truthRadius < 1.5 && truthRadius / radius < 1.5
                }
                if seeded { seededSigns += 1 }
                if hit?.isFaint == true { faintHits += 1 }
                let size = truth.width < 32 ? "<32" : truth.width < 48 ? "32-47" : "≥48"
                for key in ["all", "size \(size)", "light \(sign.light ?? "?")"] {
                    located[key, default: (0, 0)].all += 1
                    if hit != nil { located[key, default: (0, 0)].hit += 1 }
                }
                if hit == nil {
                    missed.append("\(clip.name)#\(frame.frameIndex)")
                    // Which confirmation step would fail with the true place given: the luma circle, the colour test.
                    let radius = truth.width / 2
                    let centre = (x: truth.x + radius, y: truth.y + truth.height / 2)
                    locator.circleFinder?.find(near: centre, radius: radius, in: frame.planes.y)
                    let circleFound = locator.circleFinder?.circles.contains {
                        hypot($0.x - centre.x, $0.y - centre.y) <= 0.3 * radius
                    } ?? false
                    let colourPasses = locator.circleCheck.ring(
                        around: CircleFinder.Circle(x: centre.x, y: centre.y, radius: radius), in: frame.planes) != nil
                    let insidePasses = locator.insideCheck.ring(
                        around: CircleFinder.Circle(x: centre.x, y: centre.y, radius: radius), in: frame.planes) != nil
                    func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }
                    let key = "missed: circle \(yesNo(circleFound)), colour \(yesNo(colourPasses)), "
                        + "inside \(yesNo(insidePasses)), seeded \(yesNo(seeded)), \(size)"
                    located[key, default: (0, 0)].all += 1
                    if only != nil {
                        // Per missed frame of the chosen clips: the seeds near the sign, the luma circles found around
                        // each (offset from the true centre, radius) and whether the locator would keep them.
                        var detail = ""
                        for (rank, seed) in locator.contrastSearch.seeds.enumerated() {
                            let seedX = Double(2 * seed.x + 1)
                            let seedY = Double(2 * seed.y + 1)
                            let seedRadius = Double(2 * seed.radius)
                            guard hypot(seedX - centre.x, seedY - centre.y) <= 0.35 * radius else { continue }
                            locator.circleFinder?.find(
                                near: (seedX, seedY), radius: seedRadius, in: frame.planes.y, radiusRange: 0.6...1.3)
                            let circles = (locator.circleFinder?.circles ?? []).prefix(4).map { circle in
                                let kept = hypot(circle.x - seedX, circle.y - seedY) <= 0.35 * seedRadius
                                    && locator.insideCheck.ring(around: circle, in: frame.planes) != nil
                                return String(
                                    format: "(%.0f,%.0f r%.0f %@)", circle.x - centre.x, circle.y - centre.y,
                                    circle.radius, kept ? "kept" : "no")
                            }
                            // The circle fitted to the ring's inner edge, and whether its check passes.
                            var fitted = "fit none"
                            if let circle = locator.edgeFit.innerEdge(
                                near: (seedX, seedY), radius: seedRadius, in: frame.planes.y)
                            {
                                let kept = locator.fittedRing(
                                    near: (seedX, seedY), radius: seedRadius, planes: frame.planes) != nil
                                fitted = String(
                                    format: "fit (%.0f,%.0f r%.0f %@)", circle.x - centre.x, circle.y - centre.y,
                                    circle.radius, kept ? "kept" : "no")
                            }
                            detail += " seed#\(rank) r\(2 * seed.radius) red\(seed.redness): "
                                + circles.joined(separator: " ") + " " + fitted
                        }
                        // The shape search's seeds near the sign (rank among all its seeds), and which confirmation
                        // its circle passes: as is, fitted edge, resized.
                        // Chroma sample i is centred on luma 2i + 1.
                        func luma(_ seed: RadialSymmetrySearch.Seed) -> (x: Double, y: Double, radius: Double) {
                            (2 * seed.x + 1, 2 * seed.y + 1, Double(2 * seed.radius))
                        }
                        for (rank, seed) in locator.symmetrySearch.seeds.enumerated() {
                            let (seedX, seedY, seedRadius) = luma(seed)
                            guard hypot(seedX - centre.x, seedY - centre.y) <= 0.35 * radius else { continue }
                            let circle = CircleFinder.Circle(x: seedX, y: seedY, radius: seedRadius)
                            let asIs = locator.insideCheck.ring(around: circle, in: frame.planes) != nil
                            let fitted = locator.fittedRing(
                                near: (seedX, seedY), radius: seedRadius, planes: frame.planes) != nil
                            let resized = locator.resizedRing(around: circle, planes: frame.planes) != nil
                            detail += String(
                                format: " shape#%d (%.0f,%.0f r%.0f s%.2f) inside %@ fit %@ resized %@", rank,
                                seedX - centre.x, seedY - centre.y, seedRadius, seed.score, yesNo(asIs),
                                yesNo(fitted), yesNo(resized))
                        }
                        if locator.symmetrySearch.seeds.isEmpty { detail += " no shape seeds" }
                        if Self.listsAllShapeSeeds {
                            detail += " all shape seeds:" + locator.symmetrySearch.seeds.map { seed in
                                let (seedX, seedY, seedRadius) = luma(seed)
                                return String(
                                    format: " (%.0f,%.0f r%.0f s%.2f)", seedX - centre.x, seedY - centre.y, seedRadius,
                                    seed.score)
                            }.joined()
                        }
                        print("\(clip.name)#\(frame.frameIndex) \(Int(truth.width)) px: \(key)\(detail)")
                    }
                }
            }
        }
        print("locator settings: \(ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("STREAMLENS_LOCATOR_") }.sorted { $0.key < $1.key })")
        print(located.sorted { $0.key < $1.key }.map { "located \($0.key): \($0.value.hit)/\($0.value.all)" }
            .joined(separator: ", "))
        print("located as faint: \(faintHits)")
        print("contrast seeds: near \(seededSigns) sign frames, \(seedsWithoutSign) in frames without a sign")
        print(
            "without a speed sign: \(candidatesWithoutSign) candidates (\(faintWithoutSign) faint) in \(framesWithoutSign) frames, at most \(busiestFrame) in one")
        print("candidates without a speed sign by clip kind: \(candidatesByKind.sorted { $0.key < $1.key })")
        let perFrame = timedFrames > 0 ? elapsed / timedFrames : .zero
        print("locator per 1080p frame: \(perFrame) over \(timedFrames) frames (this build)")
        if ProcessInfo.processInfo.environment["STREAMLENS_LOCATOR_LIST_MISSED"] == "1" {
            print("missed: \(missed.joined(separator: " "))")
        }
    }
}
