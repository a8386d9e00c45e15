import Foundation

/// Where a catalog lives: `sqlite:PATH` (or a path ending in .sqlite/.db) or
/// `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (`postgres://` too).
public enum CatalogLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresAddress)

    /// A PostgreSQL server and database.
    public struct PostgresAddress: Sendable, Equatable {
        public var user: String
        public var password: String?
        public var host: String
        public var port: Int
        public var database: String
    }

    public init(parsing text: String) throws(CatalogError) {
        if text.hasPrefix("sqlite:") {
            var path = String(text.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty else { throw .badLocation(text) }
            self = .sqlite(path: path)
            return
        }
        if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") {
            guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty,
                let user = components.user, !user.isEmpty
            else { throw .badLocation(text) }
            let database = String(components.path.drop { $0 == "/" })
            guard !database.isEmpty, !database.contains("/") else { throw .badLocation(text) }
            if let port = components.port, !(1...65535).contains(port) { throw .badLocation(text) }
            // `user` and `password` come decoded once already: decoding again dropped a password holding "%" written
            // as "%25" (libpq decodes once).
            self = .postgres(PostgresAddress(
                user: user, password: components.password, host: host, port: components.port ?? 5432, database: database))
            return
        }
        if !text.contains("://"), text.hasSuffix(".sqlite") || text.hasSuffix(".db") {
            self = .sqlite(path: text)
            return
        }
        throw .badLocation(text)
    }

    /// The location as a user would write it, without a password.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let address): "postgresql://\(address.user)@\(address.host):\(address.port)/\(address.database)"
        }
    }

    /// Opens (and, when new and `create`, creates) the catalog. Queries open without `create`: a mistyped path is an
    /// error, not a new empty catalog.
    public func open(create: Bool = true) async throws(CatalogError) -> any BatchCatalog {
        switch self {
        case .sqlite(let path):
            if !create, !FileManager.default.fileExists(atPath: path) {
                throw .cannotOpen(location: description, reason: "no such file (a batch creates it: streamlens batch … --catalog \(description))")
            }
            return try await SQLiteCatalog.open(path: path, create: create)
        case .postgres(let address): return try await PostgresCatalog.open(address, create: create)
        }
    }
}
