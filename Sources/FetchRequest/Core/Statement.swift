import CSQLite

/// One prepared SQL statement: bind values, step through rows, reset, run again.
public final class Statement {
    /// The raw `sqlite3_stmt*` (nil on a server).
    private(set) var handle: OpaquePointer?
    /// The statement prepared on the database's server, when it has one (`Database.store`).
    let remote: StoreStatement?
    /// The values bound to `remote`, sent when it first steps.
    private var remoteArguments: [SQLValue] = []
    /// Whether `remote` has run since the last reset.
    private var remoteRan = false
    /// The connection the statement belongs to.
    unowned let database: Database
    /// The SQL text the statement was prepared from.
    public let sql: String
    /// How many `?` placeholders the statement has.
    public let parameterCount: Int
    /// The names of the result columns, in order.
    public let columnNames: [String]
    /// The position of each result column by name (the first, when two share one), made at the
    /// first read by name.
    private lazy var columnIndexes: [String: Int] = {
        var indexes: [String: Int] = [:]
        for (index, name) in columnNames.enumerated() where indexes[name] == nil { indexes[name] = index }
        return indexes
    }()

    /// The position of the result column named `name`; a name the statement does not select is a
    /// programming error (the record and its request disagree), reported with both.
    func columnIndex(_ name: String) -> Int {
        guard let index = columnIndexes[name] else {
            preconditionFailure("no column \(name) among \(columnNames) of: \(sql)")
        }
        return index
    }

    init(database: Database, sql: String, persistent: Bool) throws {
        if let store = database.store {
            let remote = try store.prepare(sql)
            self.remote = remote
            self.database = database
            self.sql = sql
            self.parameterCount = remote.parameterCount
            self.columnNames = remote.columnNames
            remoteArguments = Array(repeating: .null, count: remote.parameterCount)
            return
        }
        remote = nil
        var pointer: OpaquePointer?
        let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(database.handle, sql, -1, flags, &pointer, nil)
        guard code == SQLITE_OK, let pointer else {
            throw DatabaseError(code: code, message: database.lastErrorMessage, sql: sql)
        }
        self.handle = pointer
        self.database = database
        self.sql = sql
        self.parameterCount = Int(sqlite3_bind_parameter_count(pointer))
        let columnCount = Int(sqlite3_column_count(pointer))
        self.columnNames = (0..<columnCount).map { String(cString: sqlite3_column_name(pointer, Int32($0))) }
    }

    deinit { finalize() }

    func finalize() {
        if let handle { sqlite3_finalize(handle) }
        handle = nil
    }

    /// Clears the previous run so the statement can run again with new values.
    public func reset() {
        if let remote {
            remote.reset()
            remoteRan = false
            for index in remoteArguments.indices { remoteArguments[index] = .null }
            return
        }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` to the placeholders in order, after checking that their number matches.
    public func bind(_ values: [SQLValue]) throws {
        guard values.count == parameterCount else {
            throw RequestError.argumentCountMismatch(sql: sql, expected: parameterCount, given: values.count)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    /// Binds one value to the 1-based placeholder `index`.
    public func bind(_ value: SQLValue, at index: Int) throws {
        if remote != nil { return remoteArguments[index - 1] = value }
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, Int32(index))
        case .integer(let int): code = sqlite3_bind_int64(handle, Int32(index), int)
        case .real(let double): code = sqlite3_bind_double(handle, Int32(index), double)
        case .text(let string):
            code = sqlite3_bind_text(handle, Int32(index), string, -1, csqlite_transient())
        }
        try check(code)
    }

    /// Binds an integer without boxing it in an `SQLValue` (the import's hot path).
    @inline(__always)
    public func bind(integer value: Int64, at index: Int32) {
        if remote != nil { return remoteArguments[Int(index) - 1] = .integer(value) }
        sqlite3_bind_int64(handle, index, value)
    }

    /// Binds a double without boxing it (the import's hot path).
    @inline(__always)
    public func bind(real value: Double, at index: Int32) {
        if remote != nil { return remoteArguments[Int(index) - 1] = .real(value) }
        sqlite3_bind_double(handle, index, value)
    }

    /// Binds NULL to the 1-based placeholder `index`.
    @inline(__always)
    public func bindNull(at index: Int32) {
        if remote != nil { return remoteArguments[Int(index) - 1] = .null }
        sqlite3_bind_null(handle, index)
    }

    /// Binds UTF-8 bytes as text; SQLite copies them, so the buffer may be reused at once.
    @inline(__always)
    public func bind(utf8 bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
        if remote != nil { return remoteArguments[Int(index) - 1] = .text(String(decoding: bytes, as: UTF8.self)) }
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
            return
        }
        base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
            _ = sqlite3_bind_text(handle, index, chars, Int32(bytes.count), csqlite_transient())
        }
    }

    /// Advances to the next row: true when there is one, false when the statement is done.
    @discardableResult
    public func step() throws -> Bool {
        if let remote { return try stepRemote(remote) }
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            throw DatabaseError(code: code, message: database.lastErrorMessage, sql: sql)
        }
    }

    /// Runs a statement that returns no rows, then resets it for the next run.
    public func run() throws {
        if let remote {
            defer { remote.reset(); remoteRan = false }
            return _ = try stepRemote(remote)
        }
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            throw DatabaseError(code: code, message: database.lastErrorMessage, sql: sql)
        }
    }

    /// Runs `remote` with the bound values at the first step, then moves to its next row.
    private func stepRemote(_ remote: StoreStatement) throws -> Bool {
        if !remoteRan {
            remoteRan = true
            try remote.run(remoteArguments)
            database.lastStoreChanges = remote.changes
        }
        return remote.next()
    }

    /// The current row's columns, valid until the next `step()`.
    public var row: Row { Row(statement: self) }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(code: code, message: database.lastErrorMessage, sql: sql)
        }
    }
}
