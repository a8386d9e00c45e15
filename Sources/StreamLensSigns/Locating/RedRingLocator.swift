import Foundation
import StreamLensCore

/// Finds red rings (round European speed-limit signs) in a frame's native chroma planes.
///
/// Works at chroma resolution on V and U only, so it needs no colour conversion and touches a quarter of the pixels:
/// 1. Red mask: a chroma sample is red when its hue is red rather than orange, yellow or magenta
///    (|U − 128| ≤ (V − 128) / 2) and either V − 128 ≥ ``minimumRedness`` (red on its own) or V − 128 ≥
///    ``minimumFaintRedness`` and V is ``minimumLocalRedness`` above the scene's mean V around it (a dark, backlit or
///    weathered ring: real rings are often only V − 128 = +2…+6).
/// 2. Regions of the mask are labelled with a small gap tolerance so rings broken by shadows stay whole.
/// 3. The ring's geometry comes from its hole: the largest not-red area the region encloses (not reachable from the
///    region's box border through samples a sample away from red, so one-sample gaps in the ring do not leak). The hole gives the centre and the
///    inner radii even when something red behind the sign (a brake light) is joined to the ring; the ring's
///    thickness, measured along rays, gives the outer radii. A region without a closed hole falls back to its
///    bounding box.
/// 4. It is a ring when rays from the centre meet red just outside the hole in most directions
///    (``minimumRingCoverage``) and the middle is not red (filled discs and no-entry signs fail here).
///
/// 5. A ring made mostly of faintly red samples is kept only when its shape shows in luma too: a circle
///    (``CircleFinder``, OpenCV's Hough transform on the patch around it) centred on it, and a ring redder than its
///    inside and the scene around that circle (``CircleRingCheck``). Such candidates are marked
///    ``RingCandidate/isFaint`` and their reads must be surer.
/// 6. Rings that never enter the red mask because a colour cast makes them no redder than the scene, though still
///    redder and darker than their own inside, are sought by ``RingContrastSearch`` and confirmed the same way
///    (a luma circle on the seed, ``InsideRelativeRingCheck``), or by a circle fitted to the ring's inner edge
///    (``RingEdgeFit``) where Hough's circles are off; they are faint candidates too. A seed rejected on the frame
///    before, at the same place over the same picture, is not confirmed again (``RejectedSeedMemory``).
///
/// 7. Rings no colour search proposes (greyish rings around greyish insides, dark signs against the sky, red rings
///    that shadows break into pieces) are sought by their luma edges alone (``RadialSymmetrySearch``) and confirmed
///    like the contrast seeds, or at a few sizes around the seed's (dark signs whose seed's radius is off).
///
/// Whether the inside is a bright disc with dark digits is checked later, on luma, by ``DigitCropper``.
///
/// ## Thread Safety
/// Not synchronized: keeps scratch buffers between calls. Use one locator per analysis thread.
struct RedRingLocator {
    /// Smallest V − 128 that counts as red on its own (chroma samples average the ring with its surroundings on small
    /// signs).
    var minimumRedness = 12
    /// Dark, backlit and weathered rings are only faintly red: a sample this red (V − 128, red hue) also counts when
    /// it is ``minimumLocalRedness`` redder than the scene around it (the mean V over ``localWindowRadius`` samples).
    var minimumFaintRedness = 3
    var minimumLocalRedness = 3
    /// Half-size of the window for the scene's mean V, in chroma samples: wider than a ring near the camera.
    var localWindowRadius = 24
    /// Smallest ring diameter in luma pixels.
    var minimumDiameter = 18.0
    /// Largest ring diameter as a share of the frame height.
    var maximumDiameterShare = 0.9
    /// Share of directions in which the ring must be red.
    var minimumRingCoverage = 0.75
    /// Largest share of red samples allowed in the middle of the ring.
    var maximumCentreRedness = 0.15
    /// At most this many candidates per frame (the largest first) go on to OCR.
    var maximumCandidates = 6
    /// Luma circle evidence and the relative-red ring test that confirm faintly red candidates.
    var circleFinder = CircleFinder()
    var circleCheck = CircleRingCheck()
    /// Rings redder and darker than their own inside though not redder than the scene (a colour cast), found without
    /// the red mask; at most ``maximumContrastChecks`` of its seeds per frame are checked for a luma circle (6, not
    /// 3: with the search's looser brightness test the sign is often not among the first three seeds).
    var contrastSearch = RingContrastSearch()
    var maximumContrastChecks = 6
    /// Contrast seeds rejected on the last analysed frame that are at the same place over the same picture are
    /// passed over (``RejectedSeedMemory``): a fixed camera's reddish places are not confirmed again every frame.
    var remembersRejectedSeeds = true
    private var rejectedSeeds = RejectedSeedMemory()
    /// Contrast seeds passed over so far because ``RejectedSeedMemory`` had them.
    private(set) var seedsPassedOver = 0
    /// How far (luma pixels) a seeded circle that fails ``insideCheck`` is moved, in eight directions, to try again.
    /// OpenCV's Hough centre on a dark, soft ring is often a pixel or two off, and the inside check's bands are only
    /// a fifth of the radius wide: off by two on a 20 px ring, one side samples the disc instead of the ring. 0: off.
    var seededCircleNudge = 2.0
    /// The check a nudged circle must pass: ``insideCheck`` with the ring in all 16 directions, not 14. Eight more
    /// tries are eight more chances for street clutter: with 14 of 16 the second real-photo set located 652 of 1141
    /// sign frames instead of 596 but sent 348 candidates from sign-free frames instead of 201, and a generated street
    /// gained a ring that pulled a sign's track away; with 16 of 16, 620 and 208.
    var nudgedCheck = InsideRelativeRingCheck(minimumDirectionShare: 1.0)
    /// The contrast search runs over the whole frame on one frame in this many; the frames between search only
    /// around the last seeds (``RingContrastSearch/searchAround(v:luma:)``), following a sign that moved or grew.
    /// 2 halves the search's cost (the whole dashcam job: 5 % of its CPU every frame).
    var contrastSearchInterval = 2
    private var framesSinceContrastSearch = Int.max
    /// A seed whose Hough circles all fail, nudged or not, gets a circle fitted to its ring's inner edge
    /// (``RingEdgeFit``), judged by ``fittedCheck``. On the second real-photo set: 620 → 702 of 1141 sign frames
    /// located, 208 → 218 candidates from frames without a speed sign.
    var fitsRingEdges = true
    /// Seeds beyond ``maximumContrastChecks`` (no Hough transform left for them) still get the fit, which costs a few
    /// hundred luma samples, not a transform: with 16 seeds instead of 8 most of the fit's gain.
    var fitsBeyondChecks = true
    /// ``insideCheck`` with the ring in 15 of 16 directions: 14 of 16 located 7 frames more for 13 more sign-free
    /// candidates; 16 of 16, 16 fewer for 3 fewer.
    var fittedCheck = InsideRelativeRingCheck(minimumDirectionShare: 15.0 / 16)
    var edgeFit = RingEdgeFit()
    /// Inner-to-outer radius shares of the ring tried on a fitted edge: a sign's 0.78, then a thinner ring.
    var fittedRingShares = [0.78, 0.88]
    var insideCheck = InsideRelativeRingCheck()
    /// Round things found by luma edges alone, whatever their colour (``RadialSymmetrySearch``).
    var symmetrySearch = RadialSymmetrySearch()
    /// Seeds of ``symmetrySearch`` confirmed per frame, highest first; 0 turns the search off.
    var maximumSymmetryChecks = 16
    /// The shape search looks at the whole frame every this many analysed frames, and only around its last seeds and
    /// the last rings between (``RadialSymmetrySearch/searchAround(luma:alsoAround:)``): 1 searches the whole of
    /// every frame.
    var symmetrySearchInterval = 3
    private var framesSinceSymmetrySearch = Int.max
    /// The last frame's rings as places for the shape search to search around between whole searches: each ring's
    /// outer and inner edge, in chroma samples (kept between frames).
    private var lastRingPlaces: [RadialSymmetrySearch.Seed] = []
    /// A shape seed's radius is the distance its edges voted from, one of the search's few radii, and often the
    /// ring's other edge: on GTSDB's dark signs (maroon rings round grey insides) the seed sat on the sign, centred
    /// within 2–4 px, with a radius 20–30 % off, so the inside check's bands missed the ring. When the seed's own
    /// circle and the fitted edge both fail, its circle is tried at these shares of its radius, nearest first.
    var seedRadiusShares = [0.9, 1.1, 0.8, 1.2, 0.7]
    /// The check a resized seed's circle must pass: ``insideCheck`` with a ring only 3 V levels redder than its
    /// inside, not 4 — the dark rings' own contrast (2.5–4 at their true circle) — and an even band whichever edge
    /// the circle is taken for: a circle a little larger than a car's bluish window in a dark red body makes a band
    /// half pane, half body, that "ends" in body. It judges only circles of seeds that are round in luma, where both
    /// colour searches found nothing.
    var resizedSeedCheck = InsideRelativeRingCheck(minimumRedness: 3, requiresEvenBand: true)

