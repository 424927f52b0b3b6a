/// A value as SQLite stores it: one of its five storage classes (blobs are not used here).
///
/// Every value a request carries is bound to a `?` placeholder as one of these; no value is
/// ever written into SQL text.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// The value as SQL literal text, for humans only (explain output); never executed.
    public var literalDescription: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value):
            return "'" + value.replacingAll("'", with: "''") + "'"
        }
    }
}

/// A Swift value that can be bound to a statement placeholder.
public protocol SQLValueConvertible: Sendable {
    /// The SQLite value this Swift value is stored as.
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLValueConvertible {
    public var sqlValue: SQLValue { self }
}

extension Int: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Int64: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(self) }
}

extension Int32: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Double: SQLValueConvertible {
    public var sqlValue: SQLValue { .real(self) }
}

extension String: SQLValueConvertible {
    public var sqlValue: SQLValue { .text(self) }
}

extension Bool: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}

extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    public var sqlValue: SQLValue {
        switch self {
        case .none: return .null
        case .some(let wrapped): return wrapped.sqlValue
        }
    }
}

extension String {
    /// Replaces every occurrence of `target` (Foundation-free, so the query path stays light).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        guard contains(target) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count + 8)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
