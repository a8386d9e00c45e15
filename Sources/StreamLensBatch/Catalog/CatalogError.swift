/// Errors of the batch catalog.
public enum CatalogError: Error, Sendable, CustomStringConvertible {
    /// `--catalog` is neither `sqlite:PATH` nor `postgresql://user@host:port/db`.
    case badLocation(String)
    /// The catalog could not be opened or reached.
    case cannotOpen(location: String, reason: String)
    /// A query failed.
    case queryFailed(location: String, reason: String)

    public var description: String {
        switch self {
        case .badLocation(let text):
            "bad catalog '\(text)': use sqlite:PATH or postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
        case .cannotOpen(let location, let reason):
            "cannot open catalog \(location): \(reason)"
        case .queryFailed(let location, let reason):
            "catalog \(location) failed: \(reason)"
        }
    }
}
