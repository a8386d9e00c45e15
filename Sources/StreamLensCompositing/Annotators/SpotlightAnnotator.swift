import StreamLensCore
import Synchronization

/// Dims everything outside the detected boxes, so the eye goes to what was found.
///
/// Outside the boxes luma is scaled towards black (`16 + (Y − 16) × level`, limited range, so black stays black)
/// and chroma is pulled towards neutral (`128 + (C − 128) × level`); `level` is 0.3 by default. Both mappings are
/// 256-entry tables made in `init`. Each row is walked once: the boxes crossing it are merged into covered
/// spans and only the gaps are dimmed. A chroma sample counts as inside when its 2×2 block touches a box.
/// The span buffer grows only when a frame has more boxes than any before, so steady state allocates nothing.
public struct SpotlightAnnotator: Annotator {
    /// Brightness kept outside the boxes, 0…1.
    public let level: Double
    /// Pixels added around each box before dimming.
    public let padding: Int
    private let lumaTable: [UInt8]
    private let chromaTable: [UInt8]
    private let scratch = SpotlightScratch()

    public init(level: Double = 0.3, padding: Int = 0) {
        precondition(level >= 0 && level <= 1, "spotlight level must be within 0…1")
        self.level = level
        self.padding = padding
        lumaTable = (0..<256).map { UInt8(max(0, min(255, (16 + Double($0 - 16) * level).rounded()))) }
        chromaTable = (0..<256).map { UInt8(max(0, min(255, (128 + Double($0 - 128) * level).rounded()))) }
    }

    /// The dimmed value of one luma sample (for tests and documentation).
    public func dimmedLuma(_ value: UInt8) -> UInt8 { lumaTable[Int(value)] }
    /// The dimmed value of one chroma sample.
    public func dimmedChroma(_ value: UInt8) -> UInt8 { chromaTable[Int(value)] }

    public func draw(on frame: YUVPlanes, context: AnnotationContext) {
        scratch.state.withLock { state in
            state.boxes.removeAll(keepingCapacity: true)
            context.forEachDetection { detection in
                let box = detection.box
                guard box.x.isFinite, box.y.isFinite, box.width > 0, box.height > 0, box.maxX.isFinite, box.maxY.isFinite
                else { return }
                state.boxes.append(PixelBox(
                    x0: Int(box.x.rounded(.down)) - padding, y0: Int(box.y.rounded(.down)) - padding,
                    x1: Int(box.maxX.rounded(.up)) + padding, y1: Int(box.maxY.rounded(.up)) + padding))
            }
            if state.spans.capacity < state.boxes.count { state.spans.reserveCapacity(state.boxes.count * 2) }
            lumaTable.withUnsafeBufferPointer { table in
                dim(plane: frame.y, table: table, state: &state) { box in (box.x0, box.x1, box.y0, box.y1) }
            }
            chromaTable.withUnsafeBufferPointer { table in
                // Chroma block (c, r) covers luma 2c…2c+1; it touches [x0, x1) when 2c + 1 ≥ x0 and 2c < x1.
                let chromaBounds: (PixelBox) -> (Int, Int, Int, Int) = { box in
                    (floorHalf(box.x0), floorHalf(box.x1 + 1), floorHalf(box.y0), floorHalf(box.y1 + 1))
                }
                dim(plane: frame.u, table: table, state: &state, bounds: chromaBounds)
                dim(plane: frame.v, table: table, state: &state, bounds: chromaBounds)
            }
        }
    }

    /// Applies `table` to every sample of `plane` outside the boxes (mapped to the plane's grid by `bounds`:
    /// x0, x1, y0, y1 with exclusive ends).
    private func dim(
        plane: Plane, table: UnsafeBufferPointer<UInt8>, state: inout SpotlightState,
        bounds: (PixelBox) -> (Int, Int, Int, Int)
    ) {
        for row in 0..<plane.height {
            state.spans.removeAll(keepingCapacity: true)
            for box in state.boxes {
                let (x0, x1, y0, y1) = bounds(box)
                guard row >= y0, row < y1 else { continue }
                let start = max(0, x0), end = min(plane.width, x1)
                if start < end { state.spans.append(Span(start: start, end: end)) }
            }
            // Insertion sort: a handful of spans, already allocated.
            var index = 1
            while index < state.spans.count {
                let span = state.spans[index]
                var position = index - 1
                while position >= 0 && state.spans[position].start > span.start {
                    state.spans[position + 1] = state.spans[position]
                    position -= 1
                }
                state.spans[position + 1] = span
                index += 1
            }
            let line = plane.row(row)
            let step = plane.pixelStride
            var column = 0
            for span in state.spans {
                while column < span.start {
                    line[column * step] = table[Int(line[column * step])]
                    column += 1
                }
                column = max(column, span.end)
            }
            while column < plane.width {
                line[column * step] = table[Int(line[column * step])]
                column += 1
            }
        }
    }
}

/// ⌊value / 2⌋ for negative values too.
@inline(__always)
private func floorHalf(_ value: Int) -> Int { value >> 1 }

struct PixelBox: Sendable {
    var x0: Int, y0: Int, x1: Int, y1: Int
}

struct Span: Sendable {
    var start: Int
    var end: Int
}

struct SpotlightState: Sendable {
    var boxes: [PixelBox] = []
    var spans: [Span] = []
}

/// Buffers reused from frame to frame.
final class SpotlightScratch: Sendable {
    let state: Mutex<SpotlightState>

    init() {
        var initial = SpotlightState()
        initial.boxes.reserveCapacity(64)
        initial.spans.reserveCapacity(64)
        state = Mutex(initial)
    }
}
