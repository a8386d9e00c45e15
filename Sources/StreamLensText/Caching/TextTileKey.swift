/// What identifies a rendered label: its text and its style.
public struct TextTileKey: Sendable, Hashable {
    public var text: String
    public var style: TextStyle

    public init(text: String, style: TextStyle) {
        self.text = text
        self.style = style
    }
}
