/// A predicate read from an `NSPredicate` format string, before it meets a model: the syntax tree
/// `PredicateParser` builds and `PredicateCompiler` turns into SQL.
///
/// Every node keeps where it starts in the format string (`position`, a count of characters from
/// the start), so a mistake found later (an unknown key path, a value of the wrong type) is shown
/// with a caret under its place, as a syntax error is.
public indirect enum PredicateSyntax: Sendable, Equatable {
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool, position: Int)
    /// `NOT p`, `!p`.
    case not(PredicateSyntax, position: Int)
    /// `p AND q AND …`, `&&` (flattened: never an `and` directly inside an `and`).
    case and([PredicateSyntax])
    /// `p OR q OR …`, `||` (flattened).
    case or([PredicateSyntax])
    /// `left op right`, with an optional quantifier and string options.
    case comparison(ComparisonSyntax)
}

/// One comparison: `[ANY|ALL|NONE] left op[options] right`.
public struct ComparisonSyntax: Sendable, Equatable {
    /// `ANY`/`SOME`, `ALL` or `NONE` before the left expression, if any.
    public var quantifier: Quantifier?
    public var left: ExpressionSyntax
    public var op: PredicateOperator
    /// `[c]`, `[d]`, `[cd]` after the operator.
    public var options: StringOptions
    public var right: ExpressionSyntax
    /// Where the operator starts.
    public var position: Int

    public init(quantifier: Quantifier? = nil, left: ExpressionSyntax, op: PredicateOperator, options: StringOptions = [],
                right: ExpressionSyntax, position: Int) {
        self.quantifier = quantifier
        self.left = left
        self.op = op
        self.options = options
        self.right = right
        self.position = position
    }
}

/// `ANY` (also written `SOME`), `ALL`, `NONE`: how a to-many key path's values must compare.
public enum Quantifier: String, Sendable, Equatable {
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}

/// The operators of the format language.
public enum PredicateOperator: String, Sendable, Equatable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    /// `*` and `?` wildcards.
    case like = "LIKE"
    /// Regular expressions: parsed, refused by the compiler (SQLite has no REGEXP by default).
    case matches = "MATCHES"
    /// `x IN {a, b}`.
    case `in` = "IN"
    /// `x BETWEEN {low, high}`.
    case between = "BETWEEN"
}

/// `[c]` (case-insensitive), `[d]` (diacritic-insensitive), both as `[cd]`.
public struct StringOptions: OptionSet, Sendable, Equatable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let caseInsensitive = StringOptions(rawValue: 1)
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
}

/// A value-producing part of a comparison.
public indirect enum ExpressionSyntax: Sendable, Equatable {
    /// `trip.route.route_short_name`, or `$x.stop.stop_name` inside a SUBQUERY (then the first
    /// component is `$x`). `%K` arguments are parsed into key paths too.
    case keyPath(KeyPathSyntax)
    /// A literal or a `%@` argument.
    case value(PredicateValue, position: Int)
    /// `$NAME`, a substitution variable (filled from the variables given to the compiler).
    case variable(String, position: Int)
    /// `{a, b, …}` (for `IN` and `BETWEEN`).
    case list([ExpressionSyntax], position: Int)
    /// A collection operator over a to-many key path: `stop_times.@count`,
    /// `stop_times.@max.departure_time` (`attribute` is the key path after the operator, nil for
    /// `@count`), or `SUBQUERY(…).@count` (`collection` is then a `.subquery`).
    case aggregate(AggregateFunction, collection: ExpressionSyntax, attribute: KeyPathSyntax?, position: Int)
    /// `SUBQUERY(collection, $variable, predicate)`: only valid followed by `.@count` (the parser
    /// wraps it in `.aggregate(.count, …)`).
    case subquery(collection: KeyPathSyntax, variable: String, predicate: PredicateSyntax, position: Int)
}

