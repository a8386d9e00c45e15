/// A straight (unpremultiplied) 8-bit RGBA colour, as a user writes it.
public struct RGBAColor: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// The red of a European speed-limit sign's ring.
    public static let signalRed = RGBAColor(red: 200, green: 16, blue: 46)

    /// The colour with `alpha` replaced.
    public func withAlpha(_ alpha: UInt8) -> RGBAColor {
        RGBAColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Relative luminance 0…1 (Rec. 709 weights on the 8-bit values): picks black or white text for a background.
    public var luminance: Double {
        (0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)) / 255
    }
}