    /// The red mask of the last frame (``buildRedMask(planes:width:height:)``): 0, 1 (faintly red, redder than the
    /// scene) or 2 (red on its own), row-major at chroma resolution.
    var mask: [UInt8] = []
    /// V − 128 summed, for the scene's local mean redness and the contrast search.
    var vSums = SummedArea()
    /// Luma at chroma resolution, summed, for the contrast search.
    private var lumaSums = SummedArea()
    var holeVisited: [UInt8] = []
    /// Fill queue of ``hole(in:width:height:)``: every sample of a component's box enters it at most once, so it
    /// grows to the largest box filled (not the plane).
    var holeQueue: [Int32] = []
    /// Only the red regions' extents are read, not which pixel belongs to which.
    private var labeler = ComponentLabeler(keepsLabels: false)
    var thicknesses: [Double] = []
    /// Candidates of the last ``locate(in:)``, largest first.
    private(set) var candidates: [RingCandidate] = []

    /// Finds the rings in `planes` and stores them in ``candidates``.
    mutating func locate(in planes: YUVPlanes) {
        candidates.removeAll(keepingCapacity: true)
        let width = planes.v.width
        let height = planes.v.height
        guard width > 4, height > 4 else { return }
        buildRedMask(planes: planes, width: width, height: height)
        let minimumChromaDiameter = minimumDiameter / 2
        mask.withUnsafeBufferPointer { mask in
            labeler.label(
                mask: mask, width: width, height: height, gapTolerance: 1,
                minimumPixels: Int(minimumChromaDiameter * 1.5))
        }
        let maximumChromaDiameter = Double(height) * maximumDiameterShare
        for component in labeler.components {
            let chromaWidth = Double(component.width)
            let chromaHeight = Double(component.height)
            guard max(chromaWidth, chromaHeight) >= minimumChromaDiameter,
                min(chromaWidth, chromaHeight) >= minimumChromaDiameter * 0.6
            else { continue }
            guard let ring = geometry(of: component, width: width, height: height),
                2 * max(ring.outerX, ring.outerY) >= minimumChromaDiameter,
                2 * max(ring.outerX, ring.outerY) <= maximumChromaDiameter,
                ring.outerX / ring.outerY > 0.55, ring.outerX / ring.outerY < 1.8,
                let coverage = ringCoverage(of: ring, width: width, height: height)
            else {
                // Red too broken or too merged to trace a ring: the shape search (step 7) finds such rings by their
                // luma edges. A Hough circle searched in a patch around the first three such regions found, with the shape
                // search, 1 more of the second real set's 1141 sign frames and sent 36 more candidates from its
                // distractor clips.
                continue
            }
            // Chroma sample i covers luma pixels 2i and 2i + 1: its centre is luma 2i + 1.
            let candidate = RingCandidate(
                centerX: 2 * ring.centerX + 1, centerY: 2 * ring.centerY + 1,
                radiusX: 2 * ring.outerX, radiusY: 2 * ring.outerY,
                innerRadiusX: 2 * ring.innerX, innerRadiusY: 2 * ring.innerY, ringCoverage: coverage)
            if strongShare(of: component, width: width) >= 0.5 {
                candidates.append(candidate)
            } else if let confirmed = confirmedByShape(candidate, planes: planes) {
                // Only faintly red: kept when luma shows a circle there and the ring is redder than inside and out.
                candidates.append(confirmed)
            }
        }
        if maximumContrastChecks > 0 || maximumSymmetryChecks > 0 {
            lumaSums.build(from: planes.y, width: width, height: height, step: 2)
        }
        if maximumContrastChecks > 0 { addRingsByContrast(planes: planes, width: width, height: height) }
        if maximumSymmetryChecks > 0 { addRingsBySymmetry(planes: planes) }
        // Largest (nearest) first: the tracker associates them in this order.
        candidates.sort { $0.diameter > $1.diameter }
        if candidates.count > maximumCandidates { candidates.removeLast(candidates.count - maximumCandidates) }
        lastRingPlaces.removeAll(keepingCapacity: true)
        for ring in candidates {
            // Chroma sample i is centred on luma 2i + 1.
            let x = (ring.centerX - 1) / 2
            let y = (ring.centerY - 1) / 2
            let outer = max(ring.radiusX, ring.radiusY) / 2
            let inner = max(ring.innerRadiusX, ring.innerRadiusY) / 2
            lastRingPlaces.append(.init(x: x, y: y, radius: max(1, Int(outer.rounded())), score: 0))
            lastRingPlaces.append(.init(x: x, y: y, radius: max(1, Int(inner.rounded())), score: 0))
        }
    }

