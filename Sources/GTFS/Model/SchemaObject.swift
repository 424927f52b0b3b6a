import FetchRequest

/// A row of SQLite's `sqlite_master`: a table, index, view or trigger of the database, by name.
/// Read to learn which tables and indexes a database has before using one it may lack.
struct SchemaObject: CatalogRecord, Equatable {
    static let tableName = "sqlite_master"
    static let primaryKey = Columns.name.rawValue

    enum Columns: String, CaseIterable {
        case type, name
    }

    /// `table`, `index`, `view` or `trigger`.
    let type: String
    let name: String

    init(row: Row) throws {
        type = row.string(Self.recordColumn(.type))
        name = row.string(Self.recordColumn(.name))
    }

    /// True when the database has a table (or another object) named `name`.
    static func exists(_ name: String, in database: Database) throws -> Bool {
        try database.count(FetchRequest<SchemaObject>().filter(column(.name) == name)) > 0
    }

    /// The names of the database's indexes.
    static func indexNames(in database: Database) throws -> Set<String> {
        Set(try database.fetch(FetchRequest<SchemaObject>().filter(column(.type) == "index")).map(\.name))
    }
}
