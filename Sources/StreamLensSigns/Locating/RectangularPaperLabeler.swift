/// Finds the 4-connected regions of a byte mask (non-zero = foreground) with a flood fill.
///
/// ``ComponentLabeler`` joins diagonal neighbours, which a sign's black border — one chroma sample thin on a small
/// or blurred sign — lets through at its corners, merging the white plate with a bright background. Joining only
/// left, right, up and down keeps the plate a region of its own.
///
/// After ``label(mask:width:height:minimumPixels:)``, ``labels`` maps each pixel to its component: `i + 1` for
/// `components[i]`, 0 for background, -2 for regions too small to keep. Buffers grow only when a larger mask arrives.
struct RectangularPaperLabeler {
    private(set) var components: [MaskComponent] = []
    private(set) var labels: [Int32] = []
    private var queue: [Int32] = []

    mutating func label(mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, minimumPixels: Int) {
        let count = width * height
        precondition(mask.count >= count, "mask is smaller than \(width)×\(height)")
        if labels.count < count {
            labels = [Int32](repeating: 0, count: count)
            queue = [Int32](repeating: 0, count: count)
        }
        components.removeAll(keepingCapacity: true)
        labels.withUnsafeMutableBufferPointer { labels in
            queue.withUnsafeMutableBufferPointer { queue in
                labels.baseAddress!.update(repeating: 0, count: count)
                for start in 0..<count where mask[start] != 0 && labels[start] == 0 {
                    var component = MaskComponent(
                        minX: start % width, minY: start / width, maxX: start % width, maxY: start / width,
                        pixelCount: 0)
                    // The queue keeps every pixel of the region (-1 while filling) for the final relabelling.
                    var head = 0
                    var tail = 1
                    queue[0] = Int32(start)
                    labels[start] = -1
                    while head < tail {
                        let index = Int(queue[head])
                        head += 1
                        let x = index % width
                        let y = index / width
                        component.pixelCount += 1
                        component.minX = min(component.minX, x)
                        component.maxX = max(component.maxX, x)
                        component.minY = min(component.minY, y)
                        component.maxY = max(component.maxY, y)
                        // Left, right, up, down.
                        for direction in 0..<4 {
                            let nx = x + (direction == 0 ? -1 : direction == 1 ? 1 : 0)
                            let ny = y + (direction == 2 ? -1 : direction == 3 ? 1 : 0)
                            guard nx >= 0, nx < width, ny >= 0, ny < height else { continue }
                            let neighbour = ny * width + nx
                            if mask[neighbour] != 0 && labels[neighbour] == 0 {
                                labels[neighbour] = -1
                                queue[tail] = Int32(neighbour)
                                tail += 1
                            }
                        }
                    }
                    let kept = component.pixelCount >= minimumPixels
                    if kept { components.append(component) }
                    let final: Int32 = kept ? Int32(components.count) : -2
                    for position in 0..<tail { labels[Int(queue[position])] = final }
                }
            }
        }
    }
}
