internal import COpenCVSigns
import StreamLensCore

/// Circles in a luma plane from OpenCV's gradient Hough transform (COpenCVSigns, circles.cpp): shape evidence that
/// does not depend on colour, for rings too dark or too grey to pass the red mask.
///
/// The plane is searched on a copy shrunk by ``downscale`` so that a 1080p frame costs a few milliseconds; radii and
/// centres come back in the plane's own pixels. Owns the bridge handle; `deinit` is its only release site.
///
/// ## Thread Safety
/// Not synchronized: the handle keeps OpenCV's working images. One finder per analysis thread.
final class CircleFinder {
    /// A circle in luma pixels.
    struct Circle: Equatable {
        var x: Double
        var y: Double
        var radius: Double
    }

    /// Upper Canny threshold of the luma edges the circles are voted from (OpenCV's param1).
    var edgeThreshold = 60.0
    /// Votes a centre needs (OpenCV's param2): lower finds fainter and smaller circles, and more false ones.
    var accumulatorThreshold = 14.0

    private let handle: OpaquePointer
    private var options = slcv_circle_options()
    private var found = [slcv_circle](repeating: slcv_circle(), count: 64)
    private var errorBuffer = [CChar](repeating: 0, count: 256)
    /// Circles of the last ``find(near:radius:in:)``, best supported first.
    private(set) var circles: [Circle] = []

    /// Nil when the bridge could not make its handle (out of memory): the locator then works on colour alone.
    init?() {
        var handle: OpaquePointer?
        let status = errorBuffer.withUnsafeMutableBufferPointer {
            slcv_circle_finder_create(&handle, $0.baseAddress, $0.count)
        }
        guard status == SLCV_OK, let handle else { return nil }
        self.handle = handle
        slcv_circle_default_options(&options)
        circles.reserveCapacity(found.count)
    }

    deinit { slcv_circle_finder_destroy(handle) }

    /// Finds circles centred near `center` with radii from 0.55 to 1.25 × `radius` (luma pixels; `radiusRange` sets
    /// other factors), searching only the patch of ±1.6 radii around it, at half size when the radius exceeds 40 px.
    /// An OpenCV failure leaves ``circles`` empty: the candidate is then simply not confirmed, and a frame is not worth
    /// failing the run for.
    func find(
        near center: (x: Double, y: Double), radius: Double, in luma: Plane, radiusRange: ClosedRange<Double> = 0.55...1.25
    ) {
        circles.removeAll(keepingCapacity: true)
        let reach = 1.6 * radius
        let left = max(0, Int(center.x - reach))
        let top = max(0, Int(center.y - reach))
        let right = min(luma.width, Int((center.x + reach).rounded(.up)))
        let bottom = min(luma.height, Int((center.y + reach).rounded(.up)))
        guard right - left >= 8, bottom - top >= 8 else { return }
        options.downscale = radius > 40 ? 2 : 1
        options.min_radius = Float(max(2, radiusRange.lowerBound * radius))
        options.max_radius = Float(radiusRange.upperBound * radius)
        options.edge_threshold = edgeThreshold
        options.accumulator_threshold = accumulatorThreshold
        var count: Int32 = 0
        let patch = luma.row(top) + left
        let status = found.withUnsafeMutableBufferPointer { found in
            errorBuffer.withUnsafeMutableBufferPointer { error in
                slcv_circle_finder_find(
                    handle, patch, Int32(luma.stride), Int32(right - left), Int32(bottom - top), &options,
                    found.baseAddress, Int32(found.count), &count, error.baseAddress, error.count)
            }
        }
        guard status == SLCV_OK else { return }
        for index in 0..<Int(count) {
            let circle = found[index]
            circles.append(Circle(
                x: Double(circle.x) + Double(left), y: Double(circle.y) + Double(top), radius: Double(circle.radius)))
        }
    }
}
