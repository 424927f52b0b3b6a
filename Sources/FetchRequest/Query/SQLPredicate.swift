/// A condition on rows: the `WHERE` (or `HAVING`) of a request, as a tree of values.
///
/// Build predicates with operators on expressions and combine them with `&&`, `||` and `!`;
/// precedence is kept right in the SQL whatever the nesting.
///
///     Column("stop_lat") >= 54.6 && (Column("location_type") == 1 || Column("parent").isNull)
///     // "stop_lat" >= ? AND ("location_type" = ? OR "parent" IS NULL)
public struct SQLPredicate: Sendable {
    // Only the cases that hold a predicate or a query (which holds predicates) are boxed: the
    // constants and plain comparisons allocate nothing.
    enum Node: Sendable {
        case comparison(SQLExpression, ComparisonOperator, SQLExpression)
        case between(SQLExpression, SQLExpression, SQLExpression)
        case inList(SQLExpression, [SQLExpression])
        indirect case inSubquery(SQLExpression, Query)
        case isNull(SQLExpression)
        case beginsWith(SQLExpression, String)
        case like(SQLExpression, String)
        case glob(SQLExpression, String)
        indirect case exists(Query)
        indirect case subqueryCount(Query, ComparisonOperator, SQLExpression)
        case and([SQLPredicate])
        case or([SQLPredicate])
        indirect case not(SQLPredicate)
        indirect case notTrue(SQLPredicate)
        case constant(Bool)
    }

    let node: Node

    init(_ node: Node) { self.node = node }

    /// A predicate every row satisfies (`1`), the neutral start for `&&` chains.
    public static var all: SQLPredicate { SQLPredicate(.constant(true)) }
    /// A predicate no row satisfies (`0`).
    public static var none: SQLPredicate { SQLPredicate(.constant(false)) }

    /// `EXISTS (subquery)`.
    public static func exists(_ subquery: Query) -> SQLPredicate { SQLPredicate(.exists(subquery)) }

    /// `(SELECT COUNT(*) FROM …) op n`: Core Data's `SUBQUERY(…).@count op n`.
    public static func count(of subquery: Query, _ op: ComparisonOperator, _ n: Int) -> SQLPredicate {
        SQLPredicate(.subqueryCount(subquery, op, .value(n)))
    }

    /// `(predicate) IS NOT 1`: true when `predicate` is false or NULL. The negation of two-valued
    /// logic, where a comparison with a missing value is false (as Core Data's in-memory
    /// predicates have it), not SQL's unknown, which `NOT` keeps unknown.
    public static func isNotTrue(_ predicate: SQLPredicate) -> SQLPredicate {
        SQLPredicate(.notTrue(predicate))
    }

    /// Every predicate in `predicates` holds (true for an empty list).
    public static func allOf(_ predicates: [SQLPredicate]) -> SQLPredicate {
        predicates.isEmpty ? .all : predicates.count == 1 ? predicates[0] : SQLPredicate(.and(predicates))
    }

    /// At least one predicate in `predicates` holds (false for an empty list).
    public static func anyOf(_ predicates: [SQLPredicate]) -> SQLPredicate {
        predicates.isEmpty ? .none : predicates.count == 1 ? predicates[0] : SQLPredicate(.or(predicates))
    }
}

/// The comparison operators of SQL.
public enum ComparisonOperator: String, Sendable {
    case equal = "="
    case notEqual = "<>"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// `IS`: like `=`, but NULL `IS` NULL is true.
    case `is` = "IS"
    /// `IS NOT`: like `<>`, but true when exactly one side is NULL.
    case isNot = "IS NOT"
}

extension SQLExpression {
    /// `self BETWEEN low AND high` (both ends included).
    public func between(_ low: some SQLValueConvertible, and high: some SQLValueConvertible) -> SQLPredicate {
        SQLPredicate(.between(self, .value(low), .value(high)))
    }

    /// `self BETWEEN low AND high` over expressions.
    public func between(_ low: SQLExpression, and high: SQLExpression) -> SQLPredicate {
        SQLPredicate(.between(self, low, high))
    }

    /// `self IN (?, ?, …)`; an empty list matches nothing.
    public func isIn(_ values: [some SQLValueConvertible]) -> SQLPredicate {
        values.isEmpty ? .none : SQLPredicate(.inList(self, values.map { .value($0) }))
    }

    /// `self IN ($name0, $name1, …)` with `count` substitution variables named `name0`…: one
    /// template for every list of that length (an empty list matches nothing).
    public func isIn(variablesNamed name: String, count: Int) -> SQLPredicate {
        count == 0 ? .none : SQLPredicate(.inList(self, (0..<count).map { .variable(name + String($0)) }))
    }

    /// `self IN (SELECT …)`.
    public func isIn(_ subquery: Query) -> SQLPredicate {
        SQLPredicate(.inSubquery(self, subquery))
    }

    /// `self IS NULL`.
    public var isNull: SQLPredicate { SQLPredicate(.isNull(self)) }

    /// `self IS NOT NULL`.
    public var isNotNull: SQLPredicate { !SQLPredicate(.isNull(self)) }

    /// Core Data's `BEGINSWITH`, as an index-friendly range: `self >= prefix AND self < successor`.
    ///
    /// The successor is the smallest string greater than every string starting with `prefix` in
    /// SQLite's `BINARY` collation (UTF-8 byte order, which is code-point order), so an index on
    /// the column answers with a `SEARCH`, where `LIKE 'x%'` would scan. Case- and
    /// accent-sensitive: normalize both sides first when that is wanted.
    public func beginsWith(_ prefix: String) -> SQLPredicate {
        SQLPredicate(.beginsWith(self, prefix))
    }

