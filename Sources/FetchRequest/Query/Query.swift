/// One `SELECT`, described as a value: table, joins, selection, predicate, grouping, order, limits.
///
/// This is the untyped core that `FetchRequest` wraps and that subqueries are made of. Each
/// builder method returns a changed copy, so a query can be shared and refined freely.
public struct Query: Sendable {
    /// The table rows come from.
    public var table: String
    /// The name the table goes by inside the query (its own name unless set).
    public var alias: String
    /// `SELECT DISTINCT` when true.
    public var distinct = false
    /// What each result row holds; empty means every column of `table` (`*`).
    public var selection: [SelectedProperty] = []
    /// Tables joined to `table`.
    public var joins: [Join] = []
    /// The `WHERE` condition.
    public var predicate: SQLPredicate = .all
    /// The `GROUP BY` expressions.
    public var groupBy: [SQLExpression] = []
    /// The `HAVING` condition, applied to groups.
    public var having: SQLPredicate = .all
    /// The `ORDER BY` keys.
    public var sortDescriptors: [SortDescriptor] = []
    /// At most this many rows (Core Data's `fetchLimit`); nil or 0 means no limit.
    public var limit: Int?
    /// Skip this many rows first (Core Data's `fetchOffset`).
    public var offset: Int = 0
    /// A substitution variable that gives the limit when a template runs (then `limit` is unused).
    public var limitVariable: String?
    /// Whether one plan serves every value the query is run with (it reads by index keys and
    /// ranges): the SQL then says so (`SQLGenerator.plannedOnceMarker`), and a store on a server
    /// plans it once per connection, where any other statement is planned for its values at
    /// each run (a plan made without the values can be far off for some requests).
    public var plannedOnce = false
    /// The rows of another query, read as a table (`FROM (SELECT …) AS alias`) in place of `table`.
    public var derivedRows: DerivedRows?
    /// For the query of a derived table: the key by which a server may keep only the first rows,
    /// as many as the enclosing statement's `LIMIT`, rows tied with the last kept, before the
    /// enclosing query joins them (`SQLGenerator.firstRowsMarker`).
    ///
    /// The enclosing query must sort by this key first and its joins must keep every row (keys
    /// the import checked): then its first rows are among those kept. A server then joins those
    /// rather than every row the derived table holds; SQLite flattens the derived table into one
    /// join and has no use for it.
    public var firstRowsKey: SQLExpression?

    /// A query over every row of `table`.
    public init(table: String, alias: String? = nil) {
        self.table = table
        self.alias = alias ?? table
    }

    /// A query over the rows of `query`, read as a table named `alias`: its selected names are
    /// the table's columns.
    public init(rowsOf query: Query, as alias: String) {
        self.table = alias
        self.alias = alias
        self.derivedRows = DerivedRows(query)
    }

    /// A copy that also requires `predicate` (combined with `AND`).
    public func filter(_ predicate: SQLPredicate) -> Query {
        var copy = self
        copy.predicate = copy.predicate && predicate
        return copy
    }

    /// A copy that selects these expressions (CoreStore's `Select`).
    public func select(_ properties: [SelectedProperty]) -> Query {
        var copy = self
        copy.selection = properties
        return copy
    }

    /// A copy that selects these expressions, each named after its column.
    public func select(_ expressions: SQLExpression...) -> Query {
        select(expressions.map { SelectedProperty($0) })
    }

    /// A copy with `join` added.
    public func joining(_ join: Join) -> Query {
        var copy = self
        copy.joins.append(join)
        return copy
    }

    /// A copy sorted by these keys (replacing earlier ones).
    public func sorted(by descriptors: [SortDescriptor]) -> Query {
        var copy = self
        copy.sortDescriptors = descriptors
        return copy
    }

    /// A copy grouped by these expressions, keeping the groups for which `having` holds.
    public func grouped(by expressions: [SQLExpression], having: SQLPredicate = .all) -> Query {
        var copy = self
        copy.groupBy = expressions
        copy.having = having
        return copy
    }

    /// A copy limited to `limit` rows after skipping `offset`.
    public func limited(to limit: Int?, offset: Int = 0) -> Query {
        var copy = self
        copy.limit = limit
        copy.offset = offset
        return copy
    }

    /// The position of the selected column named `name` (its alias, else its column's name): a
    /// query's rows are read there by name, at the cost of reading by position, when the position
    /// is found once for the query's shape. A name the query does not select is a programming error.
    public func position(of name: String) -> Int {
        guard let index = selection.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("the query selects no column \(name) (it selects \(selection.map(\.name)))")
        }
        return index
    }

    /// A copy with duplicate rows removed.
    public func distinctRows() -> Query {
        var copy = self
        copy.distinct = true
        return copy
    }
}

/// The query a derived table reads (a class: a query cannot hold a query by value).
public final class DerivedRows: Sendable {
    public let query: Query

    public init(_ query: Query) { self.query = query }
}

/// One column of a result: an expression and the name it is read back by (`AS alias`).
public struct SelectedProperty: Sendable {
    /// What is computed.
    public var expression: SQLExpression
    /// The name given with `as:`, written as `AS "name"`; nil leaves SQLite's own column name.
    public var alias: String?

    public init(_ expression: SQLExpression, as alias: String? = nil) {
        self.expression = expression
        self.alias = alias
    }

    /// The result column's name: the alias, else the column's name (or the function's).
    public var name: String { alias ?? expression.defaultName }
}

/// A table joined into a query: `JOIN table AS alias ON condition`.
public struct Join: Sendable {
    /// Inner joins drop rows with no match; left joins keep them with NULLs.
    public enum Kind: String, Sendable {
        case inner = "JOIN"
        case left = "LEFT JOIN"
    }

    public var kind: Kind
    public var table: String
    public var alias: String
    public var condition: SQLPredicate

    public init(_ kind: Kind = .inner, table: String, as alias: String? = nil, on condition: SQLPredicate) {
        self.kind = kind
        self.table = table
        self.alias = alias ?? table
        self.condition = condition
    }
}
