/// Finds where a round sign may be from its own contrast, not from the scene's: a ring that is redder and darker than
/// the disc it encloses.
///
/// Real photographs often carry a colour cast: under a bluish cast a maroon ring is no redder than the street around
/// it (V − 128 ≈ 0, measured on the second real-photo set's never-located signs: ring − outside −2.3 V levels) and so
/// never enters the red mask — yet it stays clearly redder than the sign's own bluish-white inside (+10) and darker
/// than it (luma −12). This search looks for exactly that, at chroma resolution and with box means from summed-area
/// tables, so a 1080p frame costs a few hundred thousand box lookups:
/// - at each ring radius of ``radii`` (chroma samples) and each grid position about `radius / 4` apart, a square
///   band around the ring must be a little redder than the inside (±0.55 radii; two box sums: most positions end
///   here); then the inside's mean V and luma are compared with eight small boxes on the ring (0.87 radii, every 45°);
/// - a position is a seed when at least ``minimumRedBoxes`` of the eight are ``minimumBoxRedness`` redder than the
///   inside and at most ``maximumBoxBrightening`` brighter than its mean, and the ring as a whole is
///   ``minimumRedness`` redder than the inside;
/// - of concentric seeds the smallest ring is kept, of other overlapping ones the redder; the ``maximumSeeds``
///   strongest are kept.
/// Seeds are only places to look: the locator confirms each with a luma circle and ``InsideRelativeRingCheck``.
///
/// ## Thread Safety
/// Not synchronized: keeps its seed list between calls. One search per locator.
struct RingContrastSearch {
    /// A place where a ring may be, in chroma samples.
    struct Seed: Equatable {
        var x: Int
        var y: Int
        var radius: Int
        /// Mean ring − inside V contrast: the ranking.
        var redness: Int
    }

    /// Ring outer radii searched, in chroma samples (8 = a 32 px sign in luma), about 4/3 apart.
    var radii = [8, 11, 14, 19, 25, 34, 45, 60, 80]
    /// Smallest mean V contrast, ring − inside. 4, not 5: greyish rings around greyish insides measure 4–6
    /// on the second real-photo set; 722 instead of 702 of its 1141 sign frames located, 5 % more seeds on sign-free
    /// frames and no more candidates there. 3 seeded more weak places than signs (the strongest 16 are kept).
    var minimumRedness = 4
    /// Smallest V contrast for one ring box to count as red.
    var minimumBoxRedness = 2
    /// Ring boxes (of eight) that must be red and not much brighter than the inside.
    var minimumRedBoxes = 6
    /// How much brighter (luma) than the inside's mean a ring box may be and still count. The mean includes the
    /// digits: large bold ones on a grey inside (the second real-photo set) make it darker than the ring, though
    /// the inside's white is brighter (``InsideRelativeRingCheck`` compares the ring with that white). 0 — not
    /// brighter — seeded such signs in 268 of 1141 sign frames, 20 in 340; a pink ring around a dark hole
    /// is still far brighter.
    var maximumBoxBrightening = 20
    /// Seeds kept per frame, strongest first (4 → 8: a street has many faintly red places that outrank a sign; 8 → 16
    /// once seeds beyond the locator's Hough budget could be confirmed by ``RingEdgeFit``).
    var maximumSeeds = 16

    /// Whether the band test runs on eight positions at once where it can (the same seeds either way; off only to
    /// test that).
    var testsEightPositionsAtOnce = true

    /// Seeds of the last ``search(v:luma:)``, strongest first.
    private(set) var seeds: [Seed] = []
    /// Grid size of the last search (seeds of another size of frame mean nothing).
    private(set) var frameSize = (width: 0, height: 0)
    /// The seeds ``searchAround(v:luma:)`` searches around: the last seeds, swapped in (the two arrays keep their
    /// storage between frames).
    private var previousSeeds: [Seed] = []
    /// The eight ring boxes' directions, straight ones first.
    private static let directions: [(x: Int, y: Int)] = [
        (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1),
    ]
    /// The ring boxes of the radius being searched (eight, kept between radii and frames).
    private var ringBoxes: [BoxCorners] = []

