/// A decoded looping overlay clip: its frames as ready-to-blend tiles, and their timing.
///
/// StreamLensFramePath's `OverlayClipDecoder` produces these from files; tests use ``OverlayClip`` built in memory.
///
/// ## Thread Safety
/// Immutable once made; shared between the loader thread and the processing thread.
public protocol OverlayClipSource: AnyObject, Sendable {
    /// The file it came from, for messages.
    var name: String { get }
    /// Size of every frame, in pixels.
    var width: Int { get }
    var height: Int { get }
    var timing: LoopTiming { get }
    /// Frame `index` (0 ..< `timing.frameCount`).
    func frame(at index: Int) -> OverlayTile
    /// Memory held by the decoded frames.
    var byteCount: Int { get }
}

extension OverlayClipSource {
    public var frameCount: Int { timing.frameCount }
}

/// Which clip, at which size. Nil sizes keep the clip's own size; one nil side keeps the aspect ratio.
public struct OverlayClipRequest: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var width: Int?
    public var height: Int?

    public init(path: String, width: Int? = nil, height: Int? = nil) {
        self.path = path
        self.width = width
        self.height = height
    }

    public var description: String {
        "\(path) at \(width.map(String.init) ?? "auto")×\(height.map(String.init) ?? "auto")"
    }
}

/// Loads (decodes) clips. Called on the overlay cache's loader thread or during preroll, never per frame.
public protocol OverlayClipLoader: Sendable {
    func loadClip(_ request: OverlayClipRequest) throws(OverlayError) -> any OverlayClipSource
}
