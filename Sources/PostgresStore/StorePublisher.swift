import FetchRequest

/// Puts a transit SQLite file on a PostgreSQL server in place of what it held, atomically.
///
/// Everything happens in one transaction: a new schema is made, every table is created and
/// filled with `COPY … FROM STDIN`, then the primary keys and indexes are built and each table
/// analyzed, and finally the live schema is renamed away, the new one renamed to the live name,
/// and the old one dropped. Readers on the primary and on every hot standby see the old feeds or
/// the new ones, never half; a killed import (kill -9 included) leaves an aborted transaction the
/// server rolls back, and the previous feeds keep answering. The tables are logged (unlogged
/// tables never reach a standby).
public struct StorePublisher {
    /// The schema readers use.
    public static let liveSchema = "transit"
    /// The schema an import fills before the swap (inside its transaction, so never seen).
    static let nextSchema = "transit_next"
    /// The live schema's name between the two renames of a swap.
    static let previousSchema = "transit_previous"
    /// The table keeping the SQLite file's own `CREATE` statements, so the file can be made again.
    static let layoutTable = "sqlite_schema"

    let connection: PostgresConnection

    public init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// What was stored, and the seconds each step took.
    public struct Summary {
        public var tables = 0
        public var rows = 0
        public var copySeconds = 0.0
        public var indexSeconds = 0.0
        public var analyzeSeconds = 0.0
        public var swapSeconds = 0.0
    }

    /// Stores the SQLite file at `path` as the server's transit schema, replacing the one it had.
    public func publish(sqliteFileAt path: String) throws -> Summary {
        let database = try Database(path: path, mode: .readOnly)
        let layout = try SQLiteLayout(of: database)
        try connection.execute("BEGIN")
        do {
            var summary = try fillNextSchema(from: database, layout: layout)
            let swapping = monotonicSeconds()
            try swap()
            try connection.execute("COMMIT")
            summary.swapSeconds = monotonicSeconds() - swapping
            return summary
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Makes the next schema, with the file's tables, rows, keys, indexes and statistics.
    private func fillNextSchema(from database: Database, layout: SQLiteLayout) throws -> Summary {
        let next = quoted(StorePublisher.nextSchema)
        try connection.execute("DROP SCHEMA IF EXISTS \(next) CASCADE; CREATE SCHEMA \(next); SET LOCAL search_path TO \(next)")
        try storeLayout(layout)
        var summary = Summary()
        let copying = monotonicSeconds()
        var keys: [(table: String, columns: [String])] = []
        for table in layout.tables {
            let columns = try SQLiteLayout.columns(of: table.name, in: database)
            try connection.execute("CREATE TABLE \(next).\(quoted(table.name)) (" + columns.map(definition).joined(separator: ", ") + ")")
            summary.rows += try copyRows(of: table.name, columns: columns, from: database)
            summary.tables += 1
            let key = columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }
            if !key.isEmpty { keys.append((table.name, key.map(\.name))) }
        }
        summary.copySeconds = monotonicSeconds() - copying
        let indexing = monotonicSeconds()
        for key in keys {
            try connection.execute("ALTER TABLE \(next).\(quoted(key.table)) ADD PRIMARY KEY (" + key.columns.map(quoted).joined(separator: ", ") + ")")
        }
        // The file's CREATE INDEX statements are PostgreSQL too (quoted names, column lists, partial
        // indexes' WHERE); the search path puts them in the next schema.
        for index in layout.indexes { try connection.execute(index.sql) }
        summary.indexSeconds = monotonicSeconds() - indexing
        let analyzing = monotonicSeconds()
        for table in layout.tables { try connection.execute("ANALYZE \(next).\(quoted(table.name))") }
        summary.analyzeSeconds = monotonicSeconds() - analyzing
        return summary
    }

    /// A column's definition: its PostgreSQL type, NOT NULL and default as in the file.
    private func definition(_ column: SQLiteLayout.Column) -> String {
        var text = quoted(column.name) + " " + column.postgresType
        if column.notNull { text += " NOT NULL" }
        if let value = column.defaultValue { text += " DEFAULT " + value }
        return text
    }

    /// Keeps the file's `CREATE` statements, in order, in the next schema.
    private func storeLayout(_ layout: SQLiteLayout) throws {
        let table = quoted(StorePublisher.nextSchema) + "." + quoted(StorePublisher.layoutTable)
        try connection.execute("CREATE TABLE \(table) (position integer PRIMARY KEY, type text NOT NULL, name text NOT NULL, tbl_name text NOT NULL, sql text NOT NULL)")
        for (position, object) in layout.objects.enumerated() {
            _ = try connection.rows("INSERT INTO \(table) VALUES ($1, $2, $3, $4, $5)",
                                    [String(position), object.type, object.name, object.table, object.sql])
        }
    }

    /// Sends every row of `table` with one `COPY`; returns how many.
    ///
    /// `FREEZE` (allowed since the table was made in this transaction) writes the rows frozen and
    /// all-visible: index-only scans work at once, on the standbys too, and no later vacuum has to
    /// rewrite every page of a feed to freeze it.
    private func copyRows(of table: String, columns: [SQLiteLayout.Column], from database: Database) throws -> Int {
        let statement = try database.makeStatement("SELECT " + columns.map { quoted($0.name) }.joined(separator: ", ") + " FROM " + quoted(table))
        var count = 0
        let target = quoted(StorePublisher.nextSchema) + "." + quoted(table)
        try connection.copyIn("COPY \(target) FROM STDIN WITH (FREEZE)") { text in
            while try statement.step() {
                let row = statement.row
                for index in columns.indices {
                    if index > 0 { text.endField() }
                    append(row, index, to: &text)
                }
                try text.endRow(sendingThrough: connection)
                count += 1
            }
        }
        return count
    }

    /// One value in COPY's text form, whatever SQLite storage class it has (read without making a
    /// String: most values are integers).
    private func append(_ row: Row, _ index: Int, to text: inout CopyText) {
        if row.isInteger(index) {
            text.append(integer: Int64(row.int(index)))
        } else if row.isNull(index) {
            text.appendNull()
        } else if row.isReal(index) {
            let value = row.double(index)
            text.appendPlain(value.isFinite ? String(value) : value.isNaN ? "NaN" : value > 0 ? "Infinity" : "-Infinity")
        } else if row.isBlob(index) {
            row.withBlob(index) { text.append(bytea: $0) }
        } else {
            row.withText(index) { text.append(escaping: $0) }
        }
    }

    /// Renames the live schema away, the next one in its place, and drops the old.
    private func swap() throws {
        let live = quoted(StorePublisher.liveSchema), previous = quoted(StorePublisher.previousSchema)
        if try connection.value("SELECT 1 FROM pg_namespace WHERE nspname = $1", [StorePublisher.liveSchema]) != nil {
            try connection.execute("ALTER SCHEMA \(live) RENAME TO \(previous)")
        }
        try connection.execute("ALTER SCHEMA \(quoted(StorePublisher.nextSchema)) RENAME TO \(live)")
        try connection.execute("DROP SCHEMA IF EXISTS \(previous) CASCADE")
    }
}