    /// Rings no redder than the scene but redder and darker than their own inside (``RingContrastSearch``), each
    /// confirmed by a luma circle centred on its seed whose ring passes ``InsideRelativeRingCheck`` (or, moved by
    /// ``seededCircleNudge``, the stricter ``nudgedCheck``), else by the ring's fitted inner edge (``RingEdgeFit``,
    /// ``fittedCheck``). Only the first ``maximumContrastChecks`` seeds get a Hough transform.
    /// Seeds where a candidate already is are skipped.
    private mutating func addRingsByContrast(planes: YUVPlanes, width: Int, height: Int) {
        guard let circleFinder else { return }
        if framesSinceContrastSearch >= contrastSearchInterval - 1 || contrastSearch.frameSize != (width, height) {
            contrastSearch.search(v: vSums, luma: lumaSums)
            framesSinceContrastSearch = 0
        } else {
            contrastSearch.searchAround(v: vSums, luma: lumaSums)
            framesSinceContrastSearch += 1
        }
        var checksLeft = maximumContrastChecks
        rejectedSeeds.beginFrame()
        for seed in contrastSearch.seeds where checksLeft > 0 || fitsBeyondChecks {
            // Chroma sample i is centred on luma 2i + 1.
            let centerX = Double(2 * seed.x + 1)
            let centerY = Double(2 * seed.y + 1)
            let radius = Double(2 * seed.radius)
            if hasCandidate(near: (centerX, centerY), radius: radius) { continue }
            let look = RejectedSeedMemory.Look(x: seed.x, y: seed.y, radius: seed.radius, luma: lumaSums, v: vSums)
            if remembersRejectedSeeds, rejectedSeeds.passesOver(x: seed.x, y: seed.y, radius: seed.radius, look: look) {
                // Rejected last frame over the same picture: it takes the check it would have failed, so the seeds
                // after it are checked exactly as they would have been.
                if checksLeft > 0 { checksLeft -= 1 }
                seedsPassedOver += 1
                continue
            }
            var found: RingCandidate?
            if checksLeft > 0 {
                checksLeft -= 1
                circleFinder.find(near: (centerX, centerY), radius: radius, in: planes.y, radiusRange: 0.6...1.3)
                var firstNearCircle: CircleFinder.Circle?
                for circle in circleFinder.circles.prefix(4) {
                    let dx = circle.x - centerX
                    let dy = circle.y - centerY
                    guard (dx * dx + dy * dy).squareRoot() <= 0.35 * radius else { continue }
                    if firstNearCircle == nil { firstNearCircle = circle }
                    if let ring = insideCheck.ring(around: circle, in: planes) {
                        found = ring
                        break
                    }
                }
                if found == nil, let circle = firstNearCircle {
                    found = nudgedRing(around: circle, planes: planes)
                }
            }
            if found == nil { found = fittedRing(near: (centerX, centerY), radius: radius, planes: planes) }
            if let found {
                candidates.append(found)
            } else {
                rejectedSeeds.rejected(x: seed.x, y: seed.y, radius: seed.radius, look: look)
            }
        }
    }

