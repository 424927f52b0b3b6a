import FetchRequest

/// One column of a table, declared once beside its record (`Route.Columns.color`): its name (the
/// GTFS field's, where the column holds one), its SQL type and constraints, and how the object
/// model shows it.
///
/// The table's `CREATE TABLE` (`Schema`), the model's attributes (`TransitModel`: what `transit
/// list` lists and predicates compare), the fields the importer copies as they are
/// (`CopiedFields`), the columns a record reads and those requests name all come from these
/// declarations, so a new GTFS column is one line, as a GRDB record's `enum Columns`.
public struct DeclaredColumn<Record: Entity>: Sendable {
    /// How the object model shows the column.
    enum Shown: Sendable {
        /// Not at all: a key, a feed, a value of the importer's own (`normalized_name`).
        case hidden
        /// As an attribute named after the column.
        case attribute(AttributeType)
        /// As the text attribute `name` of the row the column's key points to, reached by
        /// `keyPath` (`routes.agency` shows as `agency_id`, through `agency.agency_id`).
        case related(name: String, keyPath: String)
    }

    /// The column's name, SQL type and constraints, as `CREATE TABLE` writes them.
    public let definition: TableDefinition.ColumnDefinition
    let shown: Shown

    /// A column the model does not show (a key, a feed, the importer's own values).
    init(_ name: String, _ type: TableDefinition.ColumnType, primaryKey: Bool = false, notNull: Bool = false) {
        definition = .init(name, type, primaryKey: primaryKey, notNull: notNull)
        shown = .hidden
    }

    /// A field of the feed, stored in a column of its name and shown by the model as an attribute
    /// of that name: of the column's type unless `attribute` says otherwise (a route type's names,
    /// a date's forms).
    static func field(_ name: String, _ type: TableDefinition.ColumnType, notNull: Bool = false,
                      as attribute: AttributeType? = nil) -> DeclaredColumn {
        DeclaredColumn(definition: .init(name, type, notNull: notNull), shown: .attribute(attribute ?? type.attributeType))
    }

    /// The key of another row, shown by the model as that row's text attribute `name`, reached by `keyPath`.
    static func key(_ name: String, notNull: Bool = false, shownAs attribute: String, keyPath: String) -> DeclaredColumn {
        DeclaredColumn(definition: .init(name, .integer, notNull: notNull), shown: .related(name: attribute, keyPath: keyPath))
    }

    private init(definition: TableDefinition.ColumnDefinition, shown: Shown) {
        self.definition = definition
        self.shown = shown
    }

    /// The column's name.
    public var name: String { definition.name }

    /// The column qualified by its table's name, as a request names it.
    public var qualified: SQLExpression { Record.column(name) }

    /// The column qualified by `alias`, for a request that gives the table another name.
    public func of(_ alias: String) -> SQLExpression { Column(name, of: alias) }

    /// The attribute the model shows for the column, if any.
    var attribute: AttributeDescription? {
        switch shown {
        case .hidden: return nil
        case .attribute(let type): return AttributeDescription(name, type)
        case .related(let attribute, let keyPath): return AttributeDescription(attribute, .text, keyPath: keyPath)
        }
    }
}

extension TableDefinition.ColumnType {
    /// The attribute type a column of this type is shown as when its declaration names none.
    var attributeType: AttributeType {
        switch self {
        case .integer: return .integer
        case .real: return .real
        case .text, .blob: return .text
        }
    }
}

extension TableDefinition {
    /// The table of `Record`, with the columns declared for it, in order.
    init<Record: Entity>(of record: Record.Type, columns: [DeclaredColumn<Record>]) {
        self.init(Record.tableName, columns: columns.map(\.definition))
    }
}

extension Array {
    /// The model's attributes for these declared columns, in their order.
    func attributes<Record>() -> [AttributeDescription] where Element == DeclaredColumn<Record> {
        compactMap(\.attribute)
    }

    /// The columns' names, in order: what a record selects.
    func names<Record>() -> [String] where Element == DeclaredColumn<Record> { map(\.name) }
}

extension RecordColumn {
    /// The declared column `column`, which the record must select.
    init(_ column: DeclaredColumn<Record>) { self.init(column.name) }
}
