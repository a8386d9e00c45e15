/// How a piece of text looks: font, size, colours and the padding of its background box.
public struct TextStyle: Sendable, Hashable {
    /// A fontconfig family name, e.g. "DejaVu Sans"; a missing family falls back to the default sans font.
    public var font: String
    /// Font size in pixels (em height).
    public var size: Double
    public var isBold: Bool
    public var colour: RGBAColor
    /// Box drawn behind the text; nil draws the text alone (with a thin dark outline so it stays readable).
    public var background: RGBAColor?
    /// Pixels between the text and the edge of its box.
    public var padding: Int
    /// Whether text without a background gets a one-pixel dark outline (ignored when there is a background).
    public var hasOutline: Bool

    public init(
        font: String = "DejaVu Sans", size: Double = 18, isBold: Bool = true, colour: RGBAColor = .white,
        background: RGBAColor? = nil, padding: Int? = nil, hasOutline: Bool = true
    ) {
        precondition(size > 0, "text size must be positive")
        self.font = font
        self.size = size
        self.isBold = isBold
        self.colour = colour
        self.background = background
        self.padding = padding ?? max(2, Int((size / 5).rounded()))
        self.hasOutline = hasOutline
    }
}
