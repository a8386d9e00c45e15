import StreamLensCore

/// Finds white upright rectangles — US "SPEED LIMIT" signs (R2-1: a white plate about 0.8 as wide as high inside a
/// thin black border) — in a frame's native planes.
///
/// Works on a grid of luma samples with the chroma planes beside them (no colour conversion):
/// 1. Frames wider than ``fullResolutionMaximumWidth`` are searched at chroma resolution (luma averaged over each
///    2 × 2 block: a quarter of the pixels, and a 1080p sign's border is still a sample or two wide); smaller frames
///    at full resolution, where a blurred border would vanish in the averaging.
/// 2. Paper mask: a block is paper when its chroma is near neutral (white, grey in shade, slightly tinted by warm or
///    cool light) and its luma is ``minimumLocalBrightness`` above the scene's mean around it (a summed-area table
///    over ``localWindowRadius``): a plate is bright relative to its surroundings even when dim, and its own dark
///    letters keep the local mean below the paper even when the sign fills the window. Samples in a thin dark line
///    (``minimumValleyDepth``) are not paper, so the border separates the plate from a bright background even
///    when blur has washed it out.
/// 3. 4-connected regions of paper (``ComponentLabeler`` without diagonals) are the candidates. The black border cuts
///    the plate off from a bright sky behind it, so a plate is a region of its own: upright, ``aspectRange`` wide for
///    its height, its box mostly paper (letters leave holes, ``fillRange``), and — the rectangle test — paper spans
///    most of the width in most of its rows (``minimumRowSpan``): the margins beside the letters are paper, while
///    blobs, cars and windows narrow or break up. Thin strips of paper that leak out through a border broken by blur
///    are trimmed off the box first.
/// 4. A shadow across the plate leaves its shaded part too dark for paper: the plate's region stops at the shadow's
///    edge, and the box holds half a number. Each region is grown into shaded paper (near-neutral samples at least
///    ``shadedPaperShare`` of the region's paper level and not on a dark line) within half its size around it; the
///    border stops the growth as it stops paper. When the grown region passes the tests above and is larger, it is
///    the candidate; when it leaks out (a broken border, a grey scene) the region as it was is.
/// 5. A grey plate against a bright sky is no brighter than the scene around it, so none of it is paper by step 2.
///    Its black border still cuts it off: near-neutral samples off dark lines, however bright (``findsDimPlates``),
///    are labelled in a mask of their own, and a region that passes the plate tests with the border just outside at
///    least three sides of its box is a candidate too, unless it is one already. That mask covers most of a street
///    (road, walls, grey sky), so the whole frame is searched on one analysed frame in ``dimSearchInterval``, and the
///    frames between only around the plates found last.
///
/// Whether the lower part holds a number is checked later, on luma, by ``UsDigitCropper``.
///
/// ## Thread Safety
/// Not synchronized: keeps scratch buffers between calls. Use one locator per analysis thread.
struct UsSignLocator {
    /// Largest |U − 128| and |V − 128| of paper: white under warm or cool light drifts by up to about 25.
    var maximumChroma = 30
    /// How much brighter than the scene's local mean paper must be, in luma levels.
    var minimumLocalBrightness = 10
    /// A sample this much darker than the brightest sample within three on both sides (across or down) lies on a thin
    /// dark line — a border or a stroke — and is not paper: ``minimumValleyDepth`` levels, or ``relativeValleyDepth``
    /// of the sample's own level when more. Real photographs' paper is grainy (JPEG, sensor noise): at 12 levels
    /// alone, a bright plate's paper was "valley" on most of its samples and 29 of 50 missed plates of the real US set
    /// were never located.
    var minimumValleyDepth = 12
    var relativeValleyDepth = 0.15
    /// Darkest paper: below this even a white plate carries no readable contrast.
    var minimumPaperLuma = 70
    /// Half-size of the window for the scene's mean luma, in chroma samples (twice that in pixels at full resolution).
    var localWindowRadius = 12
    /// Smallest plate height in luma pixels (a 24 px sign has a plate about 22 px high).
    var minimumPlateHeight = 20.0
    /// Largest plate height as a share of the frame height.
    var maximumPlateHeightShare = 0.9
    /// Plate width over height: 0.8 upright, up to about 0.9 when tilted, down to 0.44 on the real US photographs of
    /// plates beside the road seen from a car at an angle (0.5 lost four of them).
    var aspectRange = 0.4...0.95
    /// Share of the plate's box that is paper: letters and numerals take about a quarter.
    var fillRange = 0.35...0.95
    /// Share of the component's samples beyond which each side of its box is trimmed (leaks through the border).
    var trimShare = 0.02
    /// The rectangle test: at least ``minimumSpanningRows`` of the middle rows hold paper across this share of the
    /// plate's width.
    var minimumRowSpan = 0.8
    var minimumSpanningRows = 0.8
    /// Frames up to this wide are searched at full luma resolution, wider ones at chroma resolution (2 × 2 means).
    var fullResolutionMaximumWidth = 960
    /// At most this many candidates per frame (the largest first) go on to OCR.
    var maximumCandidates = 6
    /// Shaded paper (step 4): a near-neutral sample at least this share of the region's paper level (the generated
    /// set's shadows keep 0.4–0.6 of the light), and never darker than ``minimumShadedPaperLuma``. 0 turns it off.
    var shadedPaperShare = 0.35
    var minimumShadedPaperLuma = 40
    /// A grown region replaces the region it grew from when it has this many more samples (less is the border's
    /// blur, not a shaded part).
    var minimumShadeGrowth = 0.1

