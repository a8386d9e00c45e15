/// One connected region of a mask: its extent and size.
struct MaskComponent: Equatable {
    /// Inclusive bounds.
    var minX: Int
    var minY: Int
    var maxX: Int
    var maxY: Int
    var pixelCount: Int

    var width: Int { maxX - minX + 1 }
    var height: Int { maxY - minY + 1 }
}

/// Finds the connected regions of a byte mask (non-zero = foreground): four-connected ones run by run, the others with
/// a flood fill.
///
/// After ``label(mask:width:height:gapTolerance:minimumPixels:)``, ``labels`` maps each pixel to its component:
/// `i + 1` for `components[i]`, 0 for background, negative for regions too small to keep — unless the labeler was made
/// without labels (``init(keepsLabels:)``).
///
/// `gapTolerance` widens connectivity: pixels up to that many samples apart (in x and y) belong to one region, so a
/// ring broken by a shadow or by chroma subsampling still comes out as one component. Without `joinsDiagonals`, only
/// pixels in the same row or column join: a US plate's black border, one sample thin on a small or blurred sign, lets
/// diagonal neighbours through at its corners and would merge the white plate with a bright background. Buffers are
/// kept between calls and grow only when a larger mask arrives, so labelling a frame allocates nothing in steady state.
struct ComponentLabeler {
    private(set) var components: [MaskComponent] = []
    /// Per pixel: index + 1 of its component in ``components``; 0 (background) or negative (too small) otherwise.
    private(set) var labels: [Int32] = []
    /// Whether ``labels`` is filled. Without it the flood fill marks the pixels it visited in a byte plane, a quarter
    /// of the labels' size: 0.5 MB instead of 2.1 MB for the red-ring locator's 960 × 540 mask of a 1080p frame, which
    /// needs the components only. Four-connected regions are labelled run by run whatever it
    /// says: those labels are what their callers read.
    let keepsLabels: Bool
    /// The flood fill's marks when there are no ``labels``.
    private var visited: [Int8] = []
    /// The pixels of the region being filled. A region holds at most the mask's foreground pixels, so it grows to the
    /// most foreground pixels a mask has had, not to the mask's size (a red mask is mostly background).
    private var stack: [Int32] = []

    /// Runs of foreground in one row (`end` exclusive) and, while labelling, the run each joins (union–find: the
    /// earliest run of a region is its root, so regions come out in the flood fill's order — by their first pixel).
    private var runStart: [Int32] = []
    private var runEnd: [Int32] = []
    private var runRow: [Int32] = []
    private var runParent: [Int32] = []
    /// Per run: its region's index in ``regions``.
    private var runComponent: [Int32] = []
    /// Every region of the last mask, kept or not, and its final label (kept between calls).
    private var regions: [MaskComponent] = []
    private var regionLabel: [Int32] = []

    init(keepsLabels: Bool = true) {
        self.keepsLabels = keepsLabels
    }

    /// Labels `mask` (`width` × `height`, row-major, `width` bytes per row) and fills ``components`` with regions of
    /// at least `minimumPixels` pixels.
    ///
    /// Four-connected regions (`gapTolerance` 1 without `joinsDiagonals`: the US locator's masks, mostly foreground)
    /// are labelled run by run (``labelRuns(mask:width:height:minimumPixels:)``), the others by a flood fill; both
    /// give the same labels and components in the same order.
    mutating func label(
        mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, gapTolerance: Int = 1, joinsDiagonals: Bool = true,
        minimumPixels: Int = 1
    ) {
        if gapTolerance == 1 && !joinsDiagonals {
            labelRuns(mask: mask, width: width, height: height, minimumPixels: minimumPixels)
        } else {
            labelByFlooding(
                mask: mask, width: width, height: height, gapTolerance: gapTolerance, joinsDiagonals: joinsDiagonals,
                minimumPixels: minimumPixels)
        }
    }

