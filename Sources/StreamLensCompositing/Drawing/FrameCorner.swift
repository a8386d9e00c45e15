/// A corner of the frame, for things pinned to it (badge, HUD, overlays).
public enum FrameCorner: String, Sendable, CaseIterable, Codable {
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"

    /// Top-left position of a `width` × `height` item placed in this corner `margin` pixels from the edges.
    public func origin(width: Int, height: Int, frameWidth: Int, frameHeight: Int, margin: Int) -> (x: Int, y: Int) {
        let left = margin, right = frameWidth - margin - width
        let top = margin, bottom = frameHeight - margin - height
        switch self {
        case .topLeft: return (left, top)
        case .topRight: return (right, top)
        case .bottomLeft: return (left, bottom)
        case .bottomRight: return (right, bottom)
        }
    }
}