    /// Step 5: plates no brighter than their surroundings, found by their border. Off: only step 2's paper.
    var findsDimPlates = true
    /// Sides of a dim plate's box with the border just outside (``borderedSides(of:width:height:)``).
    var minimumDimPlateBorderedSides = 3
    /// Step 5 searches the whole frame on one analysed frame in this many (on every one it added 16 % to a US run's
    /// CPU, on one in four nothing measurable); the frames between search half a plate's size around
    /// the dim plates found last.
    var dimSearchInterval = 4
    private var framesSinceDimSearch = Int.max
    private var dimSearchFrameSize = (width: 0, height: 0)
    /// Where the frames between whole-frame dim searches look, in samples: the last dim plates, widened.
    private var dimWindows: [MaskComponent] = []

    var luma: [UInt8] = []
    /// Per sample: the number of the growth that took it (``grow(_:label:paperLevel:planes:factor:width:height:)``),
    /// so nothing is cleared between growths.
    private var grownStamp: [Int32] = []
    private var stamp: Int32 = 0
    private var growthQueue: [Int32] = []
    var mask: [UInt8] = []
    /// Step 5's mask: near-neutral samples off dark lines whatever the scene's brightness around them (paper's
    /// superset), and its regions.
    private var dimMask: [UInt8] = []
    private var dimLabeler = ComponentLabeler()
    var lumaIntegral: [Int32] = []
    private var labeler = ComponentLabeler()
    private var columnCounts: [Int] = []
    private var rowCounts: [Int] = []
    /// Candidates of the last ``locate(in:)``, largest first.
    private(set) var candidates: [RectangularSignCandidate] = []

    /// Finds the plates in `planes` and stores them in ``candidates``.
    mutating func locate(in planes: YUVPlanes) {
        candidates.removeAll(keepingCapacity: true)
        // Small frames are searched at full resolution: there a sign's border is only a pixel or two wide.
        let factor = planes.width <= fullResolutionMaximumWidth ? 1 : 2
        let width = factor == 1 ? planes.width : planes.v.width
        let height = factor == 1 ? planes.height : planes.v.height
        guard width > 8, height > 8 else { return }
        buildPaperMask(planes: planes, width: width, height: height, factor: factor)
        let minimumHeight = minimumPlateHeight / Double(factor)
        mask.withUnsafeBufferPointer { mask in
            labeler.label(
                mask: mask, width: width, height: height, joinsDiagonals: false,
                minimumPixels: Int(minimumHeight * minimumHeight * aspectRange.lowerBound * fillRange.lowerBound))
        }
        let maximumHeight = Double(height) * maximumPlateHeightShare
        for (index, component) in labeler.components.enumerated() {
            guard Double(component.height) >= minimumHeight,
                Double(component.width) >= minimumHeight * aspectRange.lowerBound
            else { continue }
            let label = Int32(index + 1)
            let labels = labeler.labels
            var plate: MaskComponent?
            // Only a region that may be a plate's lit part is grown: compact, and from a quarter as wide as high (a
            // shadow across most of the plate) to twice (across its lower half). A street has a hundred other bright
            // regions per 1080p frame; growing them all cost more than the rest of the locator.
            if shadedPaperShare > 0, mayBeLitPart(component),
                let grown = grow(
                    component, label: label, paperLevel: paperLevel(of: component, width: width), planes: planes,
                    factor: factor, width: width, height: height),
                Double(grown.pixelCount) >= (1 + minimumShadeGrowth) * Double(component.pixelCount)
            {
                plate = passingPlate(
                    of: grown, minimumHeight: minimumHeight, maximumHeight: maximumHeight, width: width,
                    members: grownStamp, value: stamp)
            }
            if plate == nil {
                plate = passingPlate(
                    of: component, minimumHeight: minimumHeight, maximumHeight: maximumHeight, width: width,
                    members: labels, value: label)
            }
            // Two pieces of one plate (split by a shadow's edge) grow into the same region: one candidate.
            guard let plate else { continue }
            let plateBox = box(of: plate, factor: factor)
            guard !candidates.contains(where: { $0.plate == plateBox }) else { continue }
            candidates.append(
                RectangularSignCandidate(plate: plateBox, paperLevel: paperLevel(of: plate, width: width)))
        }
        if findsDimPlates {
            addDimPlates(
                planes: planes, minimumHeight: minimumHeight, maximumHeight: maximumHeight, factor: factor,
                width: width, height: height)
        }
        candidates.sort { $0.plate.height > $1.plate.height }
        if candidates.count > maximumCandidates { candidates.removeLast(candidates.count - maximumCandidates) }
    }