    /// Round things found by their luma edges alone (``RadialSymmetrySearch``): rings too grey or too dark for the
    /// colour searches. Each of the first ``maximumSymmetryChecks`` seeds not already a candidate is confirmed as the
    /// colour seeds are, without a Hough transform: the seed's circle through ``insideCheck`` (as either edge of the
    /// ring or its middle), else the ring's inner edge fitted around it (``fittedRing(near:radius:)``), else the seed's
    /// circle resized (``resizedRing(around:planes:)``).
    ///
    /// The search looks at the whole frame one analysed frame in ``symmetrySearchInterval`` and searches windows
    /// around its last seeds and the last rings between (a search, not a re-check of old seeds, which
    /// located 783 instead of 897 of the second real set's 1141 sign frames: a sign moves and grows between analysed
    /// frames more than a confirmation around an old seed follows). The same signs are read on the real sets, for
    /// 30–40 % of the reader's CPU.
    private mutating func addRingsBySymmetry(planes: YUVPlanes) {
        if framesSinceSymmetrySearch >= symmetrySearchInterval - 1 {
            symmetrySearch.search(luma: lumaSums)
            framesSinceSymmetrySearch = 0
        } else {
            symmetrySearch.searchAround(luma: lumaSums, alsoAround: lastRingPlaces)
            framesSinceSymmetrySearch += 1
        }
        for seed in symmetrySearch.seeds.prefix(maximumSymmetryChecks) {
            // Chroma sample i is centred on luma 2i + 1.
            let center = (x: 2 * seed.x + 1, y: 2 * seed.y + 1)
            let radius = Double(2 * seed.radius)
            if hasCandidate(near: center, radius: radius) { continue }
            let circle = CircleFinder.Circle(x: center.x, y: center.y, radius: radius)
            guard let ring = insideCheck.ring(around: circle, in: planes)
                ?? fittedRing(near: center, radius: radius, planes: planes)
                ?? resizedRing(around: circle, planes: planes)
            else { continue }
            // The sizes the red mask's rings must have: smaller is unreadable, larger is not a sign.
            guard ring.diameter >= minimumDiameter, ring.diameter <= Double(planes.y.height) * maximumDiameterShare
            else { continue }
            candidates.append(ring)
        }
    }

