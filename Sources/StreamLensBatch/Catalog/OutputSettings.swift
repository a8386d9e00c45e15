import Crypto
import Foundation

/// The settings that decide what a batch's output videos look like, as the catalog records them beside each file
/// (``CatalogInput/outputSettings``, the `output_settings` column): one line of `name=value` pairs in a fixed order,
/// such as `blur=faces style=gaussian margin=0.2 confidence=0.2 hold=1.0 model.faces=centerface.onnx@sha256:…
/// version=0.1.0`. A file recorded done with another line (or none: the empty line, which is also what catalogs
/// written before the column read as) is done again; with the same line it is skipped.
///
/// Today the line holds the privacy settings only: an output blurred otherwise than asked, or not at all, must never
/// be kept as done.
public enum OutputSettings {
    /// The pairs as one line, in the order given (`name=value`, separated by spaces).
    public static func line(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
    }

    /// A model's identity: its file name and the SHA-256 of its whole content (`centerface.onnx@sha256:09189d…`),
    /// so that another model under the same name is told apart.
    public static func modelIdentity(ofFileAt path: String) throws(BatchInputError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable(path: path) }
        defer { try? handle.close() }
        var hasher = SHA256()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        } catch {
            throw .unreadable(path: path)
        }
        let hash = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        return "\((path as NSString).lastPathComponent)@sha256:\(hash)"
    }
}
