import StreamLensText

/// A colour per detection class, stable across runs: the class id picks from the palette, or, without one, a hash
/// of the class name does (FNV-1a, not Swift's per-process seeded hash). Overrides name classes explicitly.
public struct ClassPalette: Sendable {
    public let colours: [RGBAColor]
    public let overrides: [String: RGBAColor]

    public init(colours: [RGBAColor] = ClassPalette.standardColours, overrides: [String: RGBAColor] = [:]) {
        precondition(!colours.isEmpty, "a palette needs at least one colour")
        self.colours = colours
        self.overrides = overrides
    }

    /// Ten saturated colours that stay distinct on video and behind white or black text.
    public static let standardColours: [RGBAColor] = [
        RGBAColor(red: 230, green: 25, blue: 75), RGBAColor(red: 60, green: 180, blue: 75),
        RGBAColor(red: 0, green: 130, blue: 200), RGBAColor(red: 245, green: 130, blue: 48),
        RGBAColor(red: 145, green: 30, blue: 180), RGBAColor(red: 70, green: 240, blue: 240),
        RGBAColor(red: 240, green: 50, blue: 230), RGBAColor(red: 210, green: 245, blue: 60),
        RGBAColor(red: 255, green: 225, blue: 25), RGBAColor(red: 128, green: 128, blue: 0),
    ]

    /// Index into ``colours`` of a class (ignored when the class has an override).
    public func index(className: String, classID: Int) -> Int {
        if classID >= 0 { return classID % colours.count }
        var hash: UInt32 = 2_166_136_261
        for byte in className.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return Int(hash % UInt32(colours.count))
    }

    public func colour(className: String, classID: Int) -> RGBAColor {
        overrides[className] ?? colours[index(className: className, classID: classID)]
    }
}
