import CPostgres
import FetchRequest

/// The PostgreSQL store behind a `Database` opened on a `postgres://` URL: the feeds an import
/// stored in schema `transit` (StorePublisher), read with the same requests as a file.
///
/// A read-only open reads in one `REPEATABLE READ READ ONLY` transaction per `BEGIN`, so a command
/// sees one snapshot of the feeds, as a file's read transaction does; on a hot standby too.
///
/// A read-write open is for what changes rows in place, the realtime data (`transit realtime`):
/// its `BEGIN` waits for the lock imports and `feeds remove|upgrade` hold (ServerChanges), so a
/// change that copies the feeds out and back never loses realtime data stored meanwhile. The
/// feeds themselves change only by a whole import (StorePublisher's swap).
///
/// Plans: a request that says one plan serves all its values (`Query.plannedOnce`: departures,
/// the stops in a box, the planner's pattern reads by key) runs its prepared statement, which
/// PostgreSQL plans for its values five times and then, where the estimates say it costs no
/// more, once for all (a generic plan: the departures statement's is the plan made for its
/// values). Every other statement is sent with
/// its text and values (`PostgresStatement.run`), so it is planned for them at each run: a
/// prepared statement's generic plan let a served `routes --stop` go from 0.06 s to 0.2–0.36 s
/// from its sixth run on a connection, on an estimate far off, and `stats` ran 15 minutes on one.
public final class PostgresStore: StoreConnection {
    let connection: PostgresConnection
    private let mode: Database.Mode
    private var statementCount = 0
    /// Whether a time limit was set for the session (outside a transaction), to lift when asked.
    private var sessionTimeLimit = false
    /// A read-write open's texts beyond ASCII written in the transaction, whose folds are stored
    /// at its commit (`TextFolds`), so `[c]`/`[d]` predicates fold them as on a file.
    private let writtenText: WrittenText?

    /// Lets every `Database` of this process open `postgres://` locations (transit-postgres sets
    /// it at start-up; programs without libpq never do). `folding`, the model's, is for writers.
    public static func register(folding: TextFolds.Folding? = nil) {
        Database.storeOpener = { location, mode in try PostgresStore(url: location, mode: mode, folding: folding) }
    }

    /// The advisory lock key every change of a server's feeds and realtime data holds while it works.
    public static let changeLockKey = "hashtext('transit import')"

    public init(url: String, mode: Database.Mode, folding: TextFolds.Folding? = nil) throws {
        connection = try PostgresConnection(url: url)
        self.mode = mode
        writtenText = mode == .readWrite ? folding.map(WrittenText.init) : nil
        if mode == .readWrite, try connection.isStandby() { throw ReadOnlyStandby(location: StoreLocation.redacted(url)) }
        try connection.execute("SET search_path TO \(quoted(StorePublisher.liveSchema))")
    }

    public func execute(_ sql: String) throws {
        let statement = sql.drop { $0 == " " }
        if statement.prefix(6).uppercased() == "PRAGMA" { return }
        // SQLite's `BEGIN IMMEDIATE` and the like: a server's transactions need no lock mode.
        if statement.prefix(5).uppercased() == "BEGIN" {
            guard mode == .readWrite else { return try beginReading() }
            try connection.execute("BEGIN")
            _ = try connection.value("SELECT pg_advisory_xact_lock(\(Self.changeLockKey))")
            return
        }
        versionAtBegin = nil
        if mode == .readWrite, statement.prefix(6).uppercased() == "COMMIT" {
            if let writtenText {
                try TextFolds(connection: connection, schema: StorePublisher.liveSchema).add(writtenText.values, folding: writtenText.folding)
                writtenText.values.removeAll()
            }
            try StoreVersion.count(on: connection)
        }
        try connection.execute(sql)
    }

    public func prepare(_ sql: String) throws -> StoreStatement {
        let text = try PostgresStatementText(translating: sql)
        let writing = sql.drop { $0 == " " }.prefix(6).uppercased() == "INSERT"
        return PostgresStatement(prepared: try prepared(text.sql), text: text, writtenText: writing ? writtenText : nil)
    }

    /// The statement prepared on the server for `sql` (PostgreSQL's dialect), prepared now unless
    /// a statement still in use has it: the SQLite texts of one request with `IN` lists of other
    /// lengths (the stops near each point) are one statement here, prepared and planned once.
    private func prepared(_ sql: String) throws -> PreparedOnServer {
        if let shared = preparedStatements[sql]?.statement { return shared }
        if preparedStatements.count >= 256 { preparedStatements = preparedStatements.filter { $0.value.statement != nil } }
        statementCount += 1
        let statement = try PreparedOnServer(connection: connection, name: "transit_\(statementCount)", sql: sql)
        preparedStatements[sql] = WeakPrepared(statement: statement)
        return statement
    }

    /// The statements prepared on the server, by their text, while some `PostgresStatement` uses them.
    private var preparedStatements: [String: WeakPrepared] = [:]

    private struct WeakPrepared {
        weak var statement: PreparedOnServer?
    }

    public func queryPlan(_ sql: String, arguments: [SQLValue]) throws -> QueryPlan {
        let text = try PostgresStatementText(translating: sql)
        let values = try text.parameters(arguments)
        let lines = try connection.rows("EXPLAIN (COSTS OFF) " + text.sql, values).compactMap { $0.first ?? nil }
        let plan = PostgresPlan(lines: lines)
        return QueryPlan(steps: plan.steps, statement: text.sql, largeScannedTables: try largeTables(among: plan.sequentialScans))
    }