    /// Step 5: regions of near-neutral samples bounded by dark lines that pass the plate tests with the border outside
    /// at least ``minimumDimPlateBorderedSides`` sides, where no candidate is yet: over the whole frame, or on the
    /// frames between such searches around the last ones found.
    private mutating func addDimPlates(
        planes: YUVPlanes, minimumHeight: Double, maximumHeight: Double, factor: Int, width: Int, height: Int
    ) {
        let searchesWholeFrame =
            framesSinceDimSearch >= dimSearchInterval - 1 || dimSearchFrameSize != (width, height)
        framesSinceDimSearch = searchesWholeFrame ? 0 : framesSinceDimSearch + 1
        dimSearchFrameSize = (width, height)
        guard searchesWholeFrame || !dimWindows.isEmpty else { return }
        if dimMask.count < width * height { dimMask = [UInt8](repeating: 0, count: width * height) }
        if searchesWholeFrame {
            markDimPaper(
                in: MaskComponent(minX: 0, minY: 0, maxX: width - 1, maxY: height - 1, pixelCount: 0),
                planes: planes, factor: factor, width: width, height: height)
        } else {
            dimMask.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            for window in dimWindows {
                markDimPaper(in: window, planes: planes, factor: factor, width: width, height: height)
            }
        }
        dimWindows.removeAll(keepingCapacity: true)
        dimMask.withUnsafeBufferPointer { dimMask in
            dimLabeler.label(
                mask: dimMask, width: width, height: height, joinsDiagonals: false,
                minimumPixels: Int(minimumHeight * minimumHeight * aspectRange.lowerBound * fillRange.lowerBound))
        }
        let found = candidates.count
        for (index, component) in dimLabeler.components.enumerated() {
            // (A region's box before trimming may be a little wider than its plate: leaks through the border.)
            guard Double(component.height) >= minimumHeight, Double(component.height) <= maximumHeight,
                Double(component.width) >= minimumHeight * aspectRange.lowerBound,
                Double(component.width) <= Double(component.height) * aspectRange.upperBound * 1.2,
                let plate = passingPlate(
                    of: component, minimumHeight: minimumHeight, maximumHeight: maximumHeight, width: width,
                    members: dimLabeler.labels, value: Int32(index + 1)),
                borderedSides(of: plate, width: width, height: height) >= minimumDimPlateBorderedSides
            else { continue }
            let plateBox = box(of: plate, factor: factor)
            let candidate = RectangularSignCandidate(
                plate: plateBox, paperLevel: paperLevel(of: plate, width: width, in: dimMask))
            if let container = candidates.firstIndex(where: { $0.plate.contains(plateBox) }) {
                // The bright sky just around a grey plate is paper by step 2 (the plate darkens the local mean) and,
                // a frame with the plate as its hole, may pass the plate tests: the plate inside replaces it. Inside
                // a plate found already (a numeral's counter, paper between the border and the words) is no plate.
                guard container < found, brightPaperShare(in: plate, width: width) < Self.largestPaperShareInHaloHole
                else { continue }
                candidates[container] = candidate
            } else if !candidates.contains(where: { $0.plate.intersectionOverUnion(plateBox) >= 0.5 }) {
                candidates.append(candidate)
            } else {
                continue
            }
            let reach = plate.height / 2
            dimWindows.append(
                MaskComponent(
                    minX: max(0, plate.minX - reach), minY: max(0, plate.minY - reach),
                    maxX: min(width - 1, plate.maxX + reach), maxY: min(height - 1, plate.maxY + reach), pixelCount: 0))
        }
    }

