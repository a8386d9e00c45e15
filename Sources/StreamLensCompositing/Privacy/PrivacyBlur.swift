import StreamLensCore

/// How a privacy region is hidden.
public enum PrivacyBlurStyle: String, Sendable, Equatable, CaseIterable {
    /// Three box-blur passes per axis (close to a gaussian), radius a fifth of the region's shorter side.
    case gaussian
    /// Blocks of a quarter of the region's shorter side, each filled with its mean.
    case pixelate
    /// Black (Y 16, U and V 128).
    case solid
}

/// The shape hidden inside a region's rectangle.
public enum PrivacyBlurShape: Sendable, Equatable {
    case rectangle
    /// The ellipse inscribed in the rectangle (faces).
    case ellipse
}

/// A rectangle of a frame to hide, in whole luma pixels: columns `left..<right`, rows `top..<bottom`.
public struct PrivacyRect: Sendable, Equatable {
    public var left: Int
    public var top: Int
    public var right: Int
    public var bottom: Int

    public init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    /// `box` grown by `margin` of its width (left and right) and height (top and bottom) on each side, rounded
    /// outwards to whole pixels and clipped to a `width` × `height` frame; nil when nothing of it is inside.
    public init?(box: BoundingBox, margin: Double, width: Int, height: Int) {
        let grownX = box.width * margin
        let grownY = box.height * margin
        let left = max(0, Int((box.x - grownX).rounded(.down)))
        let top = max(0, Int((box.y - grownY).rounded(.down)))
        let right = min(width, Int((box.maxX + grownX).rounded(.up)))
        let bottom = min(height, Int((box.maxY + grownY).rounded(.up)))
        guard right > left, bottom > top else { return nil }
        self.init(left: left, top: top, right: right, bottom: bottom)
    }

    public var width: Int { right - left }
    public var height: Int { bottom - top }
}

/// Hides rectangles and ellipses of a YUV 4:2:0 frame (I420 or NV12, any size, odd ones included) in place: on the
/// luma plane and on both subsampled chroma planes, so that neither brightness nor colour of what was there is left.
///
/// The kernels, per plane (the chroma planes use the rectangle halved: columns `left / 2 ..< (right + 1) / 2`):
/// - gaussian: a box blur of radius r along rows, then along columns, three times over; samples beyond the
///   rectangle repeat its edge, each pass rounds `(sum + n / 2) / n` with n = 2r + 1. r = max(1, shorter side / 5)
///   on luma, max(1, (r + 1) / 2) on chroma.
/// - pixelate: blocks of b = max(2, shorter side / 4) luma samples (max(1, b / 2) chroma) from the rectangle's
///   corner, each set to the rounded mean of its samples inside the rectangle.
/// - solid: Y 16, U and V 128.
/// Only the samples whose centre lies inside the shape are written; for the ellipse, a sample at (x, y) of a plane
/// subsampled by s has its centre at ((x + 0.5) s, (y + 0.5) s) in luma pixels.
///
/// ## Thread Safety
/// Keeps scratch rows reused across regions and frames (grown only for a larger region than before): one thread at
/// a time.
public final class PrivacyBlurrer: @unchecked Sendable {
    private var scratch: UnsafeMutablePointer<Int32>
    private var scratchCapacity: Int
    private var mask: UnsafeMutablePointer<UInt8>
    private var maskCapacity: Int

    public init() {
        scratchCapacity = 64 * 64 * 2
        scratch = .allocate(capacity: scratchCapacity)
        maskCapacity = 64 * 64
        mask = .allocate(capacity: maskCapacity)
    }

    deinit {
        scratch.deallocate()
        mask.deallocate()
    }

    /// Hides `shape` inside `rect` (luma pixels, inside the frame) with `style`.
    public func hide(_ rect: PrivacyRect, shape: PrivacyBlurShape, style: PrivacyBlurStyle, in frame: YUVPlanes) {
        let clipped = PrivacyRect(
            left: max(0, rect.left), top: max(0, rect.top), right: min(frame.width, rect.right),
            bottom: min(frame.height, rect.bottom))
        guard clipped.width > 0, clipped.height > 0 else { return }
        let shorter = min(clipped.width, clipped.height)
        let radius = max(1, shorter / 5)
        let block = max(2, shorter / 4)
        let chromaRect = PrivacyRect(
            left: clipped.left / 2, top: clipped.top / 2, right: min(frame.u.width, (clipped.right + 1) / 2),
            bottom: min(frame.u.height, (clipped.bottom + 1) / 2))
        let luma = PlaneJob(rect: clipped, subsampling: 1, radius: radius, block: block, fill: 16)
        let chroma = PlaneJob(
            rect: chromaRect, subsampling: 2, radius: max(1, (radius + 1) / 2), block: max(1, block / 2), fill: 128)
        hide(frame.y, job: luma, ellipseOf: clipped, shape: shape, style: style)
        hide(frame.u, job: chroma, ellipseOf: clipped, shape: shape, style: style)
        hide(frame.v, job: chroma, ellipseOf: clipped, shape: shape, style: style)
    }

    /// One plane's part of a region.
    private struct PlaneJob {
        var rect: PrivacyRect
        var subsampling: Int
        var radius: Int
        var block: Int
        var fill: UInt8
    }