    /// Corner offsets of a box in a summed-area table, relative to the table index of the box's centre sample.
    private struct BoxCorners {
        var topLeft: Int
        var topRight: Int
        var bottomLeft: Int
        var bottomRight: Int

        /// The box of samples `dx − half … dx + half`, `dy − half … dy + half` around the centre.
        init(dx: Int, dy: Int, half: Int, stride: Int) {
            let top = (dy - half) * stride
            let bottom = (dy + half + 1) * stride
            topLeft = top + dx - half
            topRight = top + dx + half + 1
            bottomLeft = bottom + dx - half
            bottomRight = bottom + dx + half + 1
        }

        @inline(__always)
        func sum(_ table: UnsafePointer<Int32>, at centre: Int) -> Int {
            // Wrapping: 32-bit table entries, four of them, cannot overflow an Int.
            Int(table[centre &+ bottomRight]) &- Int(table[centre &+ topRight]) &- Int(table[centre &+ bottomLeft])
                &+ Int(table[centre &+ topLeft])
        }

        /// The sums of the boxes at `centre`, `centre` + 2, … `centre` + 14 (the 32-bit wrapping sums of a box
        /// within one table are exact). Reads one entry past the last box's corners: still inside the table for
        /// boxes of a position a radius from the grid's edges.
        @inline(__always)
        func evenSums(_ table: UnsafePointer<Int32>, at centre: Int) -> SIMD8<Int32> {
            func row(_ offset: Int) -> SIMD16<Int32> {
                UnsafeRawPointer(table + (centre &+ offset)).loadUnaligned(as: SIMD16<Int32>.self)
            }
            return (row(bottomRight) &- row(topRight) &- row(bottomLeft) &+ row(topLeft)).evenHalf
        }
    }

    /// Searches the summed V − 128 (`v`) and the luma sampled at chroma resolution (`luma`) of one frame (both
    /// tables of the same grid).
    ///
    /// Box means are compared as cross-multiplied sums (no division per position): every box of a position lies
    /// inside the grid because centres stay a radius away from its edges.
    mutating func search(v: SummedArea, luma: SummedArea) {
        seeds.removeAll(keepingCapacity: true)
        precondition(v.width == luma.width && v.height == luma.height, "tables of different grids")
        let width = v.width
        let height = v.height
        frameSize = (width, height)
        v.withUnsafeSums { vTable, stride in
            luma.withUnsafeSums { lumaTable, _ in
                for radius in radii where 2 * radius + 2 <= min(width, height) {
                    search(
                        radius: radius, columns: radius..<(width - radius), rows: radius..<(height - radius),
                        stride: stride, v: vTable, luma: lumaTable)
                }
            }
        }
    }

    /// Searches again only around the last search's seeds, in a new frame of the same size: positions within 1.5
    /// seed radii of it (one radius: 9 fewer of 1141 real sign frames located), radii from ``nearbyRadii`` of its own. A sign moves and grows between analyses (drifting
    /// outwards as the car approaches: often more than the third of a radius within which the luma circle is sought
    /// around an old seed), and this follows it for a few per cent of a whole search. New places are found by the next
    /// whole search.
    mutating func searchAround(v: SummedArea, luma: SummedArea) {
        precondition(v.width == luma.width && v.height == luma.height, "tables of different grids")
        let width = v.width
        let height = v.height
        guard frameSize == (width, height) else {
            search(v: v, luma: luma)
            return
        }
        swap(&previousSeeds, &seeds)
        seeds.removeAll(keepingCapacity: true)
        v.withUnsafeSums { vTable, stride in
            luma.withUnsafeSums { lumaTable, _ in
                for seed in previousSeeds {
                    for radius in radii where Double(radius) >= Self.nearbyRadii.lowerBound * Double(seed.radius)
                        && Double(radius) <= Self.nearbyRadii.upperBound * Double(seed.radius)
                        && 2 * radius + 2 <= min(width, height)
                    {
                        let reach = seed.radius * 3 / 2
                        let columns = max(radius, seed.x - reach)..<min(width - radius, seed.x + reach + 1)
                        let rows = max(radius, seed.y - reach)..<min(height - radius, seed.y + reach + 1)
                        guard !columns.isEmpty, !rows.isEmpty else { continue }
                        search(radius: radius, columns: columns, rows: rows, stride: stride, v: vTable, luma: lumaTable)
                    }
                }
            }
        }
    }

