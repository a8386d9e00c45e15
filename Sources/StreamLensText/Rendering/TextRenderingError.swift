/// Errors of the text layer. Each reads as one line a user can act on.
public enum TextRenderingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Cairo could not create or draw a surface of this size (out of memory, absurd size).
    case surfaceFailed(width: Int, height: Int, status: String)
    /// A size or diameter outside what makes sense for a video overlay.
    case invalidSize(String)

    public var description: String {
        switch self {
        case .surfaceFailed(let width, let height, let status):
            "Cairo could not draw a \(width)×\(height) text surface: \(status); use a smaller text size"
        case .invalidSize(let detail):
            "invalid text or badge size: \(detail)"
        }
    }
}
