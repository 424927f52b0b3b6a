/// A value-producing piece of SQL: a column, a bound value, a function or arithmetic over them.
///
/// Expressions are values; the SQL they stand for is produced only by the `SQLGenerator`, which
/// quotes every identifier and turns every value into a `?` placeholder.
public struct SQLExpression: Sendable {
    indirect enum Node: Sendable {
        case column(qualifier: String?, name: String)
        case value(SQLValue)
        case variable(String)
        case function(SQLFunction, [SQLExpression], distinct: Bool)
        case arithmetic(String, SQLExpression, SQLExpression)
        case caseWhen(SQLPredicate, SQLExpression, SQLExpression)
        case star
        case integerLiteral(Int)
        case subquery(Query)
    }

    let node: Node

    init(_ node: Node) { self.node = node }

    /// A bound value: `?` in the SQL, `value` in the arguments.
    public static func value(_ value: some SQLValueConvertible) -> SQLExpression {
        SQLExpression(.value(value.sqlValue))
    }

    /// An integer written into the SQL rather than bound: for an expression that a query both
    /// selects and groups by, whose two copies a server must see as one (each `?` there is a
    /// parameter of its own, which it cannot tell equal to another).
    public static func literal(_ number: Int) -> SQLExpression {
        SQLExpression(.integerLiteral(number))
    }

    /// A substitution variable, `$name` in a template: bound when the template is executed.
    public static func variable(_ name: String) -> SQLExpression {
        SQLExpression(.variable(name))
    }

    /// `*`, for `COUNT(*)`.
    public static var star: SQLExpression { SQLExpression(.star) }

    /// `CASE WHEN condition THEN a ELSE b END`.
    public static func when(_ condition: SQLPredicate, then a: SQLExpression, else b: SQLExpression) -> SQLExpression {
        SQLExpression(.caseWhen(condition, a, b))
    }

    /// `(SELECT …)`: the first column of the first row of `query`, or NULL when it has none.
    public static func subquery(_ query: Query) -> SQLExpression {
        SQLExpression(.subquery(query))
    }

    /// `COALESCE(a, b, …)`: the first of the expressions that is not NULL.
    public static func coalesce(_ expressions: [SQLExpression]) -> SQLExpression {
        SQLExpression(.function(.coalesce, expressions, distinct: false))
    }

    /// The name a result column gets when this expression is selected without an alias.
    var defaultName: String {
        switch node {
        case .column(_, let name): return name
        case .function(let function, _, _): return function.rawValue.lowercased()
        default: return "value"
        }
    }
}

/// The SQL functions a request may use. A closed set: no name from outside ever becomes SQL.
public enum SQLFunction: String, Sendable {
    case count = "COUNT"
    case sum = "SUM"
    case total = "TOTAL"
    case min = "MIN"
    case max = "MAX"
    case average = "AVG"
    case coalesce = "COALESCE"
    case abs = "ABS"
    case length = "LENGTH"
    /// `fetch_fold(text, options)`: the model's text folding for `[c]`, `[d]`, `[cd]`, registered
    /// on the connection by `Database.register(folding:)`.
    case fold = "fetch_fold"
}

/// A column of the entity being fetched, or of a joined table when `qualifier` names its alias.
///
///     Column("stop_lat")              // "stop_lat"
///     Column("service", of: "trips")  // "trips"."service"
public func Column(_ name: String, of qualifier: String? = nil) -> SQLExpression {
    SQLExpression(.column(qualifier: qualifier, name: name))
}

extension SQLExpression {
    /// `COUNT(self)`, or `COUNT(DISTINCT self)`.
    public func count(distinct: Bool = false) -> SQLExpression { SQLExpression(.function(.count, [self], distinct: distinct)) }
    /// `SUM(self)`.
    public var sum: SQLExpression { SQLExpression(.function(.sum, [self], distinct: false)) }
    /// `MIN(self)`.
    public var min: SQLExpression { SQLExpression(.function(.min, [self], distinct: false)) }
    /// `MAX(self)`.
    public var max: SQLExpression { SQLExpression(.function(.max, [self], distinct: false)) }
    /// `AVG(self)`.
    public var average: SQLExpression { SQLExpression(.function(.average, [self], distinct: false)) }
    /// `ABS(self)`.
    public var absoluteValue: SQLExpression { SQLExpression(.function(.abs, [self], distinct: false)) }
    /// `fetch_fold(self, options)`: the text folded as `[c]`/`[d]` fold it (see `SQLFunction.fold`).
    public func folded(_ options: StringOptions) -> SQLExpression {
        SQLExpression(.function(.fold, [self, .literal(options.rawValue)], distinct: false))
    }
    /// `LENGTH(self)`.
    public var length: SQLExpression { SQLExpression(.function(.length, [self], distinct: false)) }
}

/// `COUNT(*)`: the number of rows. (Computed, like the other constants: a stored global holding an
/// enum payload is reported as a leak by LeakSanitizer, which cannot see through Swift's tag bits.)
public var countAll: SQLExpression { SQLExpression(.function(.count, [.star], distinct: false)) }

public func + (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression { SQLExpression(.arithmetic("+", lhs, rhs)) }
public func - (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression { SQLExpression(.arithmetic("-", lhs, rhs)) }
public func * (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression { SQLExpression(.arithmetic("*", lhs, rhs)) }
public func / (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression { SQLExpression(.arithmetic("/", lhs, rhs)) }
public func + (lhs: SQLExpression, rhs: some SQLValueConvertible) -> SQLExpression { lhs + .value(rhs) }
public func - (lhs: SQLExpression, rhs: some SQLValueConvertible) -> SQLExpression { lhs - .value(rhs) }
public func * (lhs: SQLExpression, rhs: some SQLValueConvertible) -> SQLExpression { lhs * .value(rhs) }
public func / (lhs: SQLExpression, rhs: some SQLValueConvertible) -> SQLExpression { lhs / .value(rhs) }
