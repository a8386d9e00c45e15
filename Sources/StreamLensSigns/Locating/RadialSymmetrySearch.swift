/// Finds where round signs may be from their shape alone: places that many luma edges point at from the same
/// distance, as the edges of a circle do (a radial-symmetry transform, after Loy and Zelinsky's fast radial symmetry).
///
/// The colour searches (the red mask, ``RingContrastSearch``) miss rings that are barely redder than anything around
/// them: greyish or brownish rings around greyish insides, and dark signs against a bright sky. On the second
/// real-photo set the inside check passed with the true circle on about 270 of the 419 sign frames never located,
/// but no colour seed was there to try it. The ring's edges are there whatever its colour: the
/// inside meets the ring, the ring meets the scene. So:
/// - luma at chroma resolution (the locator's summed-area table) gives gradients at three scales: at scale `s`, on
///   every `s`-th sample, the mean of a strip `2s` wide on one side minus that on the other; samples whose gradient
///   reaches ``minimumGradient`` are edges. Small rings are searched with fine edges, large ones with coarse edges
///   (fewer, and steadier across a soft ring's wider edge);
/// - at each radius of its scale every edge votes for the two places that distance away along its gradient (either
///   polarity: a dark ring around a bright inside and a dark sign against a bright sky both count), its vote
///   weighted by its gradient up to ``fullVoteGradient``, into cells about a sixth of the radius wide;
/// - a place's score is the votes of the 3 × 3 cells around it over the circle's circumference (in edges of its
///   scale); local maxima are seeds, the ``maximumSeeds`` highest kept, of overlapping ones the higher.
/// Seeds are only places to look: the locator confirms each with ``InsideRelativeRingCheck`` (ring redder and darker
/// than its inside) or a ring edge fitted around it, as it does the colour seeds.
///
/// ## Thread Safety
/// Not synchronized: keeps its edges, vote grid and seeds between calls. One search per locator.
struct RadialSymmetrySearch {
    /// A place where a round thing may be, in chroma samples (sample i's centre is i: the middle of an even-sized
    /// vote cell falls between two samples).
    struct Seed: Equatable {
        var x: Double
        var y: Double
        /// Distance of the edges that voted for it: the ring's inner or outer edge.
        var radius: Int
        /// Weighted votes over the circumference (a whole circle of full-strength edges scores about 2).
        var score: Double

        /// Whether the two centres are closer than the larger radius.
        func overlaps(_ other: Seed) -> Bool {
            let dx = other.x - x
            let dy = other.y - y
            let reach = Double(max(other.radius, radius))
            return dx * dx + dy * dy < reach * reach
        }
    }

    /// Edge distances searched (chroma samples) by the scale of the edges that vote for them: from a 24 px sign's
    /// inner edge (4.7) to a 200 px sign's outer one.
    var scales: [(step: Int, radii: [Int])] = [(1, [4, 5, 6, 8]), (2, [10, 13, 16]), (4, [20, 25, 32, 40])]
    /// Smallest gradient of an edge: levels between the means on either side.
    var minimumGradient = 25
    /// Gradient at which an edge's vote reaches full weight (weaker edges vote less).
    var fullVoteGradient = 30
    /// Smallest vote cell (chroma samples): cells are a sixth of the radius wide, but not smaller than this.
    var smallestCell = 1
    /// Seeds kept per frame, highest first.
    var maximumSeeds = 16
    /// Lowest score of a seed.
    var minimumScore = 0.8

    /// Seeds of the last ``search(luma:)`` or ``searchAround(luma:alsoAround:)``, highest first.
    private(set) var seeds: [Seed] = []
    /// The seeds of the last whole search, and the places ``searchAround(luma:alsoAround:)`` searches around: the last
    /// seeds and those of the last whole search (arrays that keep their storage between frames).
    private var wholeSearchSeeds: [Seed] = []
    private var places: [Seed] = []
    /// The grid size of the last search (0 × 0 before the first).
    private var frameSize = (width: 0, height: 0)

