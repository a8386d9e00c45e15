import Crypto
import Foundation

/// What tells that an input changed: size, modification time and a SHA-256 of its first and last megabyte (reading
/// whole recordings to hash them would cost as much as decoding them; a dashcam rewrites the header and the tail).
public struct FileIdentity: Sendable, Equatable, Codable {
    public var size: Int64
    /// Seconds since 1970.
    public var modified: Double
    public var contentHash: String

    public init(size: Int64, modified: Double, contentHash: String) {
        self.size = size
        self.modified = modified
        self.contentHash = contentHash
    }

    /// How much of each end is hashed.
    static let sampledBytes = 1 << 20

    /// Reads the identity of the file at `path`.
    public init(ofFileAt path: String) throws(BatchInputError) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.int64Value,
            let modified = attributes[.modificationDate] as? Date,
            let handle = FileHandle(forReadingAtPath: path)
        else { throw .unreadable(path: path) }
        defer { try? handle.close() }
        var hasher = SHA256()
        do {
            hasher.update(data: try handle.read(upToCount: Self.sampledBytes) ?? Data())
            if size > Int64(Self.sampledBytes) {
                try handle.seek(toOffset: UInt64(max(Int64(Self.sampledBytes), size - Int64(Self.sampledBytes))))
                hasher.update(data: try handle.readToEnd() ?? Data())
            }
        } catch {
            throw .unreadable(path: path)
        }
        let hash = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        self.init(size: size, modified: modified.timeIntervalSince1970, contentHash: hash)
    }
}