    /// Step 5's mask inside `box` (samples): near-neutral, not darker than ``minimumPaperLuma``, not on a dark line —
    /// paper by step 2 but for the scene's brightness around it.
    private mutating func markDimPaper(in box: MaskComponent, planes: YUVPlanes, factor: Int, width: Int, height: Int) {
        let chromaLimit = maximumChroma
        let darkest = minimumPaperLuma
        let valleyDepth = minimumValleyDepth
        let valleyShare = relativeValleyDepth
        dimMask.withUnsafeMutableBufferPointer { dimMask in
            luma.withUnsafeBufferPointer { luma in
                for y in box.minY...box.maxY {
                    let vRow = planes.v.row(y * factor / 2)
                    let uRow = planes.u.row(y * factor / 2)
                    let vStep = planes.v.pixelStride
                    let uStep = planes.u.pixelStride
                    for x in box.minX...box.maxX {
                        let index = y * width + x
                        let chromaX = x * factor / 2
                        dimMask[index] =
                            Int(luma[index]) >= darkest
                                && Self.isNearNeutral(
                                    u: uRow[chromaX * uStep], v: vRow[chromaX * vStep], limit: chromaLimit)
                                && !Self.isOnDarkLine(
                                    luma, x: x, y: y, width: width, height: height, depth: valleyDepth,
                                    share: valleyShare)
                            ? 1 : 0
                    }
                }
            }
        }
    }

    /// Step 5: a candidate holding a dim plate is the bright frame around it when step 2's paper covers less than
    /// this share of the dim plate's box (its hole), not a plate whose part it is.
    private static let largestPaperShareInHaloHole = 0.25

    /// Share of `plate`'s box (samples) that is step 2's paper.
    private func brightPaperShare(in plate: MaskComponent, width: Int) -> Double {
        var count = 0
        for y in plate.minY...plate.maxY {
            for x in plate.minX...plate.maxX where mask[y * width + x] != 0 { count += 1 }
        }
        return Double(count) / Double(plate.width * plate.height)
    }

    /// Whether a region may be the lit part of a plate a shadow crosses
    /// (see ``grow(_:label:paperLevel:planes:factor:width:height:)``).
    private func mayBeLitPart(_ component: MaskComponent) -> Bool {
        4 * component.width >= component.height && component.width <= 2 * component.height
            && Double(component.pixelCount) >= fillRange.lowerBound * Double(component.width * component.height)
    }

    /// The plate's box in luma pixels: at half resolution sample i covers luma pixels 2i and 2i + 1.
    private func box(of plate: MaskComponent, factor: Int) -> BoundingBox {
        let scale = Double(factor)
        return BoundingBox(
            x: scale * Double(plate.minX), y: scale * Double(plate.minY), width: scale * Double(plate.width),
            height: scale * Double(plate.height))
    }

    /// The region's trimmed box when it passes the plate tests (size, aspect, fill, rows spanning it), or nil.
    /// The region's samples are those holding `value` in `members` (row-major): its label in the labeler's labels, or
    /// the growth's stamp.
    private mutating func passingPlate(
        of region: MaskComponent, minimumHeight: Double, maximumHeight: Double, width: Int, members: [Int32],
        value: Int32
    ) -> MaskComponent? {
        let plate = trimmedBounds(of: region, width: width, members: members, value: value)
        let plateWidth = Double(plate.width)
        let plateHeight = Double(plate.height)
        let paperShare =
            Double(count(in: plate, width: width, members: members, value: value)) / (plateWidth * plateHeight)
        guard plateHeight >= minimumHeight, plateHeight <= maximumHeight,
            aspectRange.contains(plateWidth / plateHeight),
            fillRange.contains(paperShare),
            rowsSpanThePlate(plate, of: region, width: width, members: members, value: value)
        else { return nil }
        return plate
    }

