import Foundation
import StreamLensCore

/// Paints simple signs straight into YUV planes, for locator tests that need exact geometry.
enum SyntheticSign {
    /// Limited-range YUV of the colours used.
    static let red: (y: UInt8, u: UInt8, v: UInt8) = (77, 106, 204)  // RGB 193, 18, 28: the josm ring
    static let orange: (y: UInt8, u: UInt8, v: UInt8) = (151, 53, 193)  // RGB 255, 128, 0
    static let white: (y: UInt8, u: UInt8, v: UInt8) = (235, 128, 128)
    static let grey: (y: UInt8, u: UInt8, v: UInt8) = (110, 128, 128)

    /// Sets every sample whose centre lies where `inside(x, y)` (luma coordinates) holds to `colour`; chroma samples
    /// are tested at their own centres.
    static func paint(
        _ planes: YUVPlanes, colour: (y: UInt8, u: UInt8, v: UInt8), where inside: (Double, Double) -> Bool
    ) {
        for y in 0..<planes.height {
            for x in 0..<planes.width where inside(Double(x) + 0.5, Double(y) + 0.5) { planes.y[x, y] = colour.y }
        }
        for y in 0..<planes.u.height {
            for x in 0..<planes.u.width where inside(Double(2 * x + 1), Double(2 * y + 1)) {
                planes.u[x, y] = colour.u
                planes.v[x, y] = colour.v
            }
        }
    }

    /// A round sign: white disc, ring of `ringColour` from 0.74 to 1 of `radius`, and two dark bars for digits.
    static func drawRingSign(
        _ planes: YUVPlanes, centerX: Double, centerY: Double, radius: Double,
        ringColour: (y: UInt8, u: UInt8, v: UInt8) = red, gapAngle: Double? = nil
    ) {
        paint(planes, colour: white) { x, y in hypot(x - centerX, y - centerY) <= radius }
        paint(planes, colour: ringColour) { x, y in
            let distance = hypot(x - centerX, y - centerY)
            guard distance >= 0.74 * radius, distance <= radius else { return false }
            if let gapAngle {
                let angle = atan2(y - centerY, x - centerX)
                return abs(angle - gapAngle) > 0.06
            }
            return true
        }
        paint(planes, colour: (30, 128, 128)) { x, y in
            let dy = abs(y - centerY)
            let dx = x - centerX
            return dy < 0.38 * radius && ((dx > -0.45 * radius && dx < -0.15 * radius) || (dx > 0.1 * radius && dx < 0.4 * radius))
        }
    }
}

