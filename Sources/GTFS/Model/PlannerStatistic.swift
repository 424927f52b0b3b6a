import FetchRequest

/// A row of SQLite's `sqlite_stat1`, the statistics its query planner reads: a table, one of its
/// indexes (nil: the table's row count alone) and the `stat` text (rows, then rows per distinct
/// value of each leading column prefix of the index). `PlannerStatistics` writes them.
struct PlannerStatistic: CatalogRecord, Hashable {
    static let tableName = "sqlite_stat1"
    static let primaryKey = Columns.table.rawValue

    enum Columns: String, CaseIterable {
        case table = "tbl"
        case index = "idx"
        case stat
    }

    let table: String
    let index: String?
    let stat: String

    init(table: String, index: String?, stat: String) {
        self.table = table
        self.index = index
        self.stat = stat
    }

    init(row: Row) throws {
        table = row.string(Self.recordColumn(.table))
        index = row.optionalString(Self.recordColumn(.index))
        stat = row.string(Self.recordColumn(.stat))
    }

    /// The statistics of `table` and `index` (nil: the table's own row), for replacing them.
    var same: SQLPredicate {
        let sameIndex = index.map { Self.column(.index) == $0 } ?? Self.column(.index).isNull
        return Self.column(.table) == table && sameIndex
    }

    /// The `INSERT` of this row.
    var insert: PreparedRequest {
        Self.insert([(.table, .text(table)), (.index, index.map { .text($0) } ?? .null), (.stat, .text(stat))])
    }
}

extension PlannerStatistic {
    /// The statistics of `index`, on its table.
    init(_ index: IndexDefinition, _ stat: String) {
        self.init(table: index.table, index: index.name, stat: stat)
    }

    /// The statistics of `table` alone: its row count.
    init(_ table: TableDefinition, _ stat: String) {
        self.init(table: table.name, index: nil, stat: stat)
    }

    /// The statistics of the primary key of `table`, a `WITHOUT ROWID` table (whose rows are
    /// that index, named after the table).
    init(primaryKeyOf table: TableDefinition, _ stat: String) {
        self.init(table: table.name, index: table.name, stat: stat)
    }
}
