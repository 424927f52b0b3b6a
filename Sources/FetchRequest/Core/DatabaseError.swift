import CSQLite

/// An error SQLite reported, with the statement and arguments that caused it.
///
/// Printed as `SQLite error 19: NOT NULL constraint failed: stops.stop_id - while executing `…``,
/// so a user or a bug report carries everything needed to reproduce it.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    /// SQLite's primary or extended result code (`SQLITE_CONSTRAINT` is 19, and so on).
    public let code: Int32
    /// SQLite's own message for the error.
    public let message: String
    /// The SQL being prepared or run when it happened, if any.
    public let sql: String?
    /// The values bound to the statement, if any.
    public let arguments: [SQLValue]

    public init(code: Int32, message: String, sql: String? = nil, arguments: [SQLValue] = []) {
        self.code = code
        self.message = message
        self.sql = sql
        self.arguments = arguments
    }

    /// True when the error means the disk (or the file-size limit) is full.
    public var isDiskFull: Bool { code & 0xFF == SQLITE_FULL || code & 0xFF == SQLITE_IOERR }
    /// True when the file is not an SQLite database (`SQLITE_NOTADB`).
    public var isNotADatabase: Bool { code & 0xFF == SQLITE_NOTADB }
    /// True when the statement named a table the database does not have.
    public var isMissingTable: Bool { code & 0xFF == SQLITE_ERROR && message.hasPrefix("no such table") }
    /// True when the statement named a column its table does not have.
    public var isMissingColumn: Bool { code & 0xFF == SQLITE_ERROR && message.hasPrefix("no such column") }
    /// True when another connection holds the lock this one needed (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    public var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
    /// True when the statement was interrupted (`SQLITE_INTERRUPT`): a signal, or a time budget
    /// (`Database.limitTime`) ran out.
    public var isInterrupt: Bool { code & 0xFF == SQLITE_INTERRUPT }
    /// True when a killed writer left a change in the rollback journal that this read-only
    /// connection may not roll back (`SQLITE_READONLY_ROLLBACK`: the file or its folder is read-only).
    public var isUnfinishedChange: Bool { code == SQLITE_READONLY | 3 << 8 }

    public var description: String {
        if isUnfinishedChange {
            return "a process was killed while changing the database and left its rollback journal (the file ending in -journal) beside it, "
                + "which only a writable open can undo: run any transit command on it where the file and its folder are writable"
        }
        var text = "SQLite error \(code): \(message)"
        if let sql {
            text += " - while executing `\(sql)`"
            if !arguments.isEmpty {
                text += " with arguments [" + arguments.map(\.literalDescription).joined(separator: ", ") + "]"
            }
        }
        return text
    }
}

extension DatabaseError {
    /// A store server's error that means what one of SQLite's means, as that error, so callers
    /// handle both alike: a missing table (SQLSTATE 42P01, "no such table" in SQLite), a
    /// statement stopped by its time limit (57014, SQLite's interrupt), and a read a hot standby
    /// cancelled because it held up the replay of the primary's changes (40001 or 40P01, a
    /// "recovery conflict": asked again, it is answered, as SQLite's busy is). Nil for any other.
    public static func matching(sqlState: String?, message: String, sql: String?) -> DatabaseError? {
        switch sqlState {
        case "42P01": return DatabaseError(code: SQLITE_ERROR, message: "no such table (\(message))", sql: sql)
        case "57014": return DatabaseError(code: SQLITE_INTERRUPT, message: message, sql: sql)
        case "40001", "40P01": return DatabaseError(code: SQLITE_BUSY, message: message, sql: sql)
        default: return nil
        }
    }
}

/// A mistake in how a request or statement was put together, found before SQLite runs it.
public enum RequestError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The statement has `expected` placeholders but was given `given` values.
    case argumentCountMismatch(sql: String, expected: Int, given: Int)
    /// A template was executed without a value for one of its substitution variables.
    case missingSubstitutionVariable(name: String)
    /// No template is registered under this name.
    case unknownTemplate(name: String)
    /// The request uses something of SQLite's that a PostgreSQL store does not translate.
    case unsupportedOnServer(what: String)

    public var description: String {
        switch self {
        case let .argumentCountMismatch(sql, expected, given):
            return "the statement `\(sql)` takes \(expected) values but \(given) were given"
        case let .missingSubstitutionVariable(name):
            return "no value was given for the substitution variable $\(name)"
        case let .unknownTemplate(name):
            return "no request template is named \(name); register it first"
        case let .unsupportedOnServer(what):
            return "\(what) does not run on a PostgreSQL server yet; ask the same question of an SQLite file (docs/postgres.md)"
        }
    }
}
