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
    private let connection: PostgresConnection
    /// The server's name for the prepared statement.
    private let name: String
    private let text: PostgresStatementText
    let columnNames: [String]
    let parameterCount: Int
    private let columnTypes: [Oid]
    private var result: OpaquePointer?
    private var rowCount: Int32 = 0
    private var current: Int32 = -1
    private(set) var changes = 0
    /// BLOBs unescaped for the current row, freed when it moves on.
    private var unescaped: [Int: UnsafeMutableRawBufferPointer] = [:]

    /// Where an insert notes the texts it writes (a read-write store's), else nil.
    private let writtenText: WrittenText?

    init(connection: PostgresConnection, name: String, sql: String, writtenText: WrittenText? = nil) throws {
        self.connection = connection
        self.writtenText = writtenText
        self.name = name
        text = try PostgresStatementText(translating: sql)
        let description = try connection.prepare(name: name, sql: text.sql)
        defer { PQclear(description) }
        parameterCount = Int(PQnparams(description))
        let columns = Int(PQnfields(description))
        columnNames = (0..<columns).map { String(cString: PQfname(description, Int32($0))) }
        columnTypes = (0..<columns).map { PQftype(description, Int32($0)) }
    }

    deinit {
        reset()
        connection.deallocate(name: name)
    }

    func run(_ arguments: [SQLValue]) throws {
        reset()
        writtenText?.note(arguments)
        let result = try connection.executePrepared(name: name, parameters: try text.parameters(arguments), sql: text.sql)
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
        switch columnTypes[index] {
        case PostgresType.boolean: return value.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0
        case PostgresType.real, PostgresType.double, PostgresType.numeric: return Int(strtod(value, nil))
        default: return Int(strtoll(value, nil, 10))
        }
    }

    func double(_ index: Int) -> Double {
        guard let value = PQgetvalue(result, current, Int32(index)), !isNull(index) else { return 0 }
        if columnTypes[index] == PostgresType.boolean { return value.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0 }
        return strtod(value, nil)
    }

    func bytes(_ index: Int) -> UnsafeRawBufferPointer {
        guard !isNull(index), let value = PQgetvalue(result, current, Int32(index)) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        guard columnTypes[index] == PostgresType.bytea else {
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
        switch columnTypes[index] {
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
    /// GLOB patterns given as LIKE patterns.
    func parameters(_ arguments: [SQLValue]) throws -> [String?] {
        try arguments.enumerated().map { index, value in
            switch value {
            case .null: return nil
            case .integer(let number): return String(number)
            case .real(let number):
                guard number.isFinite else { return number.isNaN ? "NaN" : number > 0 ? "Infinity" : "-Infinity" }
                return String(number)
            case .text(let string): return globArguments.contains(index) ? try Self.globToLike(string) : string
            }
        }
    }
}
