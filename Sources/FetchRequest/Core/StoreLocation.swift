/// Where a database lives, as `--db` and `$TRANSIT_DB` give it: a file path for SQLite (the
/// default), or a `postgres://` / `postgresql://` URL for a PostgreSQL server.
public enum StoreLocation {
    /// Whether `location` names a PostgreSQL server rather than a file.
    public static func isPostgres(_ location: String) -> Bool {
        let lower = location.prefix(13).lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }
}

/// A program that does not link a server's client (no `Database.storeOpener`) was pointed at a
/// PostgreSQL server: `transit` runs transit-postgres for such URLs, so this is seen only when a
/// helper is run by hand.
public struct StoreNotSupported: Error, CustomStringConvertible, Sendable {
    /// The URL (any password left out by the caller).
    public let location: String

    public init(location: String) { self.location = location }

    public var description: String {
        "\(location) is a PostgreSQL server, which this program cannot open: run it through `transit` (docs/postgres.md)"
    }
}

extension StoreLocation {
    /// `url` without its password (`postgres://user:secret@host` → `postgres://user@host`), for
    /// messages and summaries.
    public static func redacted(_ url: String) -> String {
        guard let scheme = url.firstRange(of: "://"), let at = url[scheme.upperBound...].lastIndex(of: "@") else { return url }
        let user = url[scheme.upperBound..<at]
        guard let colon = user.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + String(url[at...])
    }
}
