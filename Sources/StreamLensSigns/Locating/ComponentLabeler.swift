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
/// After ``label(mask:width:height:gapTolerance:minimumPixels:)``, ``labels`` maps each pixel to its component:
/// `i + 1` for `components[i]`, 0 for background, negative for regions too small to keep.
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
    /// The pixels of the region being filled. A region holds at most the mask's foreground pixels, so it grows to the
    /// most foreground pixels a mask has had, not to the mask's size (a red mask is mostly background).
    private var stack: [Int32] = []

    /// Labels `mask` (`width` × `height`, row-major, `width` bytes per row) and fills ``components`` with regions of
    /// at least `minimumPixels` pixels.
    mutating func label(
        mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, gapTolerance: Int = 1, joinsDiagonals: Bool = true,
        minimumPixels: Int = 1
    ) {
        let count = width * height
        precondition(mask.count >= count, "mask is smaller than \(width)×\(height)")
        if labels.count < count { labels = [Int32](repeating: 0, count: count) }
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
        // While filling, a pixel holds -1 (queued); a finished region is relabelled with its final value.
        labels.withUnsafeMutableBufferPointer { labels in
            stack.withUnsafeMutableBufferPointer { stack in
                labels.baseAddress!.update(repeating: 0, count: count)
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
                    guard mask[start] != 0, labels[start] == 0 else { continue }
                    var component = MaskComponent(
                        minX: start % width, minY: start / width, maxX: start % width, maxY: start / width,
                        pixelCount: 0)
                    // The stack keeps every pixel of the region: `filled` pixels are done, the rest still queued.
                    var top = 0
                    var filled = 0
                    stack[top] = Int32(start)
                    top += 1
                    labels[start] = -1
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
                            where joinsDiagonals || nx == x || ny == y {
                                let neighbour = rowStart + nx
                                if mask[neighbour] != 0 && labels[neighbour] == 0 {
                                    labels[neighbour] = -1
                                    stack[top] = Int32(neighbour)
                                    top += 1
                                }
                            }
                        }
                    }
                    let kept = component.pixelCount >= minimumPixels
                    if kept { components.append(component) }
                    // Small regions get -2: visited, but no component.
                    let final: Int32 = kept ? Int32(components.count) : -2
                    for position in 0..<top { labels[Int(stack[position])] = final }
                }
            }
        }
    }
}