    /// An edge sample: its centre (position + 0.5, so that truncating a vote's position rounds it), unit gradient
    /// and vote weight (1…``voteScale``). Positions and gradients are fixed point with ``fraction`` bits: integer
    /// votes need none of the checked float-to-integer conversions that took most of the voting loop's time.
    private struct Edge {
        var x: Int32
        var y: Int32
        var dx: Int32
        var dy: Int32
        var weight: UInt16
    }

    /// Fractional bits of an edge's fixed-point position and gradient: a 40-sample vote lands within 0.001 sample of
    /// where float arithmetic puts it, and positions up to 32767 samples fit.
    private static let fraction: Int32 = 16

    /// The edges of the scale being searched (kept between scales and frames).
    private var edges: [Edge] = []
    /// Running sums along the row being searched for edges (see ``collectEdges(luma:step:)``).
    private var across: [Int32] = []
    private var upDown: [Int32] = []
    /// Votes of one radius, cell by cell (kept between radii and frames). 16 bits are plenty: a cell's 3 × 3 score
    /// counts the edges of one annulus around it, at most a few hundred full votes (under 8000 of 65535 at any
    /// searched radius), and the grid passes go through half the memory of 32-bit votes.
    private var votes: [UInt16] = []
    /// Votes summed along rows, three cells at a time (kept between radii and frames).
    private var rowSums: [UInt16] = []
    /// The vote cell of each column of the region being voted, and the first vote cell of each of its rows, at the
    /// radius being voted (kept between radii and frames).
    private var cellOfColumn: [Int32] = []
    private var cellOfRow: [Int32] = []
    /// The cell size and region the tables were filled for: most radii of a scale share one cell size.
    private var tabled = (cell: 0, columns: 0..<0, rows: 0..<0)
    /// A full-weight vote.
    private static let voteScale: UInt16 = 16

    /// Searches the luma sampled at chroma resolution (`luma`, a summed-area table): the whole frame.
    mutating func search(luma: SummedArea) {
        seeds.removeAll(keepingCapacity: true)
        let width = luma.width
        let height = luma.height
        frameSize = (width, height)
        let whole = Region(columns: 0..<width, rows: 0..<height)
        for (step, radii) in scales where 4 * step + 2 < min(width, height) {
            collectEdges(luma: luma, step: step, in: whole)
            for radius in radii where 2 * radius + 2 <= min(width, height) {
                vote(radius: radius, step: step, in: whole)
            }
        }
        wholeSearchSeeds.removeAll(keepingCapacity: true)
        wholeSearchSeeds.append(contentsOf: seeds)
    }

    /// Searches again only around the last search's seeds and the last whole search's, in a new frame of the same
    /// size (else the whole frame): centres within 1.5 seed radii of each, radii from ``nearbyRadii`` of its own.
    /// A window's edges and votes are the whole search's there — the same lattice of edge samples, the same vote
    /// cells — so a ring inside a window scores as the whole search would score it. Between whole searches this
    /// follows a sign as it moves and grows, for a few per cent of a whole search; new places are found by the next
    /// whole search. The whole search's seeds are searched around until the next one because a window can miss a
    /// sign for a frame (a soft ring's edges fall below the gradient bar): one miss must not lose it until then.
    /// `extraPlaces` are more places to search around: the locator's last rings, whatever found them (a sign the red
    /// mask found last frame may be left to its shape in this one).
    mutating func searchAround(luma: SummedArea, alsoAround extraPlaces: [Seed] = []) {
        let width = luma.width
        let height = luma.height
        guard frameSize == (width, height) else {
            search(luma: luma)
            return
        }
        places.removeAll(keepingCapacity: true)
        places.append(contentsOf: seeds)
        for old in wholeSearchSeeds where !seeds.contains(where: { $0.overlaps(old) }) { places.append(old) }
        places.append(contentsOf: extraPlaces)
        seeds.removeAll(keepingCapacity: true)
        for seed in places {
            let centerX = Int(seed.x.rounded())
            let centerY = Int(seed.y.rounded())
            let reach = max(2, seed.radius * 3 / 2)
            for (step, radii) in scales where 4 * step + 2 < min(width, height) {
                func isNearby(_ radius: Int) -> Bool {
                    Double(radius) >= Self.nearbyRadii.lowerBound * Double(seed.radius)
                        && Double(radius) <= Self.nearbyRadii.upperBound * Double(seed.radius)
                        && 2 * radius + 2 <= min(width, height)
                }
                guard let largest = radii.last(where: isNearby) else { continue }
                // Every edge that can vote for a centre within reach: the largest radius and the gradient's strips.
                let margin = reach + largest + 2 * step + 1
                let region = Region(
                    columns: max(0, centerX - margin)..<min(width, centerX + margin + 1),
                    rows: max(0, centerY - margin)..<min(height, centerY + margin + 1))
                collectEdges(luma: luma, step: step, in: region)
                for radius in radii where isNearby(radius) {
                    vote(radius: radius, step: step, in: region)
                }
            }
        }
    }

