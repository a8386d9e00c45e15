/// The RGB ↔ YUV matrix of a video, used when a tile is made from RGB (text, badges) and when annotators pick
/// colours. Limited ("studio") range: luma 16…235, chroma 16…240 centred on 128.
public enum ColorMatrix: String, Sendable, Equatable, CaseIterable {
    /// ITU-R BT.601: standard-definition video.
    case bt601
    /// ITU-R BT.709: high-definition video (the default; GStreamer picks it for HD sizes).
    case bt709

    /// The matrix to assume for a video that does not state one: BT.709 from 720 lines up, BT.601 below (the
    /// convention GStreamer follows for YUV caps without colorimetry). `rawValue` is also GStreamer's colorimetry
    /// name, for the overlay decoder's caps.
    public static func assumed(forWidth width: Int, height: Int) -> ColorMatrix {
        height >= 720 || width > 1024 ? .bt709 : .bt601
    }

    /// Luma weight of red (Kr) and blue (Kb); green gets the rest.
    var redAndBlueWeights: (red: Double, blue: Double) {
        switch self {
        case .bt601: (0.299, 0.114)
        case .bt709: (0.2126, 0.0722)
        }
    }

    /// Limited-range Y, U, V (unrounded, 0…255 scale) of an RGB colour with components 0…1.
    ///
    /// Linear in (r, g, b) apart from the offsets, which is what lets ``OverlayTile`` convert premultiplied RGB
    /// directly: scale the offsets by alpha instead of dividing the colour by it.
    func yuv(red: Double, green: Double, blue: Double, coverage: Double = 1) -> (y: Double, u: Double, v: Double) {
        let (kr, kb) = redAndBlueWeights
        let luma = kr * red + (1 - kr - kb) * green + kb * blue
        let blueDifference = (blue - luma) / (2 * (1 - kb))
        let redDifference = (red - luma) / (2 * (1 - kr))
        return (16 * coverage + 219 * luma, 128 * coverage + 224 * blueDifference, 128 * coverage + 224 * redDifference)
    }
}

/// An opaque colour as 8-bit limited-range Y, U, V: what annotators write into frames.
public struct YUVColor: Sendable, Equatable, Hashable {
    public var y: UInt8
    public var u: UInt8
    public var v: UInt8

    public init(y: UInt8, u: UInt8, v: UInt8) {
        self.y = y
        self.u = u
        self.v = v
    }

    /// Converts an 8-bit sRGB-style colour with `matrix`.
    public init(red: UInt8, green: UInt8, blue: UInt8, matrix: ColorMatrix = .bt709) {
        let converted = matrix.yuv(red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255)
        self.init(y: clampedByte(converted.y), u: clampedByte(converted.u), v: clampedByte(converted.v))
    }

    public static let black = YUVColor(y: 16, u: 128, v: 128)
    public static let white = YUVColor(y: 235, u: 128, v: 128)
}

/// Rounds and clamps to 0…255.
@inline(__always)
func clampedByte(_ value: Double) -> UInt8 {
    UInt8(max(0, min(255, value.rounded())))
}
