import Synchronization
@testable import StreamLensCompositing

/// An in-memory clip loader: every path except "missing…" yields a clip of opaque solid frames whose luma is
/// `10 × (frame index + 1)`, at the requested size (16×16 by default, square when one side is given).
final class TestClipLoader: OverlayClipLoader {
    let frameCount: Int
    let frameRate: FrameRate
    let alpha: UInt8
    private let requests = Mutex<[OverlayClipRequest]>([])

    init(frameCount: Int = 3, frameRate: FrameRate = FrameRate(25), alpha: UInt8 = 255) {
        self.frameCount = frameCount
        self.frameRate = frameRate
        self.alpha = alpha
    }

    /// Every request served so far, in order.
    var loaded: [OverlayClipRequest] { requests.withLock { $0 } }

    static func luma(ofFrame index: Int) -> UInt8 { UInt8(10 * (index + 1)) }

    func loadClip(_ request: OverlayClipRequest) throws(OverlayError) -> any OverlayClipSource {
        requests.withLock { $0.append(request) }
        if request.path.hasPrefix("missing") { throw .fileNotFound(path: request.path) }
        let width = request.width ?? request.height ?? 16
        let height = request.height ?? request.width ?? 16
        let frames = (0..<frameCount).map {
            OverlayTile(width: width, height: height, color: YUVColor(y: Self.luma(ofFrame: $0), u: 128, v: 128), alpha: alpha)
        }
        return OverlayClip(name: request.path, frames: frames, timing: .constant(frameRate, frameCount: frameCount))
    }
}

/// Collects warnings.
final class WarningLog: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func record(_ line: String) { lines.withLock { $0.append(line) } }
}