    /// The flood fill: every foreground pixel is queued once and looks at its neighbours.
    mutating func labelByFlooding(
        mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, gapTolerance: Int, joinsDiagonals: Bool,
        minimumPixels: Int
    ) {
        let count = width * height
        precondition(mask.count >= count, "mask is smaller than \(width)×\(height)")
        var foreground = 0
        var counted = 0
        if let bytes = UnsafeRawPointer(mask.baseAddress) {
            // Background eight samples at a time (a mask is mostly background).
            while counted + 8 <= count {
                if bytes.loadUnaligned(fromByteOffset: counted, as: UInt64.self) != 0 {
                    for index in counted..<counted + 8 where mask[index] != 0 { foreground += 1 }
                }
                counted += 8
            }
        }
        for index in counted..<count where mask[index] != 0 { foreground += 1 }
        if stack.count < foreground { stack = [Int32](repeating: 0, count: foreground) }
        components.removeAll(keepingCapacity: true)
        let region = Region(
            width: width, height: height, gapTolerance: gapTolerance, joinsDiagonals: joinsDiagonals,
            minimumPixels: minimumPixels)
        if keepsLabels {
            if labels.count < count { labels = [Int32](repeating: 0, count: count) }
            labels.withUnsafeMutableBufferPointer { labels in
                stack.withUnsafeMutableBufferPointer { stack in
                    Self.flood(mask: mask, marks: labels, stack: stack, region: region, components: &components)
                }
            }
        } else {
            if visited.count < count { visited = [Int8](repeating: 0, count: count) }
            visited.withUnsafeMutableBufferPointer { visited in
                stack.withUnsafeMutableBufferPointer { stack in
                    Self.flood(mask: mask, marks: visited, stack: stack, region: region, components: &components)
                }
            }
        }
    }

    /// What one flood fill connects, and which regions it keeps.
    private struct Region {
        var width: Int
        var height: Int
        var gapTolerance: Int
        var joinsDiagonals: Bool
        var minimumPixels: Int
    }

    /// Fills every region of `mask`, marking each pixel in `marks` — 0 unvisited, -1 queued, then the region's label
    /// (``labels``' values) or, in a byte plane that has no room for labels, any non-zero value — and appends the kept
    /// regions to `components`.
    private static func flood<Mark: FixedWidthInteger & SignedInteger>(
        mask: UnsafeBufferPointer<UInt8>, marks: UnsafeMutableBufferPointer<Mark>,
        stack: UnsafeMutableBufferPointer<Int32>, region: Region, components: inout [MaskComponent]
    ) {
        let (width, height, gapTolerance) = (region.width, region.height, region.gapTolerance)
        let count = width * height
        marks.baseAddress!.update(repeating: 0, count: count)
        let maskBytes = UnsafeRawPointer(mask.baseAddress)
        var next = 0
        while next < count {
            // Background eight samples at a time (a mask is mostly background); starts in the same order.
            if next + 8 <= count, let maskBytes,
                maskBytes.loadUnaligned(fromByteOffset: next, as: UInt64.self) == 0
            {
                next += 8
                continue
            }
            let start = next
            next += 1
            guard mask[start] != 0, marks[start] == 0 else { continue }
            var component = MaskComponent(
                minX: start % width, minY: start / width, maxX: start % width, maxY: start / width, pixelCount: 0)
            // The stack keeps every pixel of the region: `filled` pixels are done, the rest still queued.
            var top = 0
            var filled = 0
            stack[top] = Int32(start)
            top += 1
            marks[start] = -1
            while filled < top {
                let index = Int(stack[filled])
                filled += 1
                let x = index % width
                let y = index / width
                component.pixelCount += 1
                component.minX = min(component.minX, x)
                component.maxX = max(component.maxX, x)
                component.minY = min(component.minY, y)
                component.maxY = max(component.maxY, y)
                for ny in max(0, y - gapTolerance)...min(height - 1, y + gapTolerance) {
                    let rowStart = ny * width
                    for nx in max(0, x - gapTolerance)...min(width - 1, x + gapTolerance)
                    where region.joinsDiagonals || nx == x || ny == y {
                        let neighbour = rowStart + nx
                        if mask[neighbour] != 0 && marks[neighbour] == 0 {
                            marks[neighbour] = -1
                            stack[top] = Int32(neighbour)
                            top += 1
                        }
                    }
                }
            }
            let kept = component.pixelCount >= region.minimumPixels
            if kept { components.append(component) }
            // Small regions get -2: visited, but no component.
            let final: Mark = kept ? Mark(exactly: components.count) ?? 1 : -2
            for position in 0..<top { marks[Int(stack[position])] = final }
        }
    }

