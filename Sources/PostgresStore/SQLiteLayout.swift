import FetchRequest

/// The tables and indexes of a transit SQLite file, as PostgreSQL is to hold them.
///
/// The layout is read from the file, not declared again here: whatever `transit import` writes
/// (the feeds' own tables, the per-feed stop times, the planner's timetables) reaches PostgreSQL
/// column for column, and the file's own `CREATE` statements are kept beside the rows
/// (`sqlite_schema`), so the same file can be made again from the server.
struct SQLiteLayout {
    /// One object of `sqlite_master` with its `CREATE` statement.
    struct Object {
        let type: String
        let name: String
        let table: String
        let sql: String
    }

    /// One column of a table, as `PRAGMA table_info` describes it.
    struct Column {
        let name: String
        let declaredType: String
        let notNull: Bool
        let defaultValue: String?
        /// Its place in the primary key (1-based), 0 when not part of it.
        let primaryKeyPosition: Int

        /// What the column holds, by SQLite's rules of affinity for `declaredType`: found once
        /// here, since every value read or written asks (per value, the string tests were most of
        /// the time it took to read a feed back).
        let storage: Storage

        enum Storage {
            case integer, real, text, bytes
        }

        init(name: String, declaredType: String, notNull: Bool, defaultValue: String?, primaryKeyPosition: Int) {
            self.name = name
            self.declaredType = declaredType
            self.notNull = notNull
            self.defaultValue = defaultValue
            self.primaryKeyPosition = primaryKeyPosition
            let type = declaredType.uppercased()
            if type.contains("INT") {
                storage = .integer
            } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
                storage = .text
            } else if type.contains("BLOB") || type.isEmpty {
                storage = .bytes
            } else {
                storage = .real
            }
        }

        /// The PostgreSQL type holding what SQLite stores under `declaredType`: 64-bit integers
        /// (feed keys are feed·2³² + n), doubles, text ordered byte for byte as SQLite's BINARY
        /// collation, and bytes.
        var postgresType: String {
            switch storage {
            case .integer: return "bigint"
            case .text: return "text COLLATE \"C\""
            case .bytes: return "bytea"
            case .real: return "double precision"
            }
        }

        var isBytes: Bool { storage == .bytes }
        var isInteger: Bool { storage == .integer }
        var isReal: Bool { storage == .real }
    }

    /// Tables first, then indexes, in the file's order, the indexes the file left to the server
    /// (`DeferredIndexes`) last. SQLite's own (`sqlite_stat1`, automatic indexes) are left out, as
    /// PostgreSQL keeps its own statistics, and so is the table of deferred indexes (read as indexes).
    let objects: [Object]

    init(of database: Database) throws {
        var objects: [Object] = []
        let statement = try database.makeStatement("""
            SELECT type, name, tbl_name, sql FROM sqlite_master
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND type IN ('table', 'index')
            ORDER BY type = 'index', rowid
            """)
        while try statement.step() {
            let row = statement.row
            guard row.string(1) != DeferredIndexes.tableName else { continue }
            objects.append(Object(type: row.string(0), name: row.string(1), table: row.string(2), sql: row.string(3)))
        }
        objects += try DeferredIndexes.all(in: database).map { Object(type: "index", name: $0.name, table: $0.table, sql: $0.sql) }
        self.objects = objects
    }

    init(objects: [Object]) { self.objects = objects }

    var tables: [Object] { objects.filter { $0.type == "table" } }
    var indexes: [Object] { objects.filter { $0.type == "index" } }

    /// Whether `table` is a rowid table whose rowid no column names (no `INTEGER PRIMARY KEY`):
    /// SQLite's natural order of such a table (`ORDER BY "rowid"`, as in `feed_info` and the alert
    /// periods) is kept on the server in a column of that name, numbered by default (`IDENTITY`)
    /// for rows written there in place.
    static func keepsRowID(_ table: Object, columns: [Column]) -> Bool {
        guard !table.sql.uppercased().contains("WITHOUT ROWID") else { return false }
        let key = columns.filter { $0.primaryKeyPosition > 0 }
        return !(key.count == 1 && key[0].declaredType.uppercased() == "INTEGER")
    }

    /// The column keeping the rowid on the server (`keepsRowID`).
    static let rowID = Column(name: "rowid", declaredType: "INTEGER", notNull: true, defaultValue: nil, primaryKeyPosition: 0)

    /// The columns of `table` in `database`, in order.
    static func columns(of table: String, in database: Database) throws -> [Column] {
        let statement = try database.makeStatement("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)")
        try statement.bind(.text(table), at: 1)
        var columns: [Column] = []
        while try statement.step() {
            let row = statement.row
            columns.append(Column(name: row.string(0), declaredType: row.string(1), notNull: row.int(2) != 0,
                                  defaultValue: row.optionalString(3), primaryKeyPosition: row.int(4)))
        }
        return columns
    }
}

/// `name` as a quoted SQL identifier (both dialects quote with double quotes).
func quoted(_ name: String) -> String {
    "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
}

/// `text` as an SQL string literal (single quotes doubled), for the store's own names only: values
/// a user gives are always bound.
func literal(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
}