    /// Radii searched around an old seed, as shares of its radius: one step of ``radii`` down (a sign leaving the
    /// search's box) and up (a sign growing as it approaches).
    static let nearbyRadii = 0.7...1.45

    /// Searches ring radius `radius` at grid positions in `columns` × `rows` (centres at least `radius` from the
    /// grid's edges).
    private mutating func search(
        radius: Int, columns: Range<Int>, rows: Range<Int>, stride: Int, v: UnsafePointer<Int32>,
        luma: UnsafePointer<Int32>
    ) {
        let step = max(1, radius / 4)
        let innerHalf = max(1, radius * 55 / 100)
        let boxHalf = max(1, radius / 10)
        let straight = radius * 87 / 100
        let diagonal = radius * 62 / 100
        let inside = BoxCorners(dx: 0, dy: 0, half: innerHalf, stride: stride)
        // The eight ring boxes, straight ones first (most positions that pass the band test fail on them).
        ringBoxes.removeAll(keepingCapacity: true)
        for direction in Self.directions {
            let reach = direction.x == 0 || direction.y == 0 ? straight : diagonal
            ringBoxes.append(
                BoxCorners(dx: direction.x * reach, dy: direction.y * reach, half: boxHalf, stride: stride))
        }
        let boxCount = ringBoxes.count
        // The band test: the square band between the ring boxes' inner and outer edges (the ring plus the scene in its
        // corners) must be a little redder than the inside, or no ring box will be. Two box sums reject most positions.
        let bandOuter = BoxCorners(dx: 0, dy: 0, half: straight + boxHalf, stride: stride)
        let bandInnerHalf = max(innerHalf, straight - boxHalf - 1)
        let bandInner = BoxCorners(dx: 0, dy: 0, half: bandInnerHalf, stride: stride)
        let bandArea = (2 * (straight + boxHalf) + 1) * (2 * (straight + boxHalf) + 1)
            - (2 * bandInnerHalf + 1) * (2 * bandInnerHalf + 1)
        let insideArea = (2 * innerHalf + 1) * (2 * innerHalf + 1)
        let boxArea = (2 * boxHalf + 1) * (2 * boxHalf + 1)
        // mean(box) − mean(inside) ≥ m  ⇔  sum(box)·insideArea − sum(inside)·boxArea ≥ m·insideArea·boxArea.
        let boxRednessBar = minimumBoxRedness * insideArea * boxArea
        // A third of the ring's redness: the band's corners are scene.
        let bandRednessBar = minimumRedness * insideArea * bandArea / 3
        let boxBrighteningBar = maximumBoxBrightening * insideArea * boxArea
        let allowedMisses = boxCount - minimumRedBoxes
        let boxes = ringBoxes
        // Every other position at once where positions are 2 apart (radii 8 and 11: two thirds of a whole search's
        // positions) and the band test's products fit in 32 bits: the table's rows are read 16 entries at a time and
        // the even ones kept.
        let vectorised = testsEightPositionsAtOnce && step == 2 && 256 * bandArea * insideArea < Int(Int32.max)
        let vectorBar = SIMD8<Int32>(repeating: Int32(clamping: bandRednessBar))
        boxes.withUnsafeBufferPointer { boxes in
            /// The ring boxes' test at a position whose band passed.
            func checkRing(x: Int, y: Int, centre: Int, insideV: Int) {
                var insideLuma: Int?
                var misses = 0
                var ringV = 0
                for box in boxes {
                    let boxV = box.sum(v, at: centre)
                    ringV += boxV
                    var ringLike = false
                    if boxV * insideArea - insideV * boxArea >= boxRednessBar {
                        let insideSum = insideLuma ?? inside.sum(luma, at: centre)
                        insideLuma = insideSum
                        let boxLuma = box.sum(luma, at: centre)
                        // Not much brighter than the inside: mean(box) ≤ mean(inside) + maximumBoxBrightening.
                        if boxLuma * insideArea <= insideSum * boxArea + boxBrighteningBar { ringLike = true }
                    }
                    if !ringLike {
                        misses += 1
                        if misses > allowedMisses { break }
                    }
                }
                guard misses <= allowedMisses else { return }
                // The mean V over the eight ring boxes against the inside's.
                let redness = (ringV * insideArea - boxCount * insideV * boxArea) / (boxCount * insideArea * boxArea)
                guard redness >= minimumRedness else { return }
                keep(Seed(x: x, y: y, radius: radius, redness: redness))
            }
            var y = rows.lowerBound
            while y < rows.upperBound {
                var x = columns.lowerBound
                if vectorised {
                    let insideArea32 = SIMD8<Int32>(repeating: Int32(insideArea))
                    let bandArea32 = SIMD8<Int32>(repeating: Int32(bandArea))
                    while x + 14 < columns.upperBound {
                        let centre = y &* stride &+ x
                        let insideV = inside.evenSums(v, at: centre)
                        let bandV = bandOuter.evenSums(v, at: centre) &- bandInner.evenSums(v, at: centre)
                        let passes = bandV &* insideArea32 &- insideV &* bandArea32 .>= vectorBar
                        if any(passes) {
                            for lane in 0..<8 where passes[lane] {
                                checkRing(
                                    x: x + 2 * lane, y: y, centre: centre + 2 * lane, insideV: Int(insideV[lane]))
                            }
                        }
                        x += 16
                    }
                }
                while x < columns.upperBound {
                    defer { x += step }
                    // Box corners are offsets from the table index y · stride + x.
                    let centre = y &* stride &+ x
                    let insideV = inside.sum(v, at: centre)
                    let bandV = bandOuter.sum(v, at: centre) &- bandInner.sum(v, at: centre)
                    // Sums of at most 2^31 times areas of a few thousand samples: no overflow, no check needed.
                    guard bandV &* insideArea &- insideV &* bandArea >= bandRednessBar else { continue }
                    checkRing(x: x, y: y, centre: centre, insideV: insideV)
                }
                y += step
            }
        }
    }

