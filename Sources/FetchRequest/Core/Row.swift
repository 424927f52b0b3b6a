import CSQLite

/// The current row of a running statement, read column by column with typed accessors.
///
/// A `Row` is a view: it is valid until its statement steps again. Copy what you need out of it.
public struct Row {
    let statement: Statement

    /// How many columns the row has.
    public var count: Int { statement.columnNames.count }

    /// True when column `index` holds NULL.
    public func isNull(_ index: Int) -> Bool {
        if let remote = statement.remote { return remote.isNull(index) }
        return sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_NULL
    }

    /// Column `index` as an integer (0 for NULL).
    public func int(_ index: Int) -> Int {
        if let remote = statement.remote { return remote.int(index) }
        return Int(sqlite3_column_int64(statement.handle, Int32(index)))
    }

    /// Column `index` as an integer, or nil for NULL.
    public func optionalInt(_ index: Int) -> Int? {
        isNull(index) ? nil : int(index)
    }

    /// Column `index` as a double (0 for NULL).
    public func double(_ index: Int) -> Double {
        if let remote = statement.remote { return remote.double(index) }
        return sqlite3_column_double(statement.handle, Int32(index))
    }

    /// Column `index` as a double, or nil for NULL.
    public func optionalDouble(_ index: Int) -> Double? {
        isNull(index) ? nil : double(index)
    }

    /// Column `index` as text ("" for NULL).
    public func string(_ index: Int) -> String {
        if let remote = statement.remote { return String(decoding: remote.bytes(index), as: UTF8.self) }
        guard let pointer = sqlite3_column_text(statement.handle, Int32(index)) else { return "" }
        let length = Int(sqlite3_column_bytes(statement.handle, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    /// Column `index` as text, or nil for NULL.
    public func optionalString(_ index: Int) -> String? {
        isNull(index) ? nil : string(index)
    }

    /// Calls `body` with column `index`'s text as UTF-8 bytes, without making a `String`
    /// (empty for NULL). The bytes are valid only during the call.
    @inline(__always)
    public func withText<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        if let remote = statement.remote { return try body(remote.bytes(index).bindMemory(to: UInt8.self)) }
        let pointer = sqlite3_column_text(statement.handle, Int32(index))
        let length = Int(sqlite3_column_bytes(statement.handle, Int32(index)))
        return try body(UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : length))
    }

    /// The storage class of column `index`, without reading it.
    public func isInteger(_ index: Int) -> Bool {
        if let remote = statement.remote { return remote.storageClass(index) == .integer }
        return sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_INTEGER
    }

    /// Column `index` as whichever storage class it holds.
    public func value(_ index: Int) -> SQLValue {
        if let remote = statement.remote {
            switch remote.storageClass(index) {
            case .integer: return .integer(Int64(remote.int(index)))
            case .real: return .real(remote.double(index))
            case .null: return .null
            case .text, .blob: return .text(string(index))
            }
        }
        switch sqlite3_column_type(statement.handle, Int32(index)) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement.handle, Int32(index)))
        case SQLITE_FLOAT: return .real(double(index))
        case SQLITE_NULL: return .null
        default: return .text(string(index))
        }
    }

    /// The column names of the row, in order.
    public var columnNames: [String] { statement.columnNames }
}

extension Row {
    // Reading by name: records decode themselves by the names of their columns, so the order a
    // request selects them in cannot shift a value into the wrong property. `RecordColumn` finds a
    // name's position in the record's `columnNames` once, so a hot decode costs nothing more than
    // reading by position; a plain name is looked up in the statement's columns (once per statement).

    /// True when `column` holds NULL.
    public func isNull<Record>(_ column: RecordColumn<Record>) -> Bool { isNull(column.index) }
    /// `column` as an integer (0 for NULL).
    public func int<Record>(_ column: RecordColumn<Record>) -> Int { int(column.index) }
    /// `column` as an integer, or nil for NULL.
    public func optionalInt<Record>(_ column: RecordColumn<Record>) -> Int? { optionalInt(column.index) }
    /// `column` as a double (0 for NULL).
    public func double<Record>(_ column: RecordColumn<Record>) -> Double { double(column.index) }
    /// `column` as a double, or nil for NULL.
    public func optionalDouble<Record>(_ column: RecordColumn<Record>) -> Double? { optionalDouble(column.index) }
    /// `column` as text ("" for NULL).
    public func string<Record>(_ column: RecordColumn<Record>) -> String { string(column.index) }
    /// `column` as text, or nil for NULL.
    public func optionalString<Record>(_ column: RecordColumn<Record>) -> String? { optionalString(column.index) }

    /// The column named `column` as an integer (0 for NULL).
    public func int(_ column: String) -> Int { int(statement.columnIndex(column)) }
    /// The column named `column` as an integer, or nil for NULL.
    public func optionalInt(_ column: String) -> Int? { optionalInt(statement.columnIndex(column)) }
    /// The column named `column` as a double, or nil for NULL.
    public func optionalDouble(_ column: String) -> Double? { optionalDouble(statement.columnIndex(column)) }
    /// The column named `column` as text ("" for NULL).
    public func string(_ column: String) -> String { string(statement.columnIndex(column)) }
    /// The column named `column` as text, or nil for NULL.
    public func optionalString(_ column: String) -> String? { optionalString(statement.columnIndex(column)) }
    /// The column named `column` as whichever storage class it holds.
    public func value(_ column: String) -> SQLValue { value(statement.columnIndex(column)) }
}

/// A column of an entity's records, by name: its position in `Record.columnNames` (what every
/// request for the record selects, in that order) is found once, when the column is made, so a
/// record decodes by name at the cost of reading by position.
///
///     static let stopName = RecordColumn<Stop>("stop_name")
///     name = row.string(Self.stopName)
public struct RecordColumn<Record: Entity>: Sendable {
    public let name: String
    /// The position in `Record.columnNames`.
    public let index: Int

    /// The column `name`, which must be one of `Record.columnNames` (a programming error otherwise).
    public init(_ name: String) {
        guard let index = Record.columnNames.firstIndex(of: name) else {
            preconditionFailure("\(Record.self) selects no column \(name) (its columns: \(Record.columnNames))")
        }
        self.name = name
        self.index = index
    }
}
