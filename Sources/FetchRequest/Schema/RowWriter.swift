/// A prepared `INSERT` or `UPDATE` of one table whose values are set by column name, so no value
/// depends on where its column sits in the statement:
///
///     let insert = try RowWriter(database, inserting: Schema.directions)
///     try insert.write { row in
///         row["route"] = .integer(route)
///         row["direction"] = .text(name)
///     }
///
/// The columns a row leaves unset are NULL. This is the one way rows are written outside the bulk
/// paths (`BatchInsert`, for the big tables, is positional, with its slots found by name once).
public final class RowWriter {
    private let statement: Statement
    private let table: String
    /// Each column's place among the statement's values.
    private let slots: [String: Int]
    /// The SQL the writer runs.
    public var sql: String { statement.sql }

    /// `INSERT` (or `INSERT OR IGNORE`) into `columns` of `table`: by default every column but an
    /// `INTEGER PRIMARY KEY`, which SQLite then assigns.
    public convenience init(_ database: Database, inserting table: TableDefinition, columns: [String]? = nil,
                            orIgnore: Bool = false) throws {
        let columns = columns ?? table.columns.filter { !($0.primaryKey && $0.type == .integer) }.map(\.name)
        try self.init(database.makeStatement(table.insertSQL(columns: columns, orIgnore: orIgnore)), table: table.name, columns: columns)
    }

    /// `UPDATE table SET columns… WHERE keys…`: a row sets the new values and the keys of the rows to change.
    public convenience init(_ database: Database, updating update: UpdateDefinition) throws {
        try self.init(database.makeStatement(update.sql), table: update.table, columns: update.columns + update.keys)
    }

    private init(_ statement: Statement, table: String, columns: [String]) {
        self.statement = statement
        self.table = table
        slots = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($0.element, $0.offset) })
    }

    /// Where `column` sits among a row's values, found once by a loop that writes many rows (a
    /// name looked up per value costs a hash and a comparison: tens of thousands per realtime read).
    public func slot(_ column: String) -> Slot {
        guard let index = slots[column] else { preconditionFailure("writing \(table): the statement sets no column \(column) (\(sql))") }
        return Slot(index: index)
    }

    /// A column's place among a row's values (`slot(_:)`).
    public struct Slot: Sendable {
        fileprivate let index: Int
    }

    /// Writes one row, whose values `fill` sets by column name.
    public func write(_ fill: (inout Values) throws -> Void) throws {
        var row = Values(writer: self)
        try fill(&row)
        try statement.bind(row.values)
        try statement.run()
    }

    /// One row's values, set by column name; setting a column the statement lacks is a
    /// programming error.
    public struct Values {
        private let writer: RowWriter
        fileprivate var values: [SQLValue]

        fileprivate init(writer: RowWriter) {
            self.writer = writer
            values = Array(repeating: .null, count: writer.slots.count)
        }

        public subscript(column: String) -> SQLValue {
            get { values[slot(column)] }
            set { values[slot(column)] = newValue }
        }

        /// The value of the column found once as `slot`.
        public subscript(slot: Slot) -> SQLValue {
            get { values[slot.index] }
            set { values[slot.index] = newValue }
        }

        private func slot(_ column: String) -> Int {
            guard let slot = writer.slots[column] else {
                preconditionFailure("writing \(writer.table): the statement sets no column \(column) (\(writer.sql))")
            }
            return slot
        }
    }
}