    /// Adds `seed` unless an overlapping seed beats it; removes the seeds it beats; keeps the strongest few. Of two
    /// concentric seeds the smaller ring wins, because a bluish-white disc on a warm street is also "inside" a larger
    /// circle whose "ring" is the street (often redder than the sign's own ring); otherwise the redder wins (a seed
    /// off-centre on the sign, between its digits — neutral, so "redder" than a bluish white — and its ring, is weaker
    /// than the sign's own).
    private mutating func keep(_ seed: Seed) {
        var index = 0
        while index < seeds.count {
            let other = seeds[index]
            let dx = other.x - seed.x
            let dy = other.y - seed.y
            let reach = max(other.radius, seed.radius)
            if dx * dx + dy * dy < reach * reach {
                // Concentric: the same disc seen through rings of two sizes.
                let concentric = dx * dx + dy * dy <= reach * reach / 16
                let otherWins = concentric && other.radius != seed.radius
                    ? other.radius < seed.radius : other.redness >= seed.redness
                if otherWins { return }
                seeds.remove(at: index)
            } else {
                index += 1
            }
        }
        let position = seeds.firstIndex { $0.redness < seed.redness } ?? seeds.count
        guard position < maximumSeeds else { return }
        seeds.insert(seed, at: position)
        if seeds.count > maximumSeeds { seeds.removeLast() }
    }
}
