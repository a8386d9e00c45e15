import Foundation
import StreamLensCore

/// Finds red rings (round European speed-limit signs) in a frame's native chroma planes.
///
/// Works at chroma resolution on V and U only, so it needs no colour conversion and touches a quarter of the pixels:
/// 1. Red mask: a chroma sample is red when V − 128 ≥ ``minimumRedness`` and its hue is red rather than orange,
///    yellow or magenta (|U − 128| ≤ (V − 128) / 2). The low threshold keeps dim, shadowed and backlit rings.
/// 2. Regions of the mask are labelled with a small gap tolerance so rings broken by shadows stay whole.
/// 3. A region is a ring when it is roughly round, when rays from its centre meet red in most directions near its
///    rim (``minimumRingCoverage``), when its middle is not red (filled discs and no-entry signs fail here), and when
///    red fills a ring-like share of its bounding box.
///
/// Whether the inside is a bright disc with dark digits is checked later, on luma, by ``DigitCropper``.
///
/// ## Thread Safety
/// Not synchronized: keeps scratch buffers between calls. Use one locator per analysis thread.
struct RedRingLocator {
    /// Smallest V − 128 that counts as red (chroma samples average the ring with its surroundings on small signs).
    var minimumRedness = 12
    /// Smallest ring diameter in luma pixels.
    var minimumDiameter = 18.0
    /// Largest ring diameter as a share of the frame height.
    var maximumDiameterShare = 0.9
    /// Share of directions in which the rim must be red.
    var minimumRingCoverage = 0.72
    /// Largest share of red samples allowed in the middle of the ring.
    var maximumCentreRedness = 0.15
    /// At most this many candidates per frame (the largest first) go on to OCR.
    var maximumCandidates = 6

    private var mask: [UInt8] = []
    private var labeler = ComponentLabeler()
    /// Candidates of the last ``locate(in:)``.
    private(set) var candidates: [RingCandidate] = []

    private static let rayCount = 32

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
            guard min(chromaWidth, chromaHeight) >= minimumChromaDiameter * 0.7,
                max(chromaWidth, chromaHeight) >= minimumChromaDiameter,
                max(chromaWidth, chromaHeight) <= maximumChromaDiameter
            else { continue }
            let aspect = chromaWidth / chromaHeight
            guard aspect > 0.55, aspect < 1.8 else { continue }
            let fill = Double(component.pixelCount) / (chromaWidth * chromaHeight)
            guard fill > 0.12, fill < 0.72 else { continue }
            guard let coverage = ringCoverage(of: component, width: width, height: height) else { continue }
            // Chroma sample i covers luma pixels 2i and 2i + 1.
            candidates.append(RingCandidate(
                centerX: Double(component.minX + component.maxX + 1),
                centerY: Double(component.minY + component.maxY + 1),
                radiusX: chromaWidth, radiusY: chromaHeight, ringCoverage: coverage))
        }
        if candidates.count > maximumCandidates {
            candidates.sort { $0.diameter > $1.diameter }
            candidates.removeLast(candidates.count - maximumCandidates)
        }
    }

    /// Red where V is well above neutral and the hue is red: |U − 128| ≤ (V − 128) / 2.
    private mutating func buildRedMask(planes: YUVPlanes, width: Int, height: Int) {
        if mask.count < width * height { mask = [UInt8](repeating: 0, count: width * height) }
        let threshold = minimumRedness
        mask.withUnsafeMutableBufferPointer { mask in
            for y in 0..<height {
                let vRow = planes.v.row(y)
                let uRow = planes.u.row(y)
                let vStep = planes.v.pixelStride
                let uStep = planes.u.pixelStride
                let maskRow = y * width
                for x in 0..<width {
                    let v = Int(vRow[x * vStep]) - 128
                    let u = Int(uRow[x * uStep]) - 128
                    mask[maskRow + x] = (v >= threshold && 2 * abs(u) <= v) ? 1 : 0
                }
            }
        }
    }

    /// Share of rays from the component's centre that meet red near its rim, or nil when the component is not a ring
    /// (rim too sparse, or red in the middle).
    private func ringCoverage(of component: MaskComponent, width: Int, height: Int) -> Double? {
        let centreX = Double(component.minX + component.maxX) / 2
        let centreY = Double(component.minY + component.maxY) / 2
        let radiusX = Double(component.width) / 2
        let radiusY = Double(component.height) / 2
        return mask.withUnsafeBufferPointer { mask -> Double? in
            func isRed(_ x: Double, _ y: Double) -> Bool {
                let column = Int(x.rounded())
                let row = Int(y.rounded())
                guard column >= 0, column < width, row >= 0, row < height else { return false }
                return mask[row * width + column] != 0
            }
            // The middle (inside 45 % of the radius) must be mostly not red.
            var centreSamples = 0
            var centreRed = 0
            for step in -4...4 {
                for across in -4...4 {
                    let nx = Double(across) / 9
                    let ny = Double(step) / 9
                    guard nx * nx + ny * ny <= 0.2 else { continue }
                    centreSamples += 1
                    if isRed(centreX + nx * radiusX, centreY + ny * radiusY) { centreRed += 1 }
                }
            }
            guard Double(centreRed) <= maximumCentreRedness * Double(centreSamples) else { return nil }
            // The rim: walk each ray from 55 % to 110 % of the radius looking for red.
            let stepCount = max(4, Int(max(radiusX, radiusY) * 0.6))
            var hits = 0
            for ray in 0..<Self.rayCount {
                let angle = Double(ray) * 2 * Double.pi / Double(Self.rayCount)
                let dx = cos(angle)
                let dy = sin(angle)
                for step in 0...stepCount {
                    let t = 0.55 + 0.55 * Double(step) / Double(stepCount)
                    if isRed(centreX + t * dx * radiusX, centreY + t * dy * radiusY) {
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
