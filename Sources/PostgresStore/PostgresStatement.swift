import CPostgres
import FetchRequest
#if canImport(Glibc)
import Glibc
#endif

/// A statement prepared on the server (`PREPARE`d once, run with `PQexecPrepared`), read row by
/// row as a `Row` reads an SQLite statement: what a `Statement` holds on a PostgreSQL store.
///
/// Results come in libpq's text format, each column converted where it is read: integers and
/// reals by `strtoll`/`strtod` (the server writes a double's shortest exact form, so it reads
/// back to the same bits), `bytea` unescaped once per row and column, booleans as 1 and 0.
final class PostgresStatement: StoreStatement {
    /// The statement on the server, which other statements whose text translates the same share.
    private let prepared: PreparedOnServer
    private let text: PostgresStatementText
    var columnNames: [String] { prepared.columnNames }
    let parameterCount: Int
    private var result: OpaquePointer?
    private var rowCount: Int32 = 0
    private var current: Int32 = -1
    private(set) var changes = 0
    /// BLOBs unescaped for the current row, freed when it moves on.
    private var unescaped: [Int: UnsafeMutableRawBufferPointer] = [:]

    /// Where an insert notes the texts it writes (a read-write store's), else nil.
    private let writtenText: WrittenText?

    init(prepared: PreparedOnServer, text: PostgresStatementText, writtenText: WrittenText? = nil) {
        self.prepared = prepared
        self.text = text
        self.writtenText = writtenText
        parameterCount = text.argumentCount
        let verb = text.sql.drop { $0 == " " }.prefix(6).uppercased()
        runsPrepared = text.plannedOnce || (verb != "SELECT" && !verb.hasPrefix("WITH"))
    }

    /// Whether a run executes the prepared statement (its generic plan: a request planned once,
    /// or a write, whose plan is its key either way) rather than sending the text to be planned
    /// for its values (`PostgresStore`'s plans).
    private let runsPrepared: Bool

    deinit { reset() }

    func run(_ arguments: [SQLValue]) throws {
        reset()
        writtenText?.note(arguments)
        let parameters = try text.parameters(arguments)
        let result = runsPrepared
            ? try prepared.connection.executePrepared(name: prepared.name, parameters: parameters, sql: text.sql)
            : try prepared.connection.execute(text.sql, parameters)
        self.result = result
        rowCount = PQntuples(result)
        changes = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    func next() -> Bool {
        releaseUnescaped()
        guard result != nil, current + 1 < rowCount else { return false }
        current += 1
        return true
    }

    func reset() {
        releaseUnescaped()
        if let result { PQclear(result) }
        result = nil
        rowCount = 0
        current = -1
    }

    private func releaseUnescaped() {
        for buffer in unescaped.values { PQfreemem(buffer.baseAddress) }
        unescaped.removeAll(keepingCapacity: true)
    }

    func isNull(_ index: Int) -> Bool {
        PQgetisnull(result, current, Int32(index)) == 1
    }

    func int(_ index: Int) -> Int {
        guard let value = PQgetvalue(result, current, Int32(index)), !isNull(index) else { return 0 }
        switch prepared.columnTypes[index] {
        case PostgresType.boolean: return value.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0
        case PostgresType.real, PostgresType.double, PostgresType.numeric: return Int(strtod(value, nil))
        default: return Int(strtoll(value, nil, 10))
        }
    }

    func double(_ index: Int) -> Double {
        guard let value = PQgetvalue(result, current, Int32(index)), !isNull(index) else { return 0 }
        if prepared.columnTypes[index] == PostgresType.boolean { return value.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0 }
        return strtod(value, nil)
    }

    func bytes(_ index: Int) -> UnsafeRawBufferPointer {
        guard !isNull(index), let value = PQgetvalue(result, current, Int32(index)) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        guard prepared.columnTypes[index] == PostgresType.bytea else {
            return UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(result, current, Int32(index))))
        }
        if let known = unescaped[index] { return UnsafeRawBufferPointer(known) }
        var length = 0
        let bytes = value.withMemoryRebound(to: UInt8.self, capacity: 1) { PQunescapeBytea($0, &length) }
        let buffer = UnsafeMutableRawBufferPointer(start: bytes, count: bytes == nil ? 0 : length)
        unescaped[index] = buffer
        return UnsafeRawBufferPointer(buffer)
    }

    func storageClass(_ index: Int) -> StorageClass {
        if isNull(index) { return .null }
        switch prepared.columnTypes[index] {
        case PostgresType.bigint, PostgresType.integer, PostgresType.smallint, PostgresType.boolean, PostgresType.oid: return .integer
        case PostgresType.real, PostgresType.double: return .real
        case PostgresType.numeric:
            // SUM over integers is numeric here, an integer in SQLite.
            let text = bytes(index)
            return text.contains(UInt8(ascii: ".")) || text.contains(UInt8(ascii: "e")) ? .real : .integer
        case PostgresType.bytea: return .blob
        default: return .text
        }
    }
}