    /// Radii searched around an old seed, as shares of its radius: a step of ``scales``' radii down (a sign leaving
    /// the window) and up (a sign growing as it approaches) — the shares the contrast search follows its seeds with.
    static let nearbyRadii = RingContrastSearch.nearbyRadii

    /// Part of the sampled grid: its columns and rows.
    private struct Region {
        var columns: Range<Int>
        var rows: Range<Int>
    }

    /// Fills the edge list with the edges at scale `step` in `region`: every `step`-th sample of every `step`-th row
    /// (`2·step` from the border; the same lattice whatever the region) where the mean of the strip `2·step` wide on
    /// one side differs from the other's by at least ``minimumGradient``, horizontally and vertically combined.
    ///
    /// Per row, two running sums along it come from the summed-area table: `across[x]`, the band of rows around the
    /// sample left of column x (horizontal gradients are differences of it), and `upDown[x]`, the band below minus the
    /// band above, left of column x (vertical ones). A sample's gradient is then six lookups, eight samples at a time
    /// on the finest scale, where most are not edges.
    private mutating func collectEdges(luma: SummedArea, step: Int, in region: Region) {
        edges.removeAll(keepingCapacity: true)
        let width = luma.width
        let height = luma.height
        // Each strip is 2·step by 2·step + 1 samples; compare sums, not means.
        let area = Int32(2 * step * (2 * step + 1))
        let minimumSum = Int32(minimumGradient) * area
        let minimumSquare = minimumSum * minimumSum
        let fullSum = Float(Int32(fullVoteGradient) * area)
        let reach = 2 * step
        // The lattice's samples in the region, and the columns of running sums their gradients read.
        func firstOnLattice(from start: Int) -> Int { reach + (max(0, start - reach) + step - 1) / step * step }
        let firstColumn = firstOnLattice(from: region.columns.lowerBound)
        let columnEnd = min(width - reach, region.columns.upperBound)
        let firstRow = firstOnLattice(from: region.rows.lowerBound)
        let rowEnd = min(height - reach, region.rows.upperBound)
        guard firstColumn < columnEnd, firstRow < rowEnd else { return }
        let firstSum = firstColumn - reach
        let lastSum = columnEnd + reach
        if across.count < width + 1 {
            across = [Int32](repeating: 0, count: width + 1)
            upDown = [Int32](repeating: 0, count: width + 1)
        }
        // Moved out of `self` while in use: ``addEdge(x:y:gx:gy:fullSum:)`` appends to its edges meanwhile.
        var band: [Int32] = []
        var difference: [Int32] = []
        swap(&band, &across)
        swap(&difference, &upDown)
        defer {
            swap(&band, &across)
            swap(&difference, &upDown)
        }
        luma.withUnsafeSums { table, stride in
            band.withUnsafeMutableBufferPointer { bandBuffer in
                difference.withUnsafeMutableBufferPointer { differenceBuffer in
                    let across = bandBuffer.baseAddress!
                    let upDown = differenceBuffer.baseAddress!
                    var y = firstRow
                    while y < rowEnd {
                        // Table row r sums the rows above r: the band is rows y − step … y + step; below is
                        // y + 1 … y + 2·step, above y − 2·step … y − 1.
                        let bandTop = table + (y - step) * stride
                        let bandBottom = table + (y + step + 1) * stride
                        let belowTop = table + (y + 1) * stride
                        let belowBottom = table + (y + reach + 1) * stride
                        let aboveTop = table + (y - reach) * stride
                        let aboveBottom = table + y * stride
                        // Eight columns at a time (the compiler does not vectorise this loop by itself).
                        var column = firstSum
                        while column + 8 <= lastSum + 1 {
                            Self.store(
                                Self.load(bandBottom + column) &- Self.load(bandTop + column), at: across + column)
                            Self.store(
                                (Self.load(belowBottom + column) &- Self.load(belowTop + column))
                                    &- (Self.load(aboveBottom + column) &- Self.load(aboveTop + column)),
                                at: upDown + column)
                            column += 8
                        }
                        while column <= lastSum {
                            across[column] = bandBottom[column] &- bandTop[column]
                            upDown[column] = (belowBottom[column] &- belowTop[column])
                                &- (aboveBottom[column] &- aboveTop[column])
                            column += 1
                        }
                        // Horizontal: columns x + 1 … x + 2·step minus x − 2·step … x − 1; vertical: the band
                        // difference over columns x − step … x + step.
                        func gradient(_ x: Int) -> (gx: Int32, gy: Int32) {
                            let gx = (across[x + reach + 1] &- across[x + 1]) &- (across[x] &- across[x - reach])
                            let gy = upDown[x + step + 1] &- upDown[x - step]
                            return (gx, gy)
                        }
                        var x = firstColumn
                        if step == 1 {
                            let bar = SIMD8<Int32>(repeating: minimumSquare)
                            while x + 8 <= columnEnd {
                                let gx = (Self.load(across + x + 3) &- Self.load(across + x + 1))
                                    &- (Self.load(across + x) &- Self.load(across + x - 2))
                                let gy = Self.load(upDown + x + 2) &- Self.load(upDown + x - 1)
                                let squares = gx &* gx &+ gy &* gy
                                if any(squares .>= bar) {
                                    for lane in 0..<8 where squares[lane] >= minimumSquare {
                                        addEdge(x: x + lane, y: y, gx: gx[lane], gy: gy[lane], fullSum: fullSum)
                                    }
                                }
                                x += 8
                            }
                        }
                        while x < columnEnd {
                            let (gx, gy) = gradient(x)
                            if gx &* gx &+ gy &* gy >= minimumSquare {
                                addEdge(x: x, y: y, gx: gx, gy: gy, fullSum: fullSum)
                            }
                            x += step
                        }
                        y += step
                    }
                }
            }
        }
    }

