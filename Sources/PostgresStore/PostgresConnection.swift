import CPostgres
import FetchRequest
#if canImport(Glibc)
import Glibc
#endif

/// One connection to a PostgreSQL server through libpq: synchronous, like SQLite's API, so a
/// command asks its question without an event loop.
///
/// The URL is passed to libpq as it is (`postgres://USER@HOST:PORT/DB`, a `postgresql://` URL
/// with libpq's parameters, or `host=/tmp port=5432 …`), so everything libpq understands works.
public final class PostgresConnection {
    /// The raw `PGconn*`.
    let handle: OpaquePointer
    /// Where it is connected, with any password taken out: what messages name.
    public let location: String

    /// Connects to `url`; a server that cannot be reached is one `PostgresError` naming the URL.
    public init(url: String) throws {
        location = StoreLocation.redacted(url)
        guard let handle = PQconnectdb(url) else {
            throw PostgresError(location: location, message: "out of memory connecting")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle))
            PQfinish(handle)
            throw PostgresError(location: location, message: "cannot connect: \(PostgresError.firstLine(message)); is the server running, and the URL right?")
        }
        self.handle = handle
        // Notices (e.g. "schema does not exist, skipping") are not the user's business.
        _ = try? execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(handle) }

    /// Runs `sql` (one or more statements, no parameters, no rows wanted).
    public func execute(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, expecting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK], sql: sql)
    }

    /// Runs `sql` with `$1`, `$2`, … bound to `parameters` (text, or NULL for nil) and returns
    /// every row, each column as text or nil for NULL.
    public func rows(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        let result = withCStrings(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        try check(result, expecting: [PGRES_TUPLES_OK, PGRES_COMMAND_OK], sql: sql)
        return Self.rows(of: result!)
    }

    /// Runs `script` (statements separated by `;`, no parameters) in one round trip and returns
    /// the rows of the last, as `rows` does.
    func lastRows(ofScript script: String) throws -> [[String?]] {
        let result = PQexec(handle, script)
        defer { PQclear(result) }
        try check(result, expecting: [PGRES_TUPLES_OK, PGRES_COMMAND_OK], sql: script)
        return Self.rows(of: result!)
    }

    /// Every row of `result`, each column as text or nil for NULL.
    private static func rows(of result: OpaquePointer) -> [[String?]] {
        let rowCount = PQntuples(result), columnCount = PQnfields(result)
        return (0..<rowCount).map { row in
            (0..<columnCount).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            }
        }
    }

    /// The first column of the first row of `sql`, or nil.
    public func value(_ sql: String, _ parameters: [String?] = []) throws -> String? {
        try rows(sql, parameters).first?.first ?? nil
    }

    /// Whether a transaction is open (and not failed) on the connection.
    var isInTransaction: Bool { PQtransactionStatus(handle) == PQTRANS_INTRANS }

    /// Whether the server is a hot standby (replaying a primary's changes: it refuses writes).
    public func isStandby() throws -> Bool {
        try value("SELECT pg_is_in_recovery()") == "t"
    }

    /// Runs `COPY … FROM STDIN` (`sql`): `body` writes the rows in COPY's text format into the
    /// buffer it is given, which is sent a megabyte at a time.
    public func copyIn(_ sql: String, _ body: (inout CopyText) throws -> Void) throws {
        let started = PQexec(handle, sql)
        defer { PQclear(started) }
        try check(started, expecting: [PGRES_COPY_IN], sql: sql)
        var text = CopyText()
        var failure: Error?
        do {
            try body(&text)
            try text.flush(into: self)
        } catch {
            failure = error
        }
        let ended = failure == nil ? PQputCopyEnd(handle, nil) : PQputCopyEnd(handle, "the copy was stopped")
        guard ended == 1 else { throw PostgresError(location: location, message: lastError) }
        try finishResults(sql: sql)
        if let failure { throw failure }
    }

    /// Runs `COPY … TO STDOUT` (`sql`) and calls `row` with each row's bytes (COPY's text format,
    /// ending in a newline).
    public func copyOut(_ sql: String, _ row: (UnsafeRawBufferPointer) throws -> Void) throws {
        let started = PQexec(handle, sql)
        defer { PQclear(started) }
        try check(started, expecting: [PGRES_COPY_OUT], sql: sql)
        var failure: Error?
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let length = PQgetCopyData(handle, &buffer, 0)
            if length < 0 { break }
            defer { PQfreemem(buffer) }
            if failure == nil {
                do { try row(UnsafeRawBufferPointer(start: buffer, count: Int(length))) } catch { failure = error }
            }
        }
        try finishResults(sql: sql)
        if let failure { throw failure }
    }

    /// Prepares `sql` on the server as the statement `name` and returns its description (the
    /// caller clears it): its parameters and result columns.
    ///
    /// Inside a transaction the statement is prepared under a savepoint, released at once: a
    /// request naming a table the store lacks (the realtime tables before any realtime was
    /// stored) fails alone, as in SQLite, instead of aborting the command's read transaction.
    func prepare(name: String, sql: String) throws -> OpaquePointer {
        if isInTransaction {
            let prepared = PQexec(handle, "SAVEPOINT transit_prepare; PREPARE \(name) AS \(sql); RELEASE SAVEPOINT transit_prepare")
            defer { PQclear(prepared) }
            do {
                try check(prepared, expecting: [PGRES_COMMAND_OK], sql: sql)
            } catch {
                PQclear(PQexec(handle, "ROLLBACK TO SAVEPOINT transit_prepare; RELEASE SAVEPOINT transit_prepare"))
                throw error
            }
        } else {
            let prepared = PQprepare(handle, name, sql, 0, nil)
            defer { PQclear(prepared) }
            try check(prepared, expecting: [PGRES_COMMAND_OK], sql: sql)
        }
        let description = PQdescribePrepared(handle, name)
        try check(description, expecting: [PGRES_COMMAND_OK], sql: sql)
        return description!
    }

    /// Runs the prepared statement `name` with `parameters` (text, nil for NULL) and returns its
    /// result (the caller clears it).
    func executePrepared(name: String, parameters: [String?], sql: String) throws -> OpaquePointer {
        try answer(sql: sql, withCStrings(parameters) { PQexecPrepared(handle, name, Int32(parameters.count), $0, nil, nil, 0) })
    }

    /// Runs `sql` with `parameters` (text, nil for NULL), parsed and planned for these values, and
    /// returns its result (the caller clears it).
    func execute(_ sql: String, _ parameters: [String?]) throws -> OpaquePointer {
        try answer(sql: sql, withCStrings(parameters) { PQexecParams(handle, sql, Int32(parameters.count), nil, $0, nil, nil, 0) })
    }

    /// `result` when it holds rows or a command's completion; else it is cleared and its error thrown.
    private func answer(sql: String, _ result: OpaquePointer?) throws -> OpaquePointer {
        do {
            try check(result, expecting: [PGRES_TUPLES_OK, PGRES_COMMAND_OK], sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        return result!
    }

    /// Forgets the prepared statement `name` (a failure only leaves it prepared until the
    /// connection closes).
    func deallocate(name: String) {
        PQclear(PQexec(handle, "DEALLOCATE " + name))
    }

    /// Sends bytes of a `COPY … FROM STDIN` in progress.
    func send(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        let sent = PQputCopyData(handle, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        guard sent == 1 else { throw PostgresError(location: location, message: lastError) }
    }

    /// Reads the results of a command until libpq has none left, failing on the first error.
    private func finishResults(sql: String) throws {
        var failure: Error?
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            if failure == nil {
                do { try check(result, expecting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK], sql: sql) } catch { failure = error }
            }
        }
        if let failure { throw failure }
    }

    /// Throws the server's error when `result` is not one of `expected`.
    private func check(_ result: OpaquePointer?, expecting expected: [ExecStatusType], sql: String) throws {
        guard let result else { throw PostgresError(location: location, message: lastError) }
        let status = PQresultStatus(result)
        guard !expected.contains(status) else { return }
        let message = String(cString: PQresultErrorMessage(result))
        let state = PQresultErrorField(result, cpostgres_diag_sqlstate()).map { String(cString: $0) }
        if let known = DatabaseError.matching(sqlState: state, message: PostgresError.firstLine(message), sql: sql) { throw known }
        throw PostgresError(location: location, message: PostgresError.firstLine(message), sqlState: state)
    }

    /// libpq's last message on this connection, on one line.
    private var lastError: String { PostgresError.firstLine(String(cString: PQerrorMessage(handle))) }
}

/// Calls `body` with `strings` as C strings (NULL for nil), valid only inside it.
private func withCStrings<T>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
    let copies = strings.map { $0.map { strdup($0) } ?? nil }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}
