import StreamLensCore

/// Box blur for test pictures: soft, out-of-focus signs made from sharp ones.
enum BoxBlur {
    /// Blurs `plane` in place, `passes` times, with a (2 · `radius` + 1)² box; samples beyond the plane's edges repeat
    /// the edge, values round to nearest. Three passes come close to a Gaussian of sigma √(radius · (radius + 1)).
    static func blur(_ plane: Plane, radius: Int, passes: Int = 1) {
        var copy = [Int](repeating: 0, count: plane.width * plane.height)
        for _ in 0..<passes {
            for y in 0..<plane.height {
                for x in 0..<plane.width { copy[y * plane.width + x] = Int(plane[x, y]) }
            }
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    var sum = 0
                    var count = 0
                    for dy in -radius...radius {
                        for dx in -radius...radius {
                            let sx = min(max(x + dx, 0), plane.width - 1)
                            let sy = min(max(y + dy, 0), plane.height - 1)
                            sum += copy[sy * plane.width + sx]
                            count += 1
                        }
                    }
                    plane[x, y] = UInt8((sum + count / 2) / count)
                }
            }
        }
    }

    /// Smears `plane` in place along its rows with a `length`-sample box (a camera panning or shaking while the
    /// shutter is open); samples beyond the row's ends repeat the end, values round to nearest.
    static func smear(_ plane: Plane, length: Int) {
        var row = [Int](repeating: 0, count: plane.width)
        let before = (length - 1) / 2
        for y in 0..<plane.height {
            for x in 0..<plane.width { row[x] = Int(plane[x, y]) }
            for x in 0..<plane.width {
                var sum = 0
                for dx in -before..<(length - before) { sum += row[min(max(x + dx, 0), plane.width - 1)] }
                plane[x, y] = UInt8((sum + length / 2) / length)
            }
        }
    }

    /// The part of `plane` inside `box` grown by `margin` on every side (clipped to the plane), as a view of it.
    static func region(of plane: Plane, around box: BoundingBox, margin: Double) -> Plane {
        let left = max(0, Int(box.x - margin))
        let top = max(0, Int(box.y - margin))
        let right = min(plane.width, Int(box.x + box.width + margin))
        let bottom = min(plane.height, Int(box.y + box.height + margin))
        return Plane(
            base: plane.row(top) + left * plane.pixelStride, stride: plane.stride, pixelStride: plane.pixelStride,
            width: max(0, right - left), height: max(0, bottom - top))
    }
}
