/// One key of an `ORDER BY`: an expression, a direction, and optionally a collation.
///
/// Sort descriptors append with `+`, as CoreStore's `OrderBy` does:
///
///     let order = SortDescriptor(Column("departure")) + SortDescriptor(Column("stop_id"))
public struct SortDescriptor: Sendable {
    /// What is sorted on.
    public var expression: SQLExpression
    /// True for ascending order (`ASC`), false for descending (`DESC`).
    public var ascending: Bool
    /// A collation name for text keys (`BINARY`, `NOCASE`, `RTRIM`); nil keeps the column's own.
    public var collation: Collation?

    /// The collations SQLite ships with. A closed set, so no outside name reaches the SQL.
    public enum Collation: String, Sendable {
        case binary = "BINARY"
        case noCase = "NOCASE"
        case rightTrim = "RTRIM"
    }

    public init(_ expression: SQLExpression, ascending: Bool = true, collation: Collation? = nil) {
        self.expression = expression
        self.ascending = ascending
        self.collation = collation
    }
}

/// Several sort keys in order.
public func + (lhs: SortDescriptor, rhs: SortDescriptor) -> [SortDescriptor] { [lhs, rhs] }
/// Sort keys with one more appended.
public func + (lhs: [SortDescriptor], rhs: SortDescriptor) -> [SortDescriptor] { lhs + [rhs] }

extension SQLExpression {
    /// This expression, ascending.
    public var ascending: SortDescriptor { SortDescriptor(self, ascending: true) }
    /// This expression, descending.
    public var descending: SortDescriptor { SortDescriptor(self, ascending: false) }
}