    /// Four-connected regions run by run: a region of the US locator's masks (sky, road, walls) is thousands of pixels
    /// but a few dozen runs, and a run joins the runs of the row above that it overlaps. The flood fill looked at every
    /// pixel's four neighbours.
    mutating func labelRuns(mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, minimumPixels: Int) {
        let count = width * height
        precondition(mask.count >= count, "mask is smaller than \(width)×\(height)")
        if labels.count < count { labels = [Int32](repeating: 0, count: count) }
        components.removeAll(keepingCapacity: true)
        runStart.removeAll(keepingCapacity: true)
        runEnd.removeAll(keepingCapacity: true)
        runRow.removeAll(keepingCapacity: true)
        runParent.removeAll(keepingCapacity: true)
        var previousRow = 0..<0
        for y in 0..<height {
            let rowStart = y * width
            let firstRun = runStart.count
            // The first run of the row above that may still touch this row's next run (both rows' runs are in order).
            var above = previousRow.lowerBound
            var x = 0
            while x < width {
                guard mask[rowStart + x] != 0 else {
                    x += 1
                    continue
                }
                let start = x
                while x < width, mask[rowStart + x] != 0 { x += 1 }
                let run = Int32(runStart.count)
                runStart.append(Int32(start))
                runEnd.append(Int32(x))
                runRow.append(Int32(y))
                runParent.append(run)
                // Runs of the row above that share a column with this one. The last of them may also touch the
                // next run of this row, so `above` stays on it.
                while above < previousRow.upperBound, runEnd[above] <= Int32(start) { above += 1 }
                var touching = above
                while touching < previousRow.upperBound, runStart[touching] < Int32(x) {
                    union(Int32(touching), run)
                    touching += 1
                }
            }
            previousRow = firstRun..<runStart.count
        }
        runComponent.removeAll(keepingCapacity: true)
        runComponent.append(contentsOf: repeatElement(-1, count: runStart.count))
        // Bounds and sizes per root, in root order (the order of regions' first pixels).
        regions.removeAll(keepingCapacity: true)
        for run in 0..<runStart.count {
            let root = Int(find(Int32(run)))
            let start = Int(runStart[run])
            let end = Int(runEnd[run]) - 1
            let y = Int(runRow[run])
            if root == run {
                runComponent[run] = Int32(regions.count)
                regions.append(MaskComponent(minX: start, minY: y, maxX: end, maxY: y, pixelCount: 0))
            }
            let region = Int(runComponent[root])
            runComponent[run] = Int32(region)
            regions[region].minX = min(regions[region].minX, start)
            regions[region].maxX = max(regions[region].maxX, end)
            regions[region].maxY = y
            regions[region].pixelCount += end - start + 1
        }
        // Kept regions are numbered in order; the others are -2, as the flood fill marks them.
        regionLabel.removeAll(keepingCapacity: true)
        for region in regions {
            if region.pixelCount >= minimumPixels {
                components.append(region)
                regionLabel.append(Int32(components.count))
            } else {
                regionLabel.append(-2)
            }
        }
        let runs = (start: runStart, end: runEnd, row: runRow, region: runComponent, label: regionLabel)
        labels.withUnsafeMutableBufferPointer { labels in
            labels.baseAddress!.update(repeating: 0, count: count)
            for run in 0..<runs.start.count {
                let first = labels.baseAddress! + Int(runs.row[run]) * width + Int(runs.start[run])
                first.update(
                    repeating: runs.label[Int(runs.region[run])], count: Int(runs.end[run] - runs.start[run]))
            }
        }
    }

    /// The root run of `run`'s region, halving the path on the way.
    private mutating func find(_ run: Int32) -> Int32 {
        var current = run
        while runParent[Int(current)] != current {
            runParent[Int(current)] = runParent[Int(runParent[Int(current)])]
            current = runParent[Int(current)]
        }
        return current
    }

    /// Joins two runs' regions under the earlier root.
    private mutating func union(_ a: Int32, _ b: Int32) {
        let rootA = find(a)
        let rootB = find(b)
        if rootA < rootB {
            runParent[Int(rootB)] = rootA
        } else if rootB < rootA {
            runParent[Int(rootA)] = rootB
        }
    }
}
