import Foundation
import StreamLensCore

// The red mask and the ring geometry traced in it (steps 1–4 of ``RedRingLocator``).
extension RedRingLocator {
    private static let rayCount = 32
    private static let rays: [(dx: Double, dy: Double)] = (0..<rayCount).map {
        let angle = Double($0) * 2 * Double.pi / Double(rayCount)
        return (cos(angle), sin(angle))
    }

    /// Geometry of a ring in chroma samples.
    struct ChromaRing {
        var centerX: Double
        var centerY: Double
        var innerX: Double
        var innerY: Double
        var outerX: Double
        var outerY: Double
    }

    /// Red where the hue is red (|U − 128| ≤ (V − 128) / 2) and V is either well above neutral or faintly above
    /// neutral and above the local scene: a maroon ring in the shade is red only relative to what surrounds it.
    ///
    /// Two passes per row: the hue and V thresholds for every sample (branch-free, so the compiler vectorises it),
    /// marking faint candidates 1; then only those candidates get the local mean, from the summed V table with the
    /// window's rows hoisted out of the row and without a division (see ``meanIsAtMost(_:sum:area:)``).
    mutating func buildRedMask(planes: YUVPlanes, width: Int, height: Int) {
        if mask.count < width * height {
            mask = [UInt8](repeating: 0, count: width * height)
            holeVisited = [UInt8](repeating: 0, count: width * height)
        }
        // V − 128 and U − 128 lie in −128…127: thresholds clamped to Int16 compare exactly as the Int ones.
        let strong = Int16(clamping: minimumRedness)
        // Not above `strong`: a sample red on its own is never faint (so 2, not 1), whatever the settings.
        let faint = min(Int16(clamping: minimumFaintRedness), strong)
        let localMargin = minimumLocalRedness
        let radius = localWindowRadius
        vSums.build(from: planes.v, width: width, height: height, bias: 128)
        let sums = vSums
        let vPlane = planes.v
        let uPlane = planes.u
        mask.withUnsafeMutableBufferPointer { mask in
            sums.withUnsafeSums { table, stride in
                for y in 0..<height {
                    let vRow = vPlane.row(y)
                    let uRow = uPlane.row(y)
                    let vStep = vPlane.pixelStride
                    let maskRow = mask.baseAddress! + y * width
                    let hasCandidates =
                        vStep == 1 && uPlane.pixelStride == 1
                        ? Self.classifyRow(
                            v: vRow, vStep: 1, u: uRow, uStep: 1, width: width, strong: strong, faint: faint,
                            into: maskRow)
                        : Self.classifyRow(
                            v: vRow, vStep: vStep, u: uRow, uStep: uPlane.pixelStride, width: width, strong: strong,
                            faint: faint, into: maskRow)
                    guard hasCandidates else { continue }
                    // The window's rows, clamped to the grid, are the same for the whole row.
                    let top = max(0, y - radius)
                    let bottom = min(height, y + radius + 1)
                    let topSums = table + top * stride
                    let bottomSums = table + bottom * stride
                    let rows = bottom - top
                    for x in 0..<width where maskRow[x] == 1 {
                        let left = max(0, x - radius)
                        let right = min(width, x + radius + 1)
                        let sum = Int(bottomSums[right]) - Int(topSums[right]) - Int(bottomSums[left])
                            + Int(topSums[left])
                        // Red when V − mean ≥ minimumLocalRedness, i.e. mean ≤ V − 128 − minimumLocalRedness.
                        let bar = Int(vRow[x * vStep]) - 128 - localMargin
                        if !Self.meanIsAtMost(bar, sum: sum, area: rows * (right - left)) { maskRow[x] = 0 }
                    }
                }
            }
        }
    }

    /// Writes one row of the mask from V and U alone: 0 not red, 2 red on its own (hue red, V − 128 ≥ `strong`),
    /// 1 a faint candidate (hue red, `faint` ≤ V − 128 < `strong`) whose local mean is still to be checked. Returns
    /// whether the row has a candidate (a byte OR-ed along the row, not a count: a count's wide additions kept the
    /// loop to half as many samples per instruction). Inlined twice so the common unit stride (I420) is vectorised.
    @inline(__always)
    private static func classifyRow(
        v: UnsafeMutablePointer<UInt8>, vStep: Int, u: UnsafeMutablePointer<UInt8>, uStep: Int, width: Int,
        strong: Int16, faint: Int16, into mask: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        var candidates: UInt8 = 0
        for x in 0..<width {
            let v = Int16(v[x * vStep]) &- 128
            let u = Int16(u[x * uStep]) &- 128
            // Red hue: 2·|U − 128| ≤ V − 128, written without abs. Bits, not branches: 0, 1 or 2 is
            // hue · ([V − 128 ≥ faint] + [V − 128 ≥ strong]) since `faint` ≤ `strong` here.
            let redHue: UInt8 = (2 &* u <= v ? 1 : 0) & (0 &- 2 &* u <= v ? 1 : 0)
            let value = redHue &* ((v >= faint ? 1 : 0) &+ (v >= strong ? 1 : 0))
            mask[x] = value
            candidates |= value & 1
        }
        return candidates != 0
    }

