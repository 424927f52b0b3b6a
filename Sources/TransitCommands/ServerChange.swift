import FetchRequest
import GTFS

/// How a command changes the feeds on a PostgreSQL server (`feeds remove`, `feeds upgrade`): the
/// change a file gets, made on a copy of the server's feeds in a scratch file, which is then
/// stored back in one transaction ending in the schema swap (as `transit import` does).
///
/// transit-postgres sets `change` at start-up; in `transit`, which does not link libpq, the
/// command line runs again there (`answerOnServerIfNeeded`).
package enum ServerChange {
    /// Makes `body`'s change to a scratch file holding the feeds of the server at `location`,
    /// then stores the file back on the server when `body` says it changed it (returns true);
    /// set by transit-postgres.
    nonisolated(unsafe) package static var change: ((_ location: String, _ body: (_ scratchFile: String) throws -> Bool) throws -> Void)?

    /// Runs `body` on `location` itself when it is a file, or on a scratch copy of the server's
    /// feeds, stored back when `body` returns true, when it is a PostgreSQL server.
    static func apply(to location: String, _ body: (_ path: String) throws -> Bool) throws {
        guard StoreLocation.isPostgres(location) else { return _ = try body(location) }
        try answerOnServerIfNeeded(location)
        guard let change else { throw StoreNotSupported(location: StoreLocation.redacted(location)) }
        try change(location, body)
    }
}
