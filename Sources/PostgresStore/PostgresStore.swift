import FetchRequest

/// The PostgreSQL store behind a `Database` opened on a `postgres://` URL: the feeds an import
/// stored in schema `transit` (StorePublisher), read with the same requests as a file.
///
/// A read-only open reads in one `REPEATABLE READ READ ONLY` transaction per `BEGIN`, so a command
/// sees one snapshot of the feeds, as a file's read transaction does; on a hot standby too.
public final class PostgresStore: StoreConnection {
    let connection: PostgresConnection
    private let mode: Database.Mode
    private var statementCount = 0

    /// Lets every `Database` of this process open `postgres://` locations (transit-postgres sets
    /// it at start-up; programs without libpq never do).
    public static func register() {
        Database.storeOpener = { location, mode in try PostgresStore(url: location, mode: mode) }
    }

    public init(url: String, mode: Database.Mode) throws {
        // Feeds change on a server only by a whole import (StorePublisher's swap), never in place.
        guard mode == .readOnly else { throw StoreNotSupported(location: StoreLocation.redacted(url)) }
        connection = try PostgresConnection(url: url)
        self.mode = mode
        try connection.execute("SET search_path TO \(quoted(StorePublisher.liveSchema))")
    }

    public func execute(_ sql: String) throws {
        let statement = sql.drop { $0 == " " }
        if statement.prefix(6).uppercased() == "PRAGMA" { return }
        if mode == .readOnly, statement.uppercased() == "BEGIN" {
            return try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        }
        try connection.execute(sql)
    }

    public func prepare(_ sql: String) throws -> StoreStatement {
        statementCount += 1
        return try PostgresStatement(connection: connection, name: "transit_\(statementCount)", sql: sql)
    }

    public func queryPlan(_ sql: String, arguments: [SQLValue]) throws -> QueryPlan {
        let text = try PostgresStatementText(translating: sql)
        let values = try text.parameters(arguments)
        let lines = try connection.rows("EXPLAIN (COSTS OFF) " + text.sql, values).compactMap { $0.first ?? nil }
        let plan = PostgresPlan(lines: lines)
        return QueryPlan(steps: plan.steps, statement: text.sql, largeScannedTables: try largeTables(among: plan.sequentialScans))
    }

    public func limitTime(toMilliseconds milliseconds: Int?) throws {
        try connection.execute("SET statement_timeout = \(max(milliseconds ?? 0, milliseconds == nil ? 0 : 1))")
    }
}