    /// The region labelled `label` grown into shaded paper (step 4) within half its size around it: its bounds and
    /// size, its samples stamped with ``stamp`` in ``grownStamp``; nil when nothing was added or it leaked out.
    private mutating func grow(
        _ component: MaskComponent, label: Int32, paperLevel: Double, planes: YUVPlanes, factor: Int, width: Int,
        height: Int
    ) -> MaskComponent? {
        if grownStamp.count < width * height {
            grownStamp = [Int32](repeating: 0, count: width * height)
            stamp = 0
        }
        stamp &+= 1
        if stamp <= 0 {
            grownStamp.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            stamp = 1
        }
        let reach = component.height / 2
        let minX = max(0, component.minX - reach)
        let maxX = min(width - 1, component.maxX + reach)
        let minY = max(0, component.minY - reach)
        let maxY = min(height - 1, component.maxY + reach)
        let darkest = max(minimumShadedPaperLuma, Int(shadedPaperShare * paperLevel))
        guard borderedSides(of: component, width: width, height: height) >= 2 else { return nil }
        var grown = component
        let stampNow = stamp
        // A lit part of a third of the plate grows three times over: more is a leak.
        let largestGrowth = 3 * component.pixelCount
        var leaked = false
        growthQueue.removeAll(keepingCapacity: true)
        let valleyDepth = minimumValleyDepth
        let valleyShare = relativeValleyDepth
        let chromaLimit = maximumChroma
        let luma = luma
        let mask = mask
        func isNeutral(_ x: Int, _ y: Int) -> Bool {
            let chromaX = x * factor / 2
            let chromaY = y * factor / 2
            return Self.isNearNeutral(u: planes.u[chromaX, chromaY], v: planes.v[chromaX, chromaY], limit: chromaLimit)
        }
        grownStamp.withUnsafeMutableBufferPointer { stamps in
            labeler.labels.withUnsafeBufferPointer { labels in
                luma.withUnsafeBufferPointer { luma in
                    for y in component.minY...component.maxY {
                        for x in component.minX...component.maxX where labels[y * width + x] == label {
                            stamps[y * width + x] = stampNow
                            growthQueue.append(Int32(y * width + x))
                        }
                    }
                    var next = 0
                    search: while next < growthQueue.count {
                        let index = Int(growthQueue[next])
                        next += 1
                        let x = index % width
                        let y = index / width
                        for direction in 0..<4 {
                            let nx = direction == 0 ? x - 1 : direction == 1 ? x + 1 : x
                            let ny = direction == 2 ? y - 1 : direction == 3 ? y + 1 : y
                            guard nx >= minX, nx <= maxX, ny >= minY, ny <= maxY else { continue }
                            let neighbour = ny * width + nx
                            guard stamps[neighbour] != stampNow else { continue }
                            // Paper of any region joins (the lit parts a shadow's edge split); shaded paper when bright
                            // enough and not on the border or a letter's stroke.
                            guard mask[neighbour] != 0
                                || (Int(luma[neighbour]) >= darkest && isNeutral(nx, ny)
                                    && !Self.isOnDarkLine(
                                        luma, x: nx, y: ny, width: width, height: height, depth: valleyDepth,
                                        share: valleyShare))
                            else { continue }
                            // Reaching the edge of the search box (not the frame's) is leaking out through a
                            // broken border or into a grey scene, not a shaded part: the box would pass for a plate
                            // only because it is a rectangle. So is growing far beyond the region's size. Either
                            // ends the search.
                            if nx == minX && minX > 0 || nx == maxX && maxX < width - 1 || ny == minY && minY > 0
                                || ny == maxY && maxY < height - 1 || growthQueue.count >= largestGrowth
                            {
                                leaked = true
                                break search
                            }
                            stamps[neighbour] = stampNow
                            growthQueue.append(Int32(neighbour))
                            grown.minX = min(grown.minX, nx)
                            grown.maxX = max(grown.maxX, nx)
                            grown.minY = min(grown.minY, ny)
                            grown.maxY = max(grown.maxY, ny)
                        }
                    }
                }
            }
        }
        grown.pixelCount = growthQueue.count
        return grown.pixelCount > component.pixelCount && !leaked ? grown : nil
    }