/// A statement `PREPARE`d on the server under `name`, and the columns it answers; forgotten
/// there (`DEALLOCATE`) when the last `PostgresStatement` using it goes.
final class PreparedOnServer {
    let connection: PostgresConnection
    let name: String
    let columnNames: [String]
    let columnTypes: [Oid]

    init(connection: PostgresConnection, name: String, sql: String) throws {
        self.connection = connection
        self.name = name
        let description = try connection.prepare(name: name, sql: sql)
        defer { PQclear(description) }
        let columns = Int(PQnfields(description))
        columnNames = (0..<columns).map { String(cString: PQfname(description, Int32($0))) }
        columnTypes = (0..<columns).map { PQftype(description, Int32($0)) }
    }

    deinit { connection.deallocate(name: name) }
}

/// The type OIDs of PostgreSQL's built-in types a transit store uses (`pg_type`).
enum PostgresType {
    static let boolean: Oid = 16
    static let bytea: Oid = 17
    static let bigint: Oid = 20
    static let smallint: Oid = 21
    static let integer: Oid = 23
    static let oid: Oid = 26
    static let real: Oid = 700
    static let double: Oid = 701
    static let numeric: Oid = 1700
}

extension PostgresStatementText {
    /// `arguments` as the texts the server parses for the statement's parameters (nil for NULL),
    /// GLOB patterns given as LIKE patterns and an `IN` list's values as one array.
    func parameters(_ arguments: [SQLValue]) throws -> [String?] {
        var next = 0
        return try sources.map { source in
            defer { next += source.count }
            guard case .list(let count) = source else { return try parameter(arguments[next], at: next) }
            return "{" + arguments[next..<next + count].map(Self.arrayElement).joined(separator: ",") + "}"
        }
    }

    /// The text of the value at (0-based) `index`.
    private func parameter(_ value: SQLValue, at index: Int) throws -> String? {
        switch value {
        case .null: return nil
        case .integer(let number): return String(number < 0 && limitArguments.contains(index) ? Int64.max : number)
        case .real(let number): return number.postgresText
        case .text(let string): return globArguments.contains(index) ? try Self.globToLike(string) : string
        }
    }

    /// `value` as an element of an array's text: NULL bare, text in double quotes with `"` and `\`
    /// escaped by `\`.
    private static func arrayElement(_ value: SQLValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let number): return String(number)
        case .real(let number): return number.postgresText
        case .text(let string):
            var quoted = "\""
            for character in string {
                if character == "\"" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            return quoted + "\""
        }
    }
}

extension Double {
    /// The number as PostgreSQL reads a `double precision`: Swift's shortest text that reads back to
    /// the same bits, and `NaN`, `Infinity`, `-Infinity` spelled as the server spells them.
    var postgresText: String {
        isFinite ? String(self) : isNaN ? "NaN" : self > 0 ? "Infinity" : "-Infinity"
    }
}
