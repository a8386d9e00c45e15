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

/// Finds the connected regions of a byte mask (non-zero = foreground) with a flood fill.
///
/// `gapTolerance` widens connectivity: pixels up to that many samples apart (in x and y) belong to one region, so a
/// ring broken by a shadow or by chroma subsampling still comes out as one component. Buffers are kept between calls
/// and grow only when a larger mask arrives, so labelling a frame allocates nothing in steady state.
struct ComponentLabeler {
    private(set) var components: [MaskComponent] = []
    private var visited: [UInt8] = []
    private var stack: [Int32] = []

    /// Labels `mask` (`width` × `height`, row-major, `width` bytes per row) and fills ``components`` with regions of
    /// at least `minimumPixels` pixels.
    mutating func label(
        mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, gapTolerance: Int = 1, minimumPixels: Int = 1
    ) {
        let count = width * height
        precondition(mask.count >= count, "mask is smaller than \(width)×\(height)")
        if visited.count < count {
            visited = [UInt8](repeating: 0, count: count)
            stack = [Int32](repeating: 0, count: count)
        }
        components.removeAll(keepingCapacity: true)
        visited.withUnsafeMutableBufferPointer { visited in
            stack.withUnsafeMutableBufferPointer { stack in
                visited.baseAddress!.update(repeating: 0, count: count)
                for start in 0..<count where mask[start] != 0 && visited[start] == 0 {
                    var component = MaskComponent(
                        minX: start % width, minY: start / width, maxX: start % width, maxY: start / width,
                        pixelCount: 0)
                    var top = 0
                    stack[top] = Int32(start)
                    top += 1
                    visited[start] = 1
                    while top > 0 {
                        top -= 1
                        let index = Int(stack[top])
                        let x = index % width
                        let y = index / width
                        component.pixelCount += 1
                        component.minX = min(component.minX, x)
                        component.maxX = max(component.maxX, x)
                        component.minY = min(component.minY, y)
                        component.maxY = max(component.maxY, y)
                        for ny in max(0, y - gapTolerance)...min(height - 1, y + gapTolerance) {
                            let rowStart = ny * width
                            for nx in max(0, x - gapTolerance)...min(width - 1, x + gapTolerance) {
                                let neighbour = rowStart + nx
                                if mask[neighbour] != 0 && visited[neighbour] == 0 {
                                    visited[neighbour] = 1
                                    stack[top] = Int32(neighbour)
                                    top += 1
                                }
                            }
                        }
                    }
                    if component.pixelCount >= minimumPixels { components.append(component) }
                }
            }
        }
    }
}