/// `@count`, `@sum`, `@min`, `@max`, `@avg`.
public enum AggregateFunction: String, Sendable, Equatable {
    case count = "@count"
    case sum = "@sum"
    case min = "@min"
    case max = "@max"
    case average = "@avg"
}

/// A dotted key path; each component with its own position (for errors under the right word).
public struct KeyPathSyntax: Sendable, Equatable {
    public var components: [String]
    public var positions: [Int]

    public init(components: [String], positions: [Int]) {
        self.components = components
        self.positions = positions
    }

    /// Where the key path starts.
    public var position: Int { positions.first ?? 0 }
    /// The components joined by dots.
    public var text: String { components.joined(separator: ".") }
}

/// A constant of the format language, or an argument given for `%@`.
public enum PredicateValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    case integer(Int)
    case real(Double)
    /// A quoted string, or an argument given as text (`--arg`): typed later by the attribute it meets.
    case text(String)
}

/// A mistake in a predicate: what was expected or is wrong, and where (a character offset into the
/// format string). `description` shows the predicate with a caret under the place.
public struct PredicateFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let format: String
    public let position: Int

    public init(_ message: String, in format: String, at position: Int) {
        self.message = message
        self.format = format
        self.position = position
    }

    /// Three lines: the message, the predicate, a caret under the position.
    public var description: String {
        let shown = String(format.map { $0 == "\n" || $0 == "\t" || $0 == "\r" ? " " : $0 })
        let offset = max(0, min(position, shown.count))
        return message + "\n  " + shown + "\n  " + String(repeating: " ", count: offset) + "^"
    }
}

extension PredicateSyntax {
    /// The predicate written back as an `NSPredicate` format string (values as literals, AND and
    /// OR parts parenthesised where needed): what a typed predicate shows in messages.
    public var formatted: String {
        switch self {
        case .constant(let value, _): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let inner, _): return "NOT " + inner.grouped
        case .and(let parts): return parts.map { if case .or = $0 { "(" + $0.formatted + ")" } else { $0.formatted } }.joined(separator: " AND ")
        case .or(let parts): return parts.map(\.formatted).joined(separator: " OR ")
        case .comparison(let comparison):
            let options = comparison.options.isEmpty ? "" : "[" + (comparison.options.contains(.caseInsensitive) ? "c" : "")
                + (comparison.options.contains(.diacriticInsensitive) ? "d" : "") + "]"
            return (comparison.quantifier.map { $0.rawValue + " " } ?? "") + comparison.left.formatted + " " + comparison.op.rawValue + options
                + " " + comparison.right.formatted
        }
    }

    private var grouped: String {
        switch self {
        case .and, .or: return "(" + formatted + ")"
        default: return formatted
        }
    }
}

extension ExpressionSyntax {
    /// The expression as format-string text.
    public var formatted: String {
        switch self {
        case .keyPath(let path): return path.text
        case .value(let value, _):
            switch value {
            case .null: return "nil"
            case .bool(let flag): return flag ? "TRUE" : "FALSE"
            case .integer(let number): return String(number)
            case .real(let number): return String(number)
            case .text(let text):
                var quoted = "'"
                for character in text {
                    switch character {
                    case "'": quoted += "\\'"
                    case "\\": quoted += "\\\\"
                    case "\n": quoted += "\\n"
                    case "\t": quoted += "\\t"
                    default: quoted.append(character)
                    }
                }
                return quoted + "'"
            }
        case .variable(let name, _): return "$" + name
        case .list(let items, _): return "{" + items.map(\.formatted).joined(separator: ", ") + "}"
        case .aggregate(let function, let collection, let attribute, _):
            return collection.formatted + "." + function.rawValue + (attribute.map { "." + $0.text } ?? "")
        case .subquery(let collection, let variable, let predicate, _):
            return "SUBQUERY(" + collection.text + ", $" + variable + ", " + predicate.formatted + ")"
        }
    }
}
