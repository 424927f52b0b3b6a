import FetchRequest

extension RowWriter {
    /// The `INSERT` of every column of `table` (its keys included), rows setting them by name.
    convenience init(_ database: Database, insertingEveryColumnOf table: TableDefinition) throws {
        try self.init(database, inserting: table, columns: table.columnNames)
    }
}

extension RowWriter.Values {
    /// The value of the declared column `column`.
    subscript<Record>(column: DeclaredColumn<Record>) -> SQLValue {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }
}

/// The fields of a GTFS file copied into its table as they are: the text attributes of the
/// file's entity in the model stored in a column of their own name (`stop_code`, `route_desc`,
/// `agency_url`, …), less those the loader reads itself. The model and the importer so share one
/// list of each file's plain fields: an attribute the model gains is imported, and listed,
/// searched and compared by predicates, with no second list to keep.
struct CopiedFields {
    /// Each copied field's place in the file and the column it goes to.
    let copies: [(field: Int, column: String)]

    /// The copied fields of the file `header` reads, for the model's entity `entity` (its name)
    /// and the table `table` written; `except` are the fields the loader reads itself.
    init(entity: String, table: TableDefinition, header: FeedTable, except: Set<String>) {
        guard let description = TransitModel.model(forFeedKey: 0)[entity] else {
            preconditionFailure("the transit model has no entity \(entity)")
        }
        var copies: [(field: Int, column: String)] = []
        for attribute in description.attributes where !except.contains(attribute.name) {
            guard case .text = attribute.type, case .column(let column) = attribute.source, column == attribute.name else { continue }
            precondition(table.columnNames.contains(column), "\(table.name) has no column for the model's \(entity).\(column)")
            if let field = header.optional(attribute.name) { copies.append((field, column)) }
        }
        self.copies = copies
    }

    /// Sets each copied field's text (nil when empty) in `row`.
    func copy(from fields: FieldReader, into row: inout RowWriter.Values) throws {
        for copy in copies { row[copy.column] = try fields.text(copy.field).sqlValue }
    }
}

extension FieldReader {
    /// The text of the field of the declared column `column` (nil when absent or empty).
    func text<Record>(_ column: DeclaredColumn<Record>) throws -> String? { try text(column.name) }
    /// The decimal number in the field of `column`.
    func double<Record>(_ column: DeclaredColumn<Record>) throws -> Double? { try double(column.name) }
    /// The whole number in the field of `column`.
    func int<Record>(_ column: DeclaredColumn<Record>) throws -> Int? { try int(column.name) }
    /// The text of the field of `column`, which the file must have, not empty.
    func requiredText<Record>(_ column: DeclaredColumn<Record>) throws -> String { try requiredText(column.name) }
    /// The code in the field of `column`, one of `allowed` when present.
    func code<Record>(_ column: DeclaredColumn<Record>, allowed: ClosedRange<Int>) throws -> Int? { try code(column.name, allowed: allowed) }

    /// The text of the field `name` (nil when the file lacks it or it is empty).
    func text(_ name: String) throws -> String? { try text(table.optional(name)) }
    /// The decimal number in the field `name`.
    func double(_ name: String) throws -> Double? { try double(table.optional(name)) }
    /// The whole number in the field `name`.
    func int(_ name: String) throws -> Int? { try int(table.optional(name)) }
    /// The text of the field `name`, which the file must have and which must not be empty.
    func requiredText(_ name: String) throws -> String { try requiredText(try table.required(name)) }
    /// A mistake in the field `name` of this record.
    func error(_ name: String, _ message: String) -> FeedError {
        FeedError(file: table.file, line: record.line, field: name, message: message)
    }
    /// The code in the field `name`, one of `allowed` when present.
    func code(_ name: String, allowed: ClosedRange<Int>) throws -> Int? { try code(table.optional(name), allowed: allowed) }
}
