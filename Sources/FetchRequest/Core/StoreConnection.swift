/// A database server behind a `Database` in place of an SQLite file (PostgreSQL, through the
/// PostgresStore module).
///
/// FetchRequest generates one SQL text per request, in SQLite's dialect; a store connection
/// translates it (`SQLDialect`), runs it on its server and hands the rows back column by column,
/// so `Database`, `Statement` and `Row` keep one interface and the GTFS queries do not know which
/// store answers them. The client library stays out of programs that never open a server: a
/// program that may (transit-postgres) sets `Database.storeOpener` at start-up.
public protocol StoreConnection: AnyObject {
    /// Runs SQL text that takes no values and returns no rows (`BEGIN`, `COMMIT`); SQLite's own
    /// tuning (`PRAGMA …`) has no meaning on a server and is not sent.
    func execute(_ sql: String) throws
    /// Prepares `sql` (SQLite's dialect, `?` placeholders) on the server.
    func prepare(_ sql: String) throws -> StoreStatement
    /// The server's plan for `sql` with `arguments`, drawn as SQLite's plan is.
    func queryPlan(_ sql: String, arguments: [SQLValue]) throws -> QueryPlan
    /// Stops any statement running longer than `milliseconds` (nil: no limit).
    func limitTime(toMilliseconds milliseconds: Int?) throws
    /// A number that changes when the store's feeds change (SQLite's `PRAGMA data_version`): a
    /// long-lived reader's cue to open the store again.
    func dataVersion() throws -> Int64
}

/// One statement prepared on a server: run with values, then read row by row.
public protocol StoreStatement: AnyObject {
    /// The names of the result columns, in order.
    var columnNames: [String] { get }
    /// How many placeholders the statement has.
    var parameterCount: Int { get }
    /// Runs the statement with `arguments`; the rows are then read with `next()`.
    func run(_ arguments: [SQLValue]) throws
    /// Moves to the next row of the last run: false when there is none left.
    func next() -> Bool
    /// How many rows the last run changed (an `INSERT`, `UPDATE` or `DELETE`).
    var changes: Int { get }
    /// Forgets the last run's rows.
    func reset()

    func isNull(_ index: Int) -> Bool
    func int(_ index: Int) -> Int
    func double(_ index: Int) -> Double
    /// The column's bytes (text as UTF-8, a BLOB as it is), valid until the next `next()`.
    func bytes(_ index: Int) -> UnsafeRawBufferPointer
    /// The column's storage class as SQLite would name it (integer, real, text, blob or null).
    func storageClass(_ index: Int) -> StorageClass
}

/// SQLite's five storage classes, which a server's column types map onto.
public enum StorageClass: Sendable {
    case integer, real, text, blob, null
}

extension Database {
    /// Opens a server for a `postgres://` location: set by a program that links a store's client
    /// (transit-postgres); nil elsewhere, where such a location is refused (`StoreNotSupported`).
    nonisolated(unsafe) public static var storeOpener: ((_ location: String, _ mode: Mode) throws -> StoreConnection)?
}