    /// Appends the edge at sample (`x`, `y`) with gradient (`gx`, `gy`) (strip sums; `fullSum` weighs a full vote).
    @inline(__always)
    private mutating func addEdge(x: Int, y: Int, gx: Int32, gy: Int32, fullSum: Float) {
        let magnitude = Float(gx * gx + gy * gy).squareRoot()
        let perMagnitude = Float(1 << Self.fraction) / magnitude
        // Rounded half away from zero by hand: `rounded()` is a library call, and this runs once per edge.
        func fixed(_ component: Int32) -> Int32 {
            let scaled = Float(component) * perMagnitude
            return Int32(scaled + (scaled < 0 ? -0.5 : 0.5))
        }
        edges.append(Edge(
            x: Int32(x) << Self.fraction | Int32(1) << (Self.fraction - 1),
            y: Int32(y) << Self.fraction | Int32(1) << (Self.fraction - 1),
            dx: fixed(gx), dy: fixed(gy),
            weight: max(1, UInt16(Float(Self.voteScale) * min(1, magnitude / fullSum)))))
    }

    /// Votes the edges (of scale `step`) at distance `radius` into cells, sums each cell's 3 × 3 neighbourhood and
    /// keeps the local maxima of those scores.
    private mutating func vote(radius: Int, step: Int, in region: Region) {
        let cell = max(smallestCell, radius / 6)
        // The grid's cells are the whole frame's cells that the region touches.
        let firstCellColumn = region.columns.lowerBound / cell
        let firstCellRow = region.rows.lowerBound / cell
        let columns = (region.columns.upperBound + cell - 1) / cell - firstCellColumn
        let rows = (region.rows.upperBound + cell - 1) / cell - firstCellRow
        guard columns > 4, rows > 4 else { return }
        let count = columns * rows
        if votes.count < count {
            votes = [UInt16](repeating: 0, count: count)
            rowSums = [UInt16](repeating: 0, count: count)
        }
        let width = region.columns.count
        let height = region.rows.count
        if tabled.cell != cell || tabled.columns != region.columns || tabled.rows != region.rows {
            if cellOfColumn.count < width { cellOfColumn = [Int32](repeating: 0, count: width) }
            if cellOfRow.count < height { cellOfRow = [Int32](repeating: 0, count: height) }
            for x in 0..<width {
                cellOfColumn[x] = Int32((region.columns.lowerBound + x) / cell - firstCellColumn)
            }
            for y in 0..<height {
                cellOfRow[y] = Int32(((region.rows.lowerBound + y) / cell - firstCellRow) * columns)
            }
            tabled = (cell, region.columns, region.rows)
        }
        let columnCells = cellOfColumn
        let rowCells = cellOfRow
        let distance = Int32(radius)
        // Full votes of a whole circle of edges of this scale (one edge every `step` samples of each row and column).
        let circumference = 2 * Double.pi * Double(radius) * Double(Self.voteScale) / Double(step)
        let scoreBar = UInt16(minimumScore * circumference)
        // The grids are moved out of `self` while they are used, so that ``keep(_:)`` may change the seeds meanwhile.
        var scores: [UInt16] = []
        var sums: [UInt16] = []
        swap(&scores, &votes)
        swap(&sums, &rowSums)
        defer {
            swap(&scores, &votes)
            swap(&sums, &rowSums)
        }
        scores.withUnsafeMutableBufferPointer { scoreBuffer in
            sums.withUnsafeMutableBufferPointer { sumBuffer in
                let grid = scoreBuffer.baseAddress!
                let rowSum = sumBuffer.baseAddress!
                grid.update(repeating: 0, count: count)
                // Positions relative to the region's first sample, so that one unsigned comparison bounds them.
                let originX = Int32(region.columns.lowerBound) << Self.fraction
                let originY = Int32(region.rows.lowerBound) << Self.fraction
                let limitX = UInt32(width) << Self.fraction
                let limitY = UInt32(height) << Self.fraction
                columnCells.withUnsafeBufferPointer { columnCell in
                    rowCells.withUnsafeBufferPointer { rowCell in
                        for edge in edges {
                            let dx = edge.dx &* distance
                            let dy = edge.dy &* distance
                            // Both polarities: towards the brighter side and towards the darker one. Compared
                            // unsigned, negative positions are out too; shifting truncates them (they carry + 0.5).
                            let x = edge.x &- originX
                            let y = edge.y &- originY
                            let brighterX = UInt32(bitPattern: x &+ dx)
                            let brighterY = UInt32(bitPattern: y &+ dy)
                            if brighterX < limitX, brighterY < limitY {
                                let index = rowCell[Int(brighterY >> Self.fraction)]
                                    &+ columnCell[Int(brighterX >> Self.fraction)]
                                grid[Int(index)] &+= edge.weight
                            }
                            let darkerX = UInt32(bitPattern: x &- dx)
                            let darkerY = UInt32(bitPattern: y &- dy)
                            if darkerX < limitX, darkerY < limitY {
                                let index = rowCell[Int(darkerY >> Self.fraction)]
                                    &+ columnCell[Int(darkerX >> Self.fraction)]
                                grid[Int(index)] &+= edge.weight
                            }
                        }
                    }
                }
                // Scores: the 3 × 3 cells' votes, summed along rows, then down columns back into the vote grid (the
                // outermost cells score 0). Sixteen cells at a time.
                for row in 0..<rows {
                    let line = grid + row * columns
                    let lineSums = rowSum + row * columns
                    lineSums[0] = 0
                    lineSums[columns - 1] = 0
                    var column = 1
                    while column + 16 <= columns - 1 {
                        Self.store(
                            Self.load(line + column - 1) &+ Self.load(line + column) &+ Self.load(line + column + 1),
                            at: lineSums + column)
                        column += 16
                    }
                    while column < columns - 1 {
                        lineSums[column] = line[column - 1] &+ line[column] &+ line[column + 1]
                        column += 1
                    }
                }
                grid.update(repeating: 0, count: columns)
                (grid + (rows - 1) * columns).update(repeating: 0, count: columns)
                for row in 1..<(rows - 1) {
                    let above = rowSum + (row - 1) * columns
                    let middle = above + columns
                    let below = middle + columns
                    let line = grid + row * columns
                    var column = 0
                    while column + 16 <= columns {
                        Self.store(
                            Self.load(above + column) &+ Self.load(middle + column) &+ Self.load(below + column),
                            at: line + column)
                        column += 16
                    }
                    while column < columns {
                        line[column] = above[column] &+ middle[column] &+ below[column]
                        column += 1
                    }
                }
                // A seed is a cell whose score beats its eight neighbours' (ties go to the first in raster order).
                let bar = SIMD16<UInt16>(repeating: scoreBar)
                for row in 1..<(rows - 1) {
                    let line = grid + row * columns
                    var column = 1
                    while column < columns - 1 {
                        // Sixteen cells below the bar at once: most of the grid.
                        if column + 16 <= columns - 1, !any(Self.load(line + column) .>= bar) {
                            column += 16
                            continue
                        }
                        let end = min(column + 16, columns - 1)
                        while column < end {
                            defer { column += 1 }
                            let centre = line[column]
                            guard centre >= scoreBar else { continue }
                            let above = line - columns + column
                            let below = line + columns + column
                            guard above[-1] < centre, above[0] < centre, above[1] < centre,
                                line[column - 1] < centre, line[column + 1] <= centre,
                                below[-1] <= centre, below[0] <= centre, below[1] <= centre
                            else { continue }
                            keep(Seed(
                                x: Double((firstCellColumn + column) * cell) + Double(cell - 1) / 2,
                                y: Double((firstCellRow + row) * cell) + Double(cell - 1) / 2, radius: radius,
                                score: Double(centre) / circumference))
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func load(_ cells: UnsafePointer<Int32>) -> SIMD8<Int32> {
        UnsafeRawPointer(cells).loadUnaligned(as: SIMD8<Int32>.self)
    }

    @inline(__always)
    private static func store(_ value: SIMD8<Int32>, at cells: UnsafeMutablePointer<Int32>) {
        UnsafeMutableRawPointer(cells).storeBytes(of: value, as: SIMD8<Int32>.self)
    }

    @inline(__always)
    private static func load(_ cells: UnsafePointer<UInt16>) -> SIMD16<UInt16> {
        UnsafeRawPointer(cells).loadUnaligned(as: SIMD16<UInt16>.self)
    }

    @inline(__always)
    private static func store(_ value: SIMD16<UInt16>, at cells: UnsafeMutablePointer<UInt16>) {
        UnsafeMutableRawPointer(cells).storeBytes(of: value, as: SIMD16<UInt16>.self)
    }

    /// Adds `seed` unless an overlapping seed scores at least as high; removes the overlapping seeds it beats; keeps
    /// the highest ``maximumSeeds``.
    private mutating func keep(_ seed: Seed) {
        var index = 0
        while index < seeds.count {
            let other = seeds[index]
            if other.overlaps(seed) {
                if other.score >= seed.score { return }
                seeds.remove(at: index)
            } else {
                index += 1
            }
        }
        let position = seeds.firstIndex { $0.score < seed.score } ?? seeds.count
        guard position < maximumSeeds else { return }
        seeds.insert(seed, at: position)
        if seeds.count > maximumSeeds { seeds.removeLast() }
    }
}
