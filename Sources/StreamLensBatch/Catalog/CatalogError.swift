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

    /// The exit status of a command that stops on this error: a location that is not one is a bad argument (2).
    public var exitStatus: Int32 {
        if case .badLocation = self { 2 } else { 1 }
    }

    public var description: String {
        switch self {
        case .badLocation(let text):
            "bad catalog '\(Self.maskingPassword(in: text))': use sqlite:PATH or "
                + "postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
                + (text.contains("://") ? " (write @ / : % in a user or password as %40 %2F %3A %25)" : "")
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
