import StreamLensCore

/// The grey band across the middle of a candidate's inner disc, where a speed value's digits stand, resampled to
/// ``TextLineRecogniser/inputHeight`` rows for the text-line recogniser: luma stretched between its 5th and 95th
/// percentiles (a dim or backlit disc then reads like a lit one: GTSRB held-out 16 → 18 signs), not flattened or
/// binarised — the network reads soft and smeared strokes that a threshold would merge.
///
/// The band spans ±``halfHeightShare`` of the inner radius vertically (digits are about 0.9 of the radius tall) and
/// ±``halfWidthShare`` horizontally (three digits, a little ring at the sides is harmless), so its shape is that of
/// a short line of text whatever the sign's size; an ellipse seen at an angle is squeezed back to a circle.
///
/// A band whose 5th and 95th luma percentiles lie less than ``minimumSpread`` apart holds no legible ink and is not
/// worth a read (a read costs about 15 ms): on the second real-photo set the flattest band read right spread 16
/// levels, while 11 of the 17 sign-free candidates of the dashcam clip (bikes-1080p) spread 2–15.
///
/// ## Thread Safety
/// Not synchronized: keeps its picture between calls. Use one per analysis thread.
struct TextLineBand {
    static let halfHeightShare = 0.55
    static let halfWidthShare = 0.85
    static let minimumSpread = 16

    /// The last prepared band, `width` × ``TextLineRecogniser/inputHeight``, row-major.
    private(set) var pixels = [UInt8](
        repeating: 0, count: TextLineRecogniser.inputWidth * TextLineRecogniser.inputHeight)
    private(set) var width = 0
    /// 95th − 5th luma percentile of the last prepared band.
    private(set) var spread = 0
    private var histogram = LumaHistogram()

    /// Resamples `candidate`'s band from the luma plane; false when the band reaches out of the frame or is too flat
    /// to hold digits (``minimumSpread``).
    mutating func prepare(planes: YUVPlanes, candidate: RingCandidate) -> Bool {
        let halfWidth = candidate.innerRadiusX * Self.halfWidthShare
        let halfHeight = candidate.innerRadiusY * Self.halfHeightShare
        guard halfWidth >= 1, halfHeight >= 1, candidate.centerX - halfWidth >= 0, candidate.centerY - halfHeight >= 0,
            candidate.centerX + halfWidth <= Double(planes.width), candidate.centerY + halfHeight <= Double(planes.height)
        else { return false }
        let height = TextLineRecogniser.inputHeight
        // The band's shape on a round disc (an ellipse's two radii scale the two directions apart, so one seen at an
        // angle comes out round): 48 rows, 74 columns.
        let aspect = Self.halfWidthShare / Self.halfHeightShare
        width = min(TextLineRecogniser.inputWidth, Int((Double(height) * aspect).rounded()))
        let left = candidate.centerX - halfWidth
        let top = candidate.centerY - halfHeight
        let stepX = 2 * halfWidth / Double(width)
        let stepY = 2 * halfHeight / Double(height)
        for row in 0..<height {
            // Pixel centres: sample (x + 0.5) · step from the band's edge, in plane coordinates (centre at + 0.5).
            let sourceY = top + (Double(row) + 0.5) * stepY - 0.5
            for column in 0..<width {
                let sourceX = left + (Double(column) + 0.5) * stepX - 0.5
                pixels[row * width + column] = UInt8(planes.y.bilinear(x: sourceX, y: sourceY).rounded())
            }
        }
        let count = width * height
        histogram.removeAll()
        for index in 0..<count { histogram.add(pixels[index]) }
        let dark = histogram.percentile(total: count, share: 0.05)
        let bright = histogram.percentile(total: count, share: 0.95)
        spread = bright - dark
        guard spread >= Self.minimumSpread else { return false }
        // Stretched so the 5th percentile is black and the 95th white: a dim or backlit disc reads like a lit one.
        for index in 0..<count { pixels[index] = LumaHistogram.stretched(pixels[index], dark: dark, bright: bright) }
        return true
    }
}
