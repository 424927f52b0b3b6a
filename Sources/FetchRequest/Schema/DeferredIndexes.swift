/// Indexes a database file leaves to the store it is copied to: their `CREATE INDEX` statements
/// are kept in a table of the file (`deferred_indexes`) instead of being built there.
///
/// A file made only to be stored on a PostgreSQL server (transit-postgres's scratch file) is read
/// once, in table order, and asked no question the index would serve: an index SQLite would sort
/// for it (4 s for the large feed's stop times) is built again by the server anyway. Whoever copies the file reads the
/// table as the file's indexes (`all(in:)`) and does not copy it as a table.
public enum DeferredIndexes {
    /// The table keeping them.
    public static let tableName = "deferred_indexes"

    private enum Field: String {
        case name, table = "tbl_name", sql
    }

    private static let table = TableDefinition(tableName, columns: [
        .init(Field.name.rawValue, .text, primaryKey: true), .init(Field.table.rawValue, .text, notNull: true),
        .init(Field.sql.rawValue, .text, notNull: true),
    ])

    /// Records `index` in `database` rather than building it (inside the caller's transaction).
    public static func record(_ index: IndexDefinition, in database: Database) throws {
        try database.execute(table.sqlIfNotExists)
        try database.run(SQLGenerator.prepareInsert(into: tableName, values: [
            (Field.name.rawValue, .text(index.name)), (Field.table.rawValue, .text(index.table)), (Field.sql.rawValue, .text(index.sql)),
        ]))
    }

    /// The indexes recorded in `database`, in the order they were: name, table and `CREATE` statement.
    public static func all(in database: Database) throws -> [(name: String, table: String, sql: String)] {
        var exists = false
        let master = Query(table: "sqlite_master").select(Column("name")).filter(Column("name") == tableName)
        try database.forEachRow(SQLGenerator.prepare(master)) { _ in exists = true }
        guard exists else { return [] }
        let query = Query(table: tableName).select(Column(Field.name.rawValue), Column(Field.table.rawValue), Column(Field.sql.rawValue))
            .sorted(by: [Column("rowid").ascending])
        var indexes: [(name: String, table: String, sql: String)] = []
        try database.forEachRow(SQLGenerator.prepare(query)) { row in indexes.append((row.string(0), row.string(1), row.string(2))) }
        return indexes
    }
}