    /// Whether the local mean, `sum / area` rounded toward zero as Swift's integer division does, is at most `bar`,
    /// without dividing: for sum ≥ 0 the quotient is ⌊sum / area⌋ ≤ bar ⇔ sum < (bar + 1)·area; for sum < 0 it is
    /// ⌈sum / area⌉ ≤ bar ⇔ sum ≤ bar·area (`area` > 0).
    @inline(__always)
    static func meanIsAtMost(_ bar: Int, sum: Int, area: Int) -> Bool {
        sum >= 0 ? sum < (bar + 1) * area : sum <= bar * area
    }

    /// Share of the component's samples that are red on their own (mask value 2) rather than only relative to the
    /// scene (1).
    func strongShare(of component: MaskComponent, width: Int) -> Double {
        var strong = 0
        for y in component.minY...component.maxY {
            for x in component.minX...component.maxX where mask[y * width + x] == 2 { strong += 1 }
        }
        return Double(strong) / Double(max(1, component.pixelCount))
    }

    /// The ring's centre and radii from its hole, or from the component's box when it has no closed hole.
    mutating func geometry(of component: MaskComponent, width: Int, height: Int) -> ChromaRing? {
        let boxRing = ChromaRing(
            centerX: Double(component.minX + component.maxX) / 2, centerY: Double(component.minY + component.maxY) / 2,
            innerX: 0.74 * Double(component.width) / 2, innerY: 0.74 * Double(component.height) / 2,
            outerX: Double(component.width) / 2, outerY: Double(component.height) / 2)
        guard let hole = hole(in: component, width: width, height: height) else {
            // Without a hole the region must look like a ring on its own: red fills a ring-like share of its box.
            let fill = Double(component.pixelCount) / Double(component.width * component.height)
            return fill > 0.12 && fill < 0.72 ? boxRing : nil
        }
        // The hole was filled one sample away from red: its edge is one sample further out.
        var ring = ChromaRing(
            centerX: Double(hole.minX + hole.maxX) / 2, centerY: Double(hole.minY + hole.maxY) / 2,
            innerX: Double(hole.maxX - hole.minX) / 2 + 1.5, innerY: Double(hole.maxY - hole.minY) / 2 + 1.5,
            outerX: 0, outerY: 0)
        guard ring.innerX >= 2, ring.innerY >= 2 else { return nil }
        // Ring thickness: red run length outwards from the hole's edge, median over the rays.
        thicknesses.removeAll(keepingCapacity: true)
        mask.withUnsafeBufferPointer { mask in
            for ray in Self.rays {
                var thickness = 0.0
                var t = 1.0
                let step = 0.5 / max(ring.innerX, ring.innerY)
                while t < 1.8 {
                    let x = Int((ring.centerX + t * ray.dx * ring.innerX).rounded())
                    let y = Int((ring.centerY + t * ray.dy * ring.innerY).rounded())
                    guard x >= 0, x < width, y >= 0, y < height else { break }
                    if mask[y * width + x] != 0 {
                        thickness = t - 1
                    } else if thickness > 0 || t > 1.3 {
                        break
                    }
                    t += step
                }
                thicknesses.append(thickness)
            }
        }
        thicknesses.sort()
        let thickness = min(0.6, max(0.15, thicknesses[thicknesses.count / 2] + 0.05))
        ring.outerX = ring.innerX * (1 + thickness)
        ring.outerY = ring.innerY * (1 + thickness)
        return ring
    }

