import FetchRequest

extension Entity {
    /// The record's column `column` (one of its declared `RecordColumn`s), qualified by the table's
    /// name: a request names the column the record reads, never a string of its own.
    static func column(_ column: RecordColumn<Self>) -> SQLExpression { self.column(column.name) }
}
