/// A table to create, described as a value; `sql` is its `CREATE TABLE` statement.
///
///     TableDefinition("stops", columns: [.init("id", .integer, primaryKey: true), .init("stop_id", .text, notNull: true)])
///     // CREATE TABLE "stops" ("id" INTEGER PRIMARY KEY, "stop_id" TEXT NOT NULL)
public struct TableDefinition: Sendable {
    /// A column's declared type (its SQLite affinity).
    public enum ColumnType: String, Sendable {
        case integer = "INTEGER"
        case real = "REAL"
        case text = "TEXT"
        /// Bytes kept as given (the journey planner's packed timetable).
        case blob = "BLOB"
    }

    /// One column.
    public struct ColumnDefinition: Sendable {
        public var name: String
        public var type: ColumnType
        public var primaryKey: Bool
        public var notNull: Bool
        /// An integer the column takes when an insert leaves it out.
        public var defaultValue: Int?

        public init(_ name: String, _ type: ColumnType, primaryKey: Bool = false, notNull: Bool = false, default defaultValue: Int? = nil) {
            self.name = name
            self.type = type
            self.primaryKey = primaryKey
            self.notNull = notNull
            self.defaultValue = defaultValue
        }
    }

    public var name: String
    public var columns: [ColumnDefinition]
    /// A primary key over several columns (then no column is marked `primaryKey`).
    public var compositePrimaryKey: [String]
    /// `WITHOUT ROWID`: rows stored in primary-key order, for tables keyed by several columns.
    public var withoutRowID: Bool

    public init(_ name: String, columns: [ColumnDefinition], primaryKey: [String] = [], withoutRowID: Bool = false) {
        self.name = name
        self.columns = columns
        self.compositePrimaryKey = primaryKey
        self.withoutRowID = withoutRowID
    }

    /// The column names, in order.
    public var columnNames: [String] { columns.map(\.name) }

    /// The `CREATE TABLE` statement.
    public var sql: String {
        var parts = columns.map { column in
            var text = SQLGenerator.quote(column.name) + " " + column.type.rawValue
            if column.primaryKey { text += " PRIMARY KEY" }
            if column.notNull { text += " NOT NULL" }
            if let value = column.defaultValue { text += " DEFAULT " + String(value) }
            return text
        }
        if !compositePrimaryKey.isEmpty {
            parts.append("PRIMARY KEY (" + compositePrimaryKey.map(SQLGenerator.quote).joined(separator: ", ") + ")")
        }
        return "CREATE TABLE " + SQLGenerator.quote(name) + " (" + parts.joined(separator: ", ") + ")"
            + (withoutRowID ? " WITHOUT ROWID" : "")
    }

    /// `CREATE TABLE IF NOT EXISTS …`: for a table added to the layout after databases were written.
    public var sqlIfNotExists: String { "CREATE TABLE IF NOT EXISTS " + sql.dropFirst("CREATE TABLE ".count) }

    /// `ALTER TABLE … ADD COLUMN` for the column named `column`: for a column added to the layout
    /// after databases were written (an upgrade in place).
    public func addColumnSQL(_ column: String) -> String? {
        guard let definition = columns.first(where: { $0.name == column }) else { return nil }
        var text = "ALTER TABLE " + SQLGenerator.quote(name) + " ADD COLUMN " + SQLGenerator.quote(definition.name) + " " + definition.type.rawValue
        if let value = definition.defaultValue { text += (definition.notNull ? " NOT NULL" : "") + " DEFAULT " + String(value) }
        return text
    }

    /// The `DROP TABLE IF EXISTS` statement (its indexes go with it).
    public var dropSQL: String { "DROP TABLE IF EXISTS " + SQLGenerator.quote(name) }

    /// An `INSERT` of every column but the `INTEGER PRIMARY KEY` (which SQLite assigns),
    /// or of `columns` when given; `OR IGNORE` skips rows that break a unique key.
    /// With `rows` above 1, one statement inserts that many rows (`VALUES (…), (…)`).
    /// `OR FAIL` (`orFail`) stops at a row that breaks a constraint but keeps the rows the statement
    /// inserted before it, so SQLite keeps no statement journal (see `BatchInsert`).
    public func insertSQL(columns chosen: [String]? = nil, orIgnore: Bool = false, orFail: Bool = false, rows: Int = 1) -> String {
        let names = chosen ?? columns.filter { !($0.primaryKey && $0.type == .integer) }.map(\.name)
        let row = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        let verb = orIgnore ? "INSERT OR IGNORE INTO " : orFail ? "INSERT OR FAIL INTO " : "INSERT INTO "
        return verb + SQLGenerator.quote(name)
            + " (" + names.map(SQLGenerator.quote).joined(separator: ", ") + ") VALUES "
            + Array(repeating: row, count: max(rows, 1)).joined(separator: ", ")
    }
}

/// An index to create, described as a value; `sql` is its `CREATE INDEX` statement.
public struct IndexDefinition: Sendable {
    public var name: String
    public var table: String
    public var columns: [String]
    public var unique: Bool
    /// With a column name, a partial index of the rows where that column is not NULL
    /// (`WHERE col IS NOT NULL`): smaller, and never chosen for `col IS NULL`.
    public var onlyWhereNotNull: String?

    public init(_ name: String, on table: String, columns: [String], unique: Bool = false, onlyWhereNotNull: String? = nil) {
        self.name = name
        self.table = table
        self.columns = columns
        self.unique = unique
        self.onlyWhereNotNull = onlyWhereNotNull
    }

    /// `CREATE INDEX IF NOT EXISTS …`: for an index added to a database that may have it.
    public var sqlIfNotExists: String {
        let statement = sql
        let prefix = unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX "
        return prefix + "IF NOT EXISTS " + statement.dropFirst(prefix.count)
    }

    /// The `DROP INDEX IF EXISTS` statement: for an index rebuilt with other columns.
    public var dropSQL: String { "DROP INDEX IF EXISTS " + SQLGenerator.quote(name) }

    /// The `CREATE INDEX` statement.
    public var sql: String {
        (unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") + SQLGenerator.quote(name) + " ON "
            + SQLGenerator.quote(table) + " (" + columns.map(SQLGenerator.quote).joined(separator: ", ") + ")"
            + (onlyWhereNotNull.map { " WHERE " + SQLGenerator.quote($0) + " IS NOT NULL" } ?? "")
    }
}

/// An `UPDATE table SET a = ?, b = ? WHERE key1 = ? AND key2 = ?` statement: the keyed update the
/// importer uses to resolve references after loading. Values bind in the order: set columns, keys.
public struct UpdateDefinition: Sendable {
    public var table: String
    public var columns: [String]
    public var keys: [String]

    public init(_ table: String, set columns: [String], where keys: [String]) {
        self.table = table
        self.columns = columns
        self.keys = keys
    }

    public init(_ table: String, set columns: [String], where key: String) {
        self.init(table, set: columns, where: [key])
    }

    public var sql: String {
        "UPDATE " + SQLGenerator.quote(table) + " SET "
            + columns.map { SQLGenerator.quote($0) + " = ?" }.joined(separator: ", ")
            + " WHERE " + keys.map { SQLGenerator.quote($0) + " = ?" }.joined(separator: " AND ")
    }
}