    /// The live schema's OID and its count of writes in place: every import makes a new schema and
    /// swaps it in, and every read-write commit (realtime) counts one more (`StoreVersion`), so it
    /// changes with either (read in the reader's snapshot, so never newer than what it reads).
    /// Prepared once per connection (`transit serve` asks it before every question): parsed and
    /// planned each time, it was an eighth of the server's work for a served departures question.
    public func dataVersion() throws -> Int64 {
        if let versionAtBegin, connection.isInTransaction { return versionAtBegin }
        if !versionPrepared {
            PQclear(try connection.prepare(name: Self.versionStatement, sql: Self.versionSQL))
            versionPrepared = true
        }
        return Self.version(try connection.rows("EXECUTE \(Self.versionStatement)"))
    }

    /// `dataVersion`'s statement: the live schema's OID and its count of writes in place.
    private static let versionSQL = "SELECT n.oid, v.\(quoted(StoreVersion.column)) FROM pg_namespace n LEFT JOIN \(StoreVersion.rows) v ON true WHERE n.nspname = \(literal(StorePublisher.liveSchema))"

    /// The version in `rows`, `versionSQL`'s answer: the schema's OID above its count of writes.
    private static func version(_ rows: [[String?]]) -> Int64 {
        func integer(_ column: Int) -> Int64 { rows.first.flatMap { $0[column] }.flatMap { Int64($0) } ?? 0 }
        return integer(0) << 32 | (integer(1) & 0xFFFF_FFFF)
    }

    /// Begins a read transaction in one round trip rather than three: with the time limit set
    /// before it (`limitTime` between transactions: `SET LOCAL`, gone at its end) and, once
    /// `dataVersion`'s statement is prepared, reading the version (kept for the transaction, whose
    /// snapshot it is read in). A served question starts with all three.
    private func beginReading() throws {
        versionAtBegin = nil
        var script = ["BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"]
        if let limitAtBegin { script.append("SET LOCAL statement_timeout = \(limitAtBegin)") }
        guard versionPrepared else { return try connection.execute(script.joined(separator: "; ")) }
        script.append("EXECUTE \(Self.versionStatement)")
        versionAtBegin = Self.version(try connection.lastRows(ofScript: script.joined(separator: "; ")))
    }

    /// The name `dataVersion`'s statement is prepared under, and whether it is.
    private static let versionStatement = "transit_data_version"
    private var versionPrepared = false
    /// The version `beginReading` read with the open read transaction's BEGIN (nil: not read).
    private var versionAtBegin: Int64?
    /// The time limit in milliseconds set between transactions of a read-only store, which the
    /// next `BEGIN` sets for its transaction (nil: none).
    private var limitAtBegin: Int?

    /// Inside a transaction the limit is `SET LOCAL`, gone at its end, so lifting it costs no round
    /// trip. Between transactions of a read-only store (a served question sets it before its
    /// transaction begins) the next `BEGIN` sets it, in the same round trip (`beginReading`); on a
    /// read-write one it holds for the session until lifted.
    public func limitTime(toMilliseconds milliseconds: Int?) throws {
        guard let milliseconds else {
            if sessionTimeLimit { try connection.execute("SET statement_timeout = 0") }
            sessionTimeLimit = false
            limitAtBegin = nil
            return
        }
        let local = connection.isInTransaction
        if !local && mode == .readOnly { return limitAtBegin = max(milliseconds, 1) }
        try connection.execute("SET \(local ? "LOCAL " : "")statement_timeout = \(max(milliseconds, 1))")
        sessionTimeLimit = sessionTimeLimit || !local
    }
}

/// The texts beyond ASCII a read-write open's inserts wrote, and the folding to store for them.
final class WrittenText {
    let folding: TextFolds.Folding
    var values = Set<String>()

    init(folding: @escaping TextFolds.Folding) { self.folding = folding }

    /// Notes the text values among `arguments` that are not plain ASCII.
    func note(_ arguments: [SQLValue]) {
        for case .text(let text) in arguments where !text.utf8.allSatisfy({ $0 < 0x80 }) { values.insert(text) }
    }
}

/// A count of the commits that changed the live schema in place (realtime reads), so a long-lived
/// reader (`transit serve`'s pooled connections) sees, through `dataVersion`, that what it keeps
/// (a journey planner) may be out of date, as SQLite's `PRAGMA data_version` shows it on a file.
enum StoreVersion {
    static let table = "store_version"
    static let column = "writes"
    /// The one-row table in the live schema.
    static var rows: String { quoted(StorePublisher.liveSchema) + "." + quoted(table) }

    /// Makes the table, at 0, in `schema` (the publisher's next one).
    static func make(in schema: String, on connection: PostgresConnection) throws {
        let name = quoted(schema) + "." + quoted(table)
        try connection.execute("CREATE TABLE \(name) (\(quoted(column)) bigint NOT NULL); INSERT INTO \(name) VALUES (0)")
    }

    /// Counts one more write, inside the writer's transaction.
    static func count(on connection: PostgresConnection) throws {
        try connection.execute("UPDATE \(rows) SET \(quoted(column)) = \(quoted(column)) + 1")
    }
}
