import FetchRequest

/// A row of one of the database's own bookkeeping tables (`metadata`, `feeds`,
/// `feed_downloads`) or of SQLite's (`sqlite_master`, `sqlite_stat1`): no GTFS entity, so not in
/// the model, but a record whose table and columns are declared once, in its `Columns`
/// enumeration. The schema lays the table out from it (`Schema.metadata`), requests name the table
/// and its columns by it (`MetadataEntry.column(.key)`), and rows are decoded by it.
protocol CatalogRecord: Entity {
    /// The table's columns, in the order a record's request selects them.
    associatedtype Columns: CaseIterable, RawRepresentable<String>
}

extension CatalogRecord {
    /// Every column, in `Columns` order.
    static var columnNames: [String] { Columns.allCases.map(\.rawValue) }

    /// The column `column`, qualified by the table's name (`"metadata"."key"`).
    static func column(_ column: Columns) -> SQLExpression { self.column(column.rawValue) }

    /// Where a record's request puts `column` (found by name once per call; these tables are read
    /// a few rows at a time).
    static func recordColumn(_ column: Columns) -> RecordColumn<Self> { RecordColumn(column.rawValue) }

    /// `INSERT INTO table (columns…) VALUES (…)` of `values`, each given for its column.
    static func insert(_ values: [(Columns, SQLValue)]) -> PreparedRequest {
        SQLGenerator.prepareInsert(into: tableName, values: values.map { ($0.0.rawValue, $0.1) })
    }

    /// `DELETE FROM table WHERE predicate` (every row for `.all`).
    static func delete(where predicate: SQLPredicate) -> PreparedRequest {
        SQLGenerator.prepareDelete(from: tableName, where: predicate)
    }

    /// The column's definition for the schema: `column` of type `type`.
    static func definition(_ column: Columns, _ type: TableDefinition.ColumnType, primaryKey: Bool = false, notNull: Bool = false,
                           default value: Int? = nil) -> TableDefinition.ColumnDefinition {
        TableDefinition.ColumnDefinition(column.rawValue, type, primaryKey: primaryKey, notNull: notNull, default: value)
    }
}
