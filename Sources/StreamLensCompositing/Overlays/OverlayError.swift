/// Errors of the overlay layer (clip loading and overlay specifications). Each reads as one line a user can act on.
public enum OverlayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The clip file is not there (or not readable).
    case fileNotFound(path: String)
    /// GStreamer could not decode the file into frames with alpha.
    case undecodable(path: String, reason: String)
    /// Decoding produced no frame at all.
    case noFrames(path: String)
    /// The decoded loop does not fit the memory budget at the requested size.
    case overMemoryBudget(path: String, width: Int, height: Int, frames: Int, budget: Int)
    /// Decoding took longer than allowed.
    case timedOut(path: String, seconds: Int)
    /// An overlay specification (`PATH@x,y[,w,h]`, a rule) did not parse.
    case invalidSpecification(String, reason: String)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "overlay clip '\(path)' does not exist or is not readable; check the path"
        case .undecodable(let path, let reason):
            "overlay clip '\(path)' could not be decoded: \(reason); use WebM VP8/VP9 with alpha, ProRes 4444, qtrle, PNG, GIF, WebP or SVG"
        case .noFrames(let path):
            "overlay clip '\(path)' decoded to no frames; check that it contains video"
        case .overMemoryBudget(let path, let width, let height, let frames, let budget):
            "overlay clip '\(path)' needs more than \(budget / (1 << 20)) MiB decoded at \(width)×\(height) (\(frames)+ frames); draw it smaller, shorten it or raise the overlay memory budget"
        case .timedOut(let path, let seconds):
            "overlay clip '\(path)' took more than \(seconds) s to decode; shorten the clip"
        case .invalidSpecification(let specification, let reason):
            "invalid overlay '\(specification)': \(reason)"
        }
    }
}
