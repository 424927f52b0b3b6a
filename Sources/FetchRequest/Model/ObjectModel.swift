/// The entities a database holds, their typed attributes and their relationships: Core Data's
/// `NSManagedObjectModel`, over SQLite tables.
///
/// A model is what predicate strings are checked and compiled against: key paths walk its
/// relationships (to-one ones become joins, to-many ones correlated subqueries) and every value is
/// typed by the attribute it meets. It is plain data, so a caller can build one per database
/// layout (transit builds one per feed, whose big tables are its own).
public struct ObjectModel: Sendable {
    /// The entities by name.
    public let entities: [String: EntityDescription]
    /// How `[c]`, `[d]` and `[cd]` fold text before comparing; registered on the connection as
    /// the SQL function `fetch_fold` (`Database.register(folding:)`) and applied to the values in
    /// Swift, so both sides fold the same way.
    public let folding: @Sendable (String, StringOptions) -> String

    public init(entities: [EntityDescription], folding: @escaping @Sendable (String, StringOptions) -> String) {
        self.entities = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.folding = folding
    }

    /// The entity named `name`.
    public subscript(name: String) -> EntityDescription? { entities[name] }
}

/// One entity: a table, its attributes and its relationships (Core Data's `NSEntityDescription`).
public struct EntityDescription: Sendable {
    /// The name predicates and commands use (`trips`, `stop_times`).
    public let name: String
    /// The table its rows live in.
    public let table: String
    /// The attributes, in the order a listing shows them.
    public let attributes: [AttributeDescription]
    /// The relationships to other entities.
    public let relationships: [RelationshipDescription]
    /// The rows of the entity a fetch may return (a feed's key range), given the alias the table
    /// goes by; nil when every row belongs.
    public let scope: (@Sendable (String) -> SQLPredicate)?
    /// The columns of the natural order (the table's key), for fetches that give none.
    public let naturalOrder: [String]

    public init(name: String, table: String, attributes: [AttributeDescription], relationships: [RelationshipDescription] = [],
                naturalOrder: [String], scope: (@Sendable (String) -> SQLPredicate)? = nil) {
        self.name = name
        self.table = table
        self.attributes = attributes
        self.relationships = relationships
        self.naturalOrder = naturalOrder
        self.scope = scope
    }

    /// The attribute named `name`.
    public func attribute(_ name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    /// The relationship named `name`.
    public func relationship(_ name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// What a key path may name here, for error messages: the attributes, then the relationships.
    public var keyDescription: String {
        "attributes: " + attributes.map(\.name).joined(separator: ", ")
            + (relationships.isEmpty ? "" : "; relationships: " + relationships.map { $0.name + ($0.isToMany ? " (to-many)" : "") }.joined(separator: ", "))
    }
}

/// A typed attribute (Core Data's `NSAttributeDescription`): a column of the entity's table, or a
/// value reached through to-one relationships (`route_id` of a trip is `route.route_id`).
public struct AttributeDescription: Sendable {
    /// Where the value comes from.
    public enum Source: Sendable {
        /// A column of the entity's own table.
        case column(String)
        /// A key path through to-one relationships, from the entity.
        case keyPath(String)
        /// A value computed from the entity's row, given the alias its table goes by (a
        /// correlated subquery over a composite key, say).
        case expression(@Sendable (String) -> SQLExpression)
    }

    public let name: String
    public let type: AttributeType
    public let source: Source

    /// An attribute stored in column `column` (by default its own name).
    public init(_ name: String, _ type: AttributeType, column: String? = nil) {
        self.name = name
        self.type = type
        self.source = .column(column ?? name)
    }

    /// An attribute computed from the entity's row by `expression` (given the table's alias).
    public init(_ name: String, _ type: AttributeType, computed expression: @escaping @Sendable (String) -> SQLExpression) {
        self.name = name
        self.type = type
        self.source = .expression(expression)
    }

    /// An attribute that is another entity's, reached by `keyPath` through to-one relationships.
    public init(_ name: String, _ type: AttributeType, keyPath: String) {
        self.name = name
        self.type = type
        self.source = .keyPath(keyPath)
    }
}

/// How an attribute's values are stored and read from what a user writes.
public enum AttributeType: Sendable {
    case text
    case integer
    case real
    /// 0 or 1; a value may be written true/false, yes/no, 1/0.
    case boolean
    /// Integer codes with names (a value may be the number or a name, any case).
    case enumeration([String: Int])
    /// A value written in a form of its own and stored as another (GTFS times `07:30:00` stored as
    /// seconds): `form` names the form for error messages; `read` converts, nil when it cannot.
    case converted(form: String, read: @Sendable (String) -> SQLValue?)

    /// A few words for error messages: "a number", "text", "a GTFS time (HH:MM:SS)".
    public var expectation: String {
        switch self {
        case .text: return "text"
        case .integer: return "a whole number"
        case .real: return "a number"
        case .boolean: return "true or false"
        case .enumeration(let names): return "a number or one of " + names.keys.sorted().joined(separator: ", ")
        case .converted(let form, _): return form
        }
    }
}

/// A relationship (Core Data's `NSRelationshipDescription`): a source column matching a
/// destination column. To-one relationships are joined; to-many ones are correlated subqueries.
public struct RelationshipDescription: Sendable {
    public let name: String
    /// The destination entity's name.
    public let destination: String
    public let isToMany: Bool
    /// The column of the source entity's table holding the key.
    public let sourceColumn: String
    /// The column of the destination's table it matches.
    public let destinationColumn: String
    /// For a to-one relationship, the destination attribute that stands for the related row when
    /// the relationship is used as a value (`trip.route == "R1"` compares `route.route_id`).
    public let identifier: String?
    /// For a to-one relationship: every row has its related row (the key is never NULL and always
    /// matches), so it is an inner join, which SQLite may reorder (start from the related table's
    /// index); an optional one is a left join, so rows without it stay.
    public let isRequired: Bool

    /// A to-one relationship: `sourceColumn` holds the destination's `destinationColumn`.
    public static func toOne(_ name: String, _ destination: String, from sourceColumn: String, to destinationColumn: String = "id",
                             identifier: String? = nil, required: Bool = false) -> RelationshipDescription {
        RelationshipDescription(name: name, destination: destination, isToMany: false, sourceColumn: sourceColumn,
                                destinationColumn: destinationColumn, identifier: identifier, isRequired: required)
    }

    /// A to-many relationship: the destination rows whose `destinationColumn` holds this row's `sourceColumn`.
    public static func toMany(_ name: String, _ destination: String, from sourceColumn: String = "id", to destinationColumn: String) -> RelationshipDescription {
        RelationshipDescription(name: name, destination: destination, isToMany: true, sourceColumn: sourceColumn,
                                destinationColumn: destinationColumn, identifier: nil, isRequired: false)
    }
}