    /// Core Data's `CONTAINS`: `self LIKE '%text%' ESCAPE '\'`, with `%`, `_` and `\` in `text`
    /// escaped so they match themselves. Case-insensitive for ASCII letters only, as SQLite's LIKE.
    public func contains(_ text: String) -> SQLPredicate {
        SQLPredicate(.like(self, "%" + SQLPredicate.escapeLike(text) + "%"))
    }

    /// `self GLOB pattern`: case-sensitive, `*` and `?` wildcards, `[…]` classes (so a literal `[`
    /// is written `[[]`); `globEscaped(_:)` makes text match itself.
    public func glob(_ pattern: String) -> SQLPredicate {
        SQLPredicate(.glob(self, pattern))
    }

    /// `self LIKE pattern ESCAPE '\'` with a pattern the caller wrote (`%` and `_` are wildcards).
    public func like(_ pattern: String) -> SQLPredicate {
        SQLPredicate(.like(self, pattern))
    }
}

extension SQLPredicate {
    /// `text` with GLOB's special characters (`*`, `?`, `[`) written as one-character classes, so
    /// it matches itself in a GLOB pattern.
    public static func globEscaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "*": escaped += "[*]"
            case "?": escaped += "[?]"
            case "[": escaped += "[[]"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// `text` with the LIKE wildcards and the escape character escaped by `\`.
    public static func escapeLike(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// The smallest string that sorts after every string starting with `prefix` in code-point
    /// order, or nil when there is none (the prefix is made only of U+10FFFF).
    ///
    /// The last scalar is incremented, skipping the surrogate range; a last scalar that is already
    /// the largest one is dropped and the one before it incremented.
    public static func successor(of prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if next <= 0x10FFFF, let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                return String(view)
            }
        }
        return nil
    }
}

private func compare(_ lhs: SQLExpression, _ op: ComparisonOperator, _ rhs: SQLExpression) -> SQLPredicate {
    SQLPredicate(.comparison(lhs, op, rhs))
}

public func == (lhs: SQLExpression, rhs: SQLExpression) -> SQLPredicate { compare(lhs, .equal, rhs) }
public func != (lhs: SQLExpression, rhs: SQLExpression) -> SQLPredicate { compare(lhs, .notEqual, rhs) }
public func < (lhs: SQLExpression, rhs: SQLExpression) -> SQLPredicate { compare(lhs, .less, rhs) }
public func <= (lhs: SQLExpression, rhs: SQLExpression) -> SQLPredicate { compare(lhs, .lessOrEqual, rhs) }
public func > (lhs: SQLExpression, rhs: SQLExpression) -> SQLPredicate { compare(lhs, .greater, rhs) }
public func >= (lhs: SQLExpression, rhs: SQLExpression) -> SQLPredicate { compare(lhs, .greaterOrEqual, rhs) }

/// `lhs = ?`, or `lhs IS NULL` when `rhs` is nil (so `Column("parent") == nil` means what it says).
public func == (lhs: SQLExpression, rhs: (some SQLValueConvertible)?) -> SQLPredicate {
    guard let rhs else { return lhs.isNull }
    return compare(lhs, .equal, .value(rhs))
}

/// `lhs <> ?`, or `lhs IS NOT NULL` when `rhs` is nil.
public func != (lhs: SQLExpression, rhs: (some SQLValueConvertible)?) -> SQLPredicate {
    guard let rhs else { return lhs.isNotNull }
    return compare(lhs, .notEqual, .value(rhs))
}

public func < (lhs: SQLExpression, rhs: some SQLValueConvertible) -> SQLPredicate { compare(lhs, .less, .value(rhs)) }
public func <= (lhs: SQLExpression, rhs: some SQLValueConvertible) -> SQLPredicate { compare(lhs, .lessOrEqual, .value(rhs)) }
public func > (lhs: SQLExpression, rhs: some SQLValueConvertible) -> SQLPredicate { compare(lhs, .greater, .value(rhs)) }
public func >= (lhs: SQLExpression, rhs: some SQLValueConvertible) -> SQLPredicate { compare(lhs, .greaterOrEqual, .value(rhs)) }

extension SQLExpression {
    /// `self IS value`: equality that treats NULL as a value.
    public func isSame(as value: some SQLValueConvertible) -> SQLPredicate { compare(self, .is, .value(value)) }
    /// `self IS NOT value`: true also when `self` is NULL and `value` is not.
    public func isNot(_ value: some SQLValueConvertible) -> SQLPredicate { compare(self, .isNot, .value(value)) }
}

/// Both predicates hold. Nested `&&` chains flatten into one `AND` list.
public func && (lhs: SQLPredicate, rhs: SQLPredicate) -> SQLPredicate {
    if case .constant(true) = lhs.node { return rhs }
    if case .constant(true) = rhs.node { return lhs }
    var parts: [SQLPredicate] = []
    if case .and(let left) = lhs.node { parts += left } else { parts.append(lhs) }
    if case .and(let right) = rhs.node { parts += right } else { parts.append(rhs) }
    return SQLPredicate(.and(parts))
}

/// At least one predicate holds. Nested `||` chains flatten into one `OR` list.
public func || (lhs: SQLPredicate, rhs: SQLPredicate) -> SQLPredicate {
    var parts: [SQLPredicate] = []
    if case .or(let left) = lhs.node { parts += left } else { parts.append(lhs) }
    if case .or(let right) = rhs.node { parts += right } else { parts.append(rhs) }
    return SQLPredicate(.or(parts))
}

/// The predicate does not hold: `NOT (…)`.
public prefix func ! (predicate: SQLPredicate) -> SQLPredicate {
    if case .not(let inner) = predicate.node { return inner }
    return SQLPredicate(.not(predicate))
}