    /// How many sides of the region's box have a dark line (the plate's border) just outside them along most of
    /// their length: a plate's lit part keeps the border on the sides the shadow does not cross, at least two. Five
    /// places per side, each looked at one to three samples out.
    private func borderedSides(of component: MaskComponent, width: Int, height: Int) -> Int {
        luma.withUnsafeBufferPointer { luma in
            var sides = 0
            for side in 0..<4 {
                var bordered = 0
                for place in 1...5 {
                    let alongX = component.minX + component.width * place / 6
                    let alongY = component.minY + component.height * place / 6
                    for out in 1...3 {
                        let x = side == 0 ? component.minX - out : side == 1 ? component.maxX + out : alongX
                        let y = side == 2 ? component.minY - out : side == 3 ? component.maxY + out : alongY
                        guard x >= 0, x < width, y >= 0, y < height else { break }
                        if Self.isOnDarkLine(
                            luma, x: x, y: y, width: width, height: height, depth: minimumValleyDepth,
                            share: relativeValleyDepth)
                        {
                            bordered += 1
                            break
                        }
                    }
                }
                if bordered >= 3 { sides += 1 }
            }
            return sides
        }
    }

    /// The component's box without thin strips that leak out of it (paper beyond a border broken by blur or a
    /// slanted edge): each side moves in past the outermost ``trimShare`` of the component's samples.
    private mutating func trimmedBounds(
        of component: MaskComponent, width: Int, members: [Int32], value: Int32
    ) -> MaskComponent {
        columnCounts.removeAll(keepingCapacity: true)
        columnCounts.append(contentsOf: repeatElement(0, count: component.width))
        rowCounts.removeAll(keepingCapacity: true)
        rowCounts.append(contentsOf: repeatElement(0, count: component.height))
        for y in component.minY...component.maxY {
            for x in component.minX...component.maxX where members[y * width + x] == value {
                columnCounts[x - component.minX] += 1
                rowCounts[y - component.minY] += 1
            }
        }
        let cut = Int(Double(component.pixelCount) * trimShare)
        func inner(_ counts: [Int]) -> (first: Int, last: Int) {
            var first = 0
            var running = 0
            while first < counts.count - 1, running + counts[first] <= cut {
                running += counts[first]
                first += 1
            }
            var last = counts.count - 1
            running = 0
            while last > first, running + counts[last] <= cut {
                running += counts[last]
                last -= 1
            }
            return (first, last)
        }
        let columns = inner(columnCounts)
        let rows = inner(rowCounts)
        return MaskComponent(
            minX: component.minX + columns.first, minY: component.minY + rows.first,
            maxX: component.minX + columns.last, maxY: component.minY + rows.last, pixelCount: component.pixelCount)
    }

    /// Samples of the region inside `plate`.
    private func count(in plate: MaskComponent, width: Int, members: [Int32], value: Int32) -> Int {
        var count = 0
        for y in plate.minY...plate.maxY {
            for x in plate.minX...plate.maxX where members[y * width + x] == value { count += 1 }
        }
        return count
    }

    /// The rectangle test: in the rows of the plate, paper reaches from near the left edge to near the right one
    /// (the margins beside the letters are paper), so most rows span ``minimumRowSpan`` of the width. Blobs, discs,
    /// cars and windows narrow towards their top and bottom or break up. The rows are the component's own (not the
    /// trimmed plate's), so that the thin caps of an ellipse count against it.
    private func rowsSpanThePlate(
        _ plate: MaskComponent, of component: MaskComponent, width: Int, members: [Int32], value: Int32
    ) -> Bool {
        let firstRow = component.minY + component.height / 20
        let lastRow = component.maxY - component.height / 20
        guard lastRow > firstRow else { return false }
        var spanning = 0
        for y in firstRow...lastRow {
            var left = -1
            var right = -1
            for x in plate.minX...plate.maxX where members[y * width + x] == value {
                if left < 0 { left = x }
                right = x
            }
            if left >= 0, Double(right - left + 1) >= minimumRowSpan * Double(plate.width) { spanning += 1 }
        }
        return Double(spanning) >= minimumSpanningRows * Double(lastRow - firstRow + 1)
    }

    /// Mean luma of the paper samples in the component's box (`paper`: step 2's mask unless given).
    private func paperLevel(of component: MaskComponent, width: Int, in paper: [UInt8]? = nil) -> Double {
        let paper = paper ?? mask
        var sum = 0
        var count = 0
        for y in component.minY...component.maxY {
            for x in component.minX...component.maxX where paper[y * width + x] != 0 {
                sum += Int(luma[y * width + x])
                count += 1
            }
        }
        return Double(sum) / Double(max(1, count))
    }
}
