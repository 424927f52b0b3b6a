/// A Swift type whose values are rows of one table: Core Data's entity, CoreStore's `From`.
///
/// The entity names its table, its columns in the order `init(row:)` reads them, and its
/// primary key; requests select those columns by default.
public protocol Entity {
    /// The table the rows live in.
    static var tableName: String { get }
    /// The columns read for a record, in the order `init(row:)` reads them.
    static var columnNames: [String] { get }
    /// The integer primary key column (the record's identifier, Core Data's `objectID`).
    static var primaryKey: String { get }
    /// Makes a record from a row whose columns are `columnNames`, in order.
    init(row: Row) throws
}

extension Entity {
    public static var primaryKey: String { "id" }

    /// A column of this entity, qualified by its table name.
    public static func column(_ name: String) -> SQLExpression {
        Column(name, of: tableName)
    }
}

/// A link from one entity to another through a key: stop → stop times, trip → route.
///
/// To-one relationships join (`JOIN routes ON routes.id = trips.route`); to-many relationships
/// become correlated subqueries (`EXISTS`, `COUNT`), as Core Data's `SUBQUERY` does.
public struct Relationship<Source: Entity, Destination: Entity>: Sendable {
    /// The column of the source table holding the key.
    public let sourceColumn: String
    /// The column of the destination table it matches.
    public let destinationColumn: String

    /// A relationship matching `Source.sourceColumn` with `Destination.destinationColumn`.
    public init(from sourceColumn: String, to destinationColumn: String) {
        self.sourceColumn = sourceColumn
        self.destinationColumn = destinationColumn
    }

    /// The destination rows related to the current source row, as a correlated subquery that
    /// also requires `predicate`: `SELECT … FROM destination AS alias WHERE alias.key = source.key AND …`.
    public func subquery(where predicate: SQLPredicate = .all, alias: String? = nil) -> Query {
        let alias = alias ?? Destination.tableName
        return Query(table: Destination.tableName, alias: alias)
            .filter(Column(destinationColumn, of: alias) == Column(sourceColumn, of: Source.tableName))
            .filter(predicate)
    }

    /// `EXISTS` a related destination row for which `predicate` holds.
    public func exists(where predicate: SQLPredicate = .all) -> SQLPredicate {
        .exists(subquery(where: predicate))
    }

    /// The number of related destination rows for which `predicate` holds, compared with `n`:
    /// Core Data's `SUBQUERY(relationship, $x, predicate).@count op n`.
    public func count(where predicate: SQLPredicate = .all, _ op: ComparisonOperator, _ n: Int) -> SQLPredicate {
        .count(of: subquery(where: predicate), op, n)
    }

    /// The join that brings the destination into a query over the source.
    public func join(_ kind: Join.Kind = .inner, as alias: String? = nil) -> Join {
        let alias = alias ?? Destination.tableName
        return Join(kind, table: Destination.tableName, as: alias,
                    on: Column(destinationColumn, of: alias) == Column(sourceColumn, of: Source.tableName))
    }
}