    /// Bounds of the largest not-red area enclosed by the component: the not-red samples of its box that cannot be
    /// reached from the box's border. Filling moves only through samples at least one sample away from red (so
    /// one-sample gaps in the ring do not leak). Nil when nothing roundish is enclosed.
    private mutating func hole(in component: MaskComponent, width: Int, height: Int) -> MaskComponent? {
        let minX = component.minX
        let maxX = component.maxX
        let minY = component.minY
        let maxY = component.maxY
        if holeQueue.count < component.width * component.height {
            holeQueue = [Int32](repeating: 0, count: component.width * component.height)
        }
        return mask.withUnsafeBufferPointer { mask -> MaskComponent? in
            holeVisited.withUnsafeMutableBufferPointer { visited -> MaskComponent? in
                holeQueue.withUnsafeMutableBufferPointer { queue -> MaskComponent? in
                    func isOpen(_ x: Int, _ y: Int) -> Bool {
                        guard x >= minX, x <= maxX, y >= minY, y <= maxY else { return false }
                        let index = y * width + x
                        return mask[index] == 0 && (x == 0 || mask[index - 1] == 0)
                            && (x == width - 1 || mask[index + 1] == 0) && (y == 0 || mask[index - width] == 0)
                            && (y == height - 1 || mask[index + width] == 0)
                    }
                    /// Fills from (x, y) marking `mark`; returns the filled region's bounds.
                    func fill(fromX x: Int, y: Int, mark: UInt8) -> MaskComponent {
                        var region = MaskComponent(minX: x, minY: y, maxX: x, maxY: y, pixelCount: 0)
                        var head = 0
                        var count = 1
                        queue[0] = Int32(y * width + x)
                        visited[y * width + x] = mark
                        while head < count {
                            let index = Int(queue[head])
                            head += 1
                            let px = index % width
                            let py = index / width
                            region.minX = min(region.minX, px)
                            region.maxX = max(region.maxX, px)
                            region.minY = min(region.minY, py)
                            region.maxY = max(region.maxY, py)
                            region.pixelCount += 1
                            // Left, right, up, down (no array literal: this runs per sample).
                            for direction in 0..<4 {
                                let nx = px + (direction == 0 ? -1 : direction == 1 ? 1 : 0)
                                let ny = py + (direction == 2 ? -1 : direction == 3 ? 1 : 0)
                                guard isOpen(nx, ny), visited[ny * width + nx] == 0 else { continue }
                                visited[ny * width + nx] = mark
                                queue[count] = Int32(ny * width + nx)
                                count += 1
                            }
                        }
                        return region
                    }
                    // Everything reachable from the border is outside the ring.
                    for x in minX...maxX {
                        for y in [minY, maxY] where isOpen(x, y) && visited[y * width + x] == 0 {
                            _ = fill(fromX: x, y: y, mark: 1)
                        }
                    }
                    for y in minY...maxY {
                        for x in [minX, maxX] where isOpen(x, y) && visited[y * width + x] == 0 {
                            _ = fill(fromX: x, y: y, mark: 1)
                        }
                    }
                    var largest: MaskComponent?
                    for y in minY...maxY {
                        for x in minX...maxX where isOpen(x, y) && visited[y * width + x] == 0 {
                            let region = fill(fromX: x, y: y, mark: 2)
                            if region.pixelCount > largest?.pixelCount ?? 0 { largest = region }
                        }
                    }
                    for y in minY...maxY {
                        let row = y * width
                        for x in minX...maxX { visited[row + x] = 0 }
                    }
                    // An ellipse fills 79 % of its box; a sliver between the ring and something red behind it less.
                    guard let largest, largest.pixelCount >= 4,
                        Double(largest.pixelCount) >= 0.55 * Double(largest.width * largest.height)
                    else { return nil }
                    return largest
                }
            }
        }
    }

    /// Share of rays from the centre that meet red between the hole's edge and the ring's outer edge, or nil when
    /// that share is too small or the middle is red.
    func ringCoverage(of ring: ChromaRing, width: Int, height: Int) -> Double? {
        mask.withUnsafeBufferPointer { mask -> Double? in
            func isRed(_ x: Double, _ y: Double) -> Bool {
                let column = Int(x.rounded())
                let row = Int(y.rounded())
                guard column >= 0, column < width, row >= 0, row < height else { return false }
                return mask[row * width + column] != 0
            }
            // The middle (inside 60 % of the hole) must be mostly not red.
            var centreSamples = 0
            var centreRed = 0
            for step in -4...4 {
                for across in -4...4 {
                    let nx = Double(across) / 6.5
                    let ny = Double(step) / 6.5
                    guard nx * nx + ny * ny <= 0.36 else { continue }
                    centreSamples += 1
                    if isRed(ring.centerX + nx * ring.innerX, ring.centerY + ny * ring.innerY) { centreRed += 1 }
                }
            }
            guard Double(centreRed) <= maximumCentreRedness * Double(centreSamples) else { return nil }
            // The ring: walk each ray from 80 % of the inner radius to 110 % of the outer one looking for red.
            let stepCount = max(4, Int(max(ring.outerX, ring.outerY)))
            var hits = 0
            for ray in Self.rays {
                for step in 0...stepCount {
                    let share = Double(step) / Double(stepCount)
                    let radiusX = ring.innerX * 0.8 + share * (ring.outerX * 1.1 - ring.innerX * 0.8)
                    let radiusY = ring.innerY * 0.8 + share * (ring.outerY * 1.1 - ring.innerY * 0.8)
                    if isRed(ring.centerX + ray.dx * radiusX, ring.centerY + ray.dy * radiusY) {
                        hits += 1
                        break
                    }
                }
            }
            let coverage = Double(hits) / Double(Self.rayCount)
            return coverage >= minimumRingCoverage ? coverage : nil
        }
    }
}
