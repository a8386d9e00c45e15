/// Errors of the batch catalog.
public enum CatalogError: Error, Sendable, CustomStringConvertible {
    /// `--catalog` is neither `sqlite:PATH` nor `postgresql://user@host:port/db`.
    case badLocation(String)
    /// The catalog could not be opened or reached.
    case cannotOpen(location: String, reason: String)
    /// A query failed.
    case queryFailed(location: String, reason: String)
    /// Another file of the catalog (an earlier batch's) already writes `name` in `folder`.
    case outputNameTaken(name: String, folder: String, path: String)

    public var description: String {
        switch self {
        case .badLocation(let text):
            "bad catalog '\(Self.maskingPassword(in: text))': use sqlite:PATH or "
                + "postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
        case .cannotOpen(let location, let reason):
            "cannot open catalog \(location): \(reason)"
        case .queryFailed(let location, let reason):
            "catalog \(location) failed: \(reason)"
        case .outputNameTaken(let name, let folder, let path):
            "'\(name)' in '\(folder)' is already the output of '\(path)' (an earlier batch); its outputs would be "
                + "replaced: give this batch another --output-dir"
        }
    }

    /// `text` with the password of a `scheme://USER:PASSWORD@…` location replaced by `***`: an error line goes to
    /// logs and terminals that others read.
    static func maskingPassword(in text: String) -> String {
        guard let schemeEnd = text.range(of: "://"), let at = text[schemeEnd.upperBound...].lastIndex(of: "@"),
            let colon = text[schemeEnd.upperBound..<at].firstIndex(of: ":")
        else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }
}