    /// Whether the sample at (`x`, `y`) of a plane subsampled by `subsampling` lies inside the ellipse inscribed in
    /// `luma` (luma pixels). Shared with the tests' reference through its documented formula.
    @inline(__always)
    static func insideEllipse(x: Int, y: Int, subsampling: Int, luma: PrivacyRect) -> Bool {
        let s = Double(subsampling)
        let dx = ((Double(x) + 0.5) * s - Double(luma.left + luma.right) / 2) / (Double(luma.width) / 2)
        let dy = ((Double(y) + 0.5) * s - Double(luma.top + luma.bottom) / 2) / (Double(luma.height) / 2)
        return dx * dx + dy * dy <= 1
    }

    private func hide(
        _ plane: Plane, job: PlaneJob, ellipseOf luma: PrivacyRect, shape: PrivacyBlurShape, style: PrivacyBlurStyle
    ) {
        let rect = job.rect
        let w = rect.width
        let h = rect.height
        guard w > 0, h > 0 else { return }
        let count = w * h
        if maskCapacity < count {
            mask.deallocate()
            maskCapacity = count
            mask = .allocate(capacity: count)
        }
        for row in 0..<h {
            for column in 0..<w {
                let inside = shape == .rectangle
                    || Self.insideEllipse(
                        x: rect.left + column, y: rect.top + row, subsampling: job.subsampling, luma: luma)
                mask[row * w + column] = inside ? 1 : 0
            }
        }
        switch style {
        case .solid:
            write(plane, rect: rect) { _ in Int32(job.fill) }
        case .pixelate:
            pixelate(plane, rect: rect, block: job.block)
        case .gaussian:
            gaussian(plane, rect: rect, radius: job.radius)
        }
    }

    /// Writes `value(index)` (index into the rectangle, row-major) to every masked sample of the rectangle.
    @inline(__always)
    private func write(_ plane: Plane, rect: PrivacyRect, value: (Int) -> Int32) {
        let w = rect.width
        for row in 0..<rect.height {
            let line = plane.row(rect.top + row) + rect.left * plane.pixelStride
            for column in 0..<w where mask[row * w + column] != 0 {
                line[column * plane.pixelStride] = UInt8(truncatingIfNeeded: value(row * w + column))
            }
        }
    }

    private func ensureScratch(_ count: Int) {
        guard scratchCapacity < count else { return }
        scratch.deallocate()
        scratchCapacity = count
        scratch = .allocate(capacity: count)
    }

    private func pixelate(_ plane: Plane, rect: PrivacyRect, block: Int) {
        let w = rect.width
        let h = rect.height
        ensureScratch(w * h)
        var blockTop = 0
        while blockTop < h {
            let blockBottom = min(h, blockTop + block)
            var blockLeft = 0
            while blockLeft < w {
                let blockRight = min(w, blockLeft + block)
                var sum = 0
                for row in blockTop..<blockBottom {
                    let line = plane.row(rect.top + row) + rect.left * plane.pixelStride
                    for column in blockLeft..<blockRight { sum += Int(line[column * plane.pixelStride]) }
                }
                let n = (blockBottom - blockTop) * (blockRight - blockLeft)
                let mean = Int32((sum + n / 2) / n)
                for row in blockTop..<blockBottom {
                    for column in blockLeft..<blockRight { scratch[row * w + column] = mean }
                }
                blockLeft = blockRight
            }
            blockTop = blockBottom
        }
        let values = scratch
        write(plane, rect: rect) { values[$0] }
    }

    /// Three box-blur passes per axis, in `scratch` (two rectangles: source and destination of each pass).
    private func gaussian(_ plane: Plane, rect: PrivacyRect, radius: Int) {
        let w = rect.width
        let h = rect.height
        let count = w * h
        ensureScratch(count * 2)
        var source = scratch
        var target = scratch + count
        for row in 0..<h {
            let line = plane.row(rect.top + row) + rect.left * plane.pixelStride
            for column in 0..<w { source[row * w + column] = Int32(line[column * plane.pixelStride]) }
        }
        let n = Int32(2 * radius + 1)
        for _ in 0..<3 {
            // Along rows: a running sum over the window, edges repeated.
            for row in 0..<h {
                let input = source + row * w
                let output = target + row * w
                var sum: Int32 = 0
                for k in -radius...radius { sum += input[min(max(k, 0), w - 1)] }
                for column in 0..<w {
                    output[column] = (sum + n / 2) / n
                    sum += input[min(column + radius + 1, w - 1)] - input[max(column - radius, 0)]
                }
            }
            swap(&source, &target)
            // Along columns.
            for column in 0..<w {
                var sum: Int32 = 0
                for k in -radius...radius { sum += source[min(max(k, 0), h - 1) * w + column] }
                for row in 0..<h {
                    target[row * w + column] = (sum + n / 2) / n
                    sum += source[min(row + radius + 1, h - 1) * w + column] - source[max(row - radius, 0) * w + column]
                }
            }
            swap(&source, &target)
        }
        let values = source
        write(plane, rect: rect) { values[$0] }
    }
}