    /// The first of `circle`'s resized copies (``seedRadiusShares``) whose ring passes ``resizedSeedCheck``, or nil.
    mutating func resizedRing(around circle: CircleFinder.Circle, planes: YUVPlanes) -> RingCandidate? {
        for share in seedRadiusShares {
            var resized = circle
            resized.radius *= share
            if let ring = resizedSeedCheck.ring(around: resized, in: planes) { return ring }
        }
        return nil
    }

    /// Whether a candidate already covers a seed at `center` with `radius` (luma pixels): its centre is within the
    /// larger of the two radii.
    private func hasCandidate(near center: (x: Double, y: Double), radius: Double) -> Bool {
        candidates.contains {
            let dx = $0.centerX - center.x
            let dy = $0.centerY - center.y
            return (dx * dx + dy * dy).squareRoot() < max($0.radiusX, $0.radiusY, radius)
        }
    }

    /// The eight directions a circle is nudged in, straight ones first (a constant: no array per frame).
    private static let nudgeDirections: [(dx: Double, dy: Double)] = [
        (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1),
    ]

    /// The first of the eight circles ``seededCircleNudge`` away from `circle` whose ring passes ``nudgedCheck``, or
    /// nil (also when nudging is off).
    mutating func nudgedRing(around circle: CircleFinder.Circle, planes: YUVPlanes) -> RingCandidate? {
        guard seededCircleNudge > 0 else { return nil }
        for (dx, dy) in Self.nudgeDirections {
            var moved = circle
            moved.x += dx * seededCircleNudge
            moved.y += dy * seededCircleNudge
            if let ring = nudgedCheck.ring(around: moved, in: planes) { return ring }
        }
        return nil
    }

    /// The ring whose inner edge ``edgeFit`` finds around a seed of outer radius `radius` (luma pixels), judged by
    /// ``fittedCheck`` as the inner edge of a ring of each of ``fittedRingShares``; nil when there is none (also when
    /// fitting is off).
    mutating func fittedRing(near center: (x: Double, y: Double), radius: Double, planes: YUVPlanes) -> RingCandidate? {
        guard fitsRingEdges, let fitted = edgeFit.innerEdge(near: center, radius: radius, in: planes.y) else {
            return nil
        }
        for share in fittedRingShares {
            if let ring = fittedCheck.ring(around: fitted, in: planes, ringShare: share) { return ring }
        }
        return nil
    }

    /// A faintly red ring candidate checked by shape and colour: a luma circle (``CircleFinder``, on the patch around
    /// the candidate) centred within 0.3 radii of it, and around that circle a ring redder than its inside and the
    /// scene (``CircleRingCheck``). Nil when either is missing: faint redness alone is too common (brick, skin, rust,
    /// brake lights) to be sent to OCR.
    private mutating func confirmedByShape(_ candidate: RingCandidate, planes: YUVPlanes) -> RingCandidate? {
        guard let circleFinder else { return nil }
        let radius = max(candidate.radiusX, candidate.radiusY)
        circleFinder.find(near: (candidate.centerX, candidate.centerY), radius: radius, in: planes.y)
        var nearest: (circle: CircleFinder.Circle, distance: Double)?
        for circle in circleFinder.circles {
            let dx = circle.x - candidate.centerX
            let dy = circle.y - candidate.centerY
            let distance = (dx * dx + dy * dy).squareRoot()
            if distance <= 0.3 * radius, distance < nearest?.distance ?? .infinity { nearest = (circle, distance) }
        }
        guard let nearest else { return nil }
        let centred = CircleFinder.Circle(x: nearest.circle.x, y: nearest.circle.y, radius: radius)
        guard var ring = circleCheck.ring(around: centred, in: planes) else { return nil }
        ring.isFaint = true
        return ring
    }
}
