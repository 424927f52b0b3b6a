import CSQLite

/// A connection to one SQLite database file.
///
/// Opened read-only for queries (they can never change the file, and work on read-only media) or
/// read-write for imports. Statements are prepared once per SQL text and kept in a cache, so a
/// request that runs many times pays for parsing and planning once.
public final class Database {
    /// How the file is opened.
    public enum Mode: Sendable {
        /// Queries only; the file and its folder may be read-only.
        case readOnly
        /// Reads and writes; the file is created when missing.
        case readWrite
    }

    /// The raw `sqlite3*` handle, for the internal layer only.
    let handle: OpaquePointer
    /// The path given when opening (a server's URL without its password).
    public let path: String
    /// The server answering in place of a file, for a `postgres://` location (nil for a file).
    public let store: StoreConnection?
    private var statementCache: [String: Statement] = [:]
    /// The statements used last, most recent first, looked at before `statementCache`: a
    /// template run again with new values carries the very same SQL string, which compares equal
    /// at once (same storage), so the cache does not hash the whole text again (2 KB for a
    /// departures request) at every run.
    private var recentStatements: [Statement] = []
    private static let recentStatementLimit = 4
    /// The statements of `runKept(_:)`, by SQL text.
    private var keptStatements: [String: Statement] = [:]
    /// What the last statement run on `store` changed (`changes` on a server).
    var lastStoreChanges: Int?

    /// Receives every request the connection runs, when set (the machinery behind `--explain`).
    public var observer: ((ExecutedRequest) -> Void)?
    /// The deadline of `limitTime(toMilliseconds:)`, kept alive as long as the connection.
    let timeBudget = TimeBudget()

    /// Opens the database at `path`.
    ///
    /// A read-only open of a missing file fails instead of creating one.
    public init(path: String, mode: Mode) throws {
        _ = Database.configured
        var pointer: OpaquePointer?
        let flags: Int32
        var file = path
        if StoreLocation.isPostgres(path) {
            guard let opener = Database.storeOpener else { throw StoreNotSupported(location: StoreLocation.redacted(path)) }
            store = try opener(path, mode)
            // An empty in-memory database stands in for the file: the SQLite-only settings
            // (functions, progress handlers) land there harmlessly; every statement goes to `store`.
            file = ":memory:"
            flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        } else {
            store = nil
            switch mode {
            case .readOnly:
                Database.rollBackUnfinishedChange(at: path)
                flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            case .readWrite: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
            }
        }
        let code = sqlite3_open_v2(file, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let pointer { sqlite3_close_v2(pointer) }
            throw DatabaseError(code: code, message: message)
        }
        sqlite3_extended_result_codes(pointer, 1)
        // Another process may be replacing the file; wait briefly rather than fail at once.
        sqlite3_busy_timeout(pointer, 5_000)
        self.handle = pointer
        self.path = store == nil ? path : StoreLocation.redacted(path)
    }

    /// SQLite's process-wide settings, made once before the first connection opens (SQLite
    /// accepts them only before it initializes).
    ///
    /// Every page cache, and so every temporary b-tree a statement opens for an `IN` list, an
    /// `IN (SELECT …)` or a sort, starts without SQLite's initial bulk allocation of 20 pages
    /// (`SQLITE_CONFIG_PAGECACHE` with no buffer and N = 0; its pages are then allocated one at a
    /// time): a departures question opened five of them, 87 KB each, freed when it ended, and
    /// whenever those frees reached the top of the heap glibc gave the memory back and took it
    /// again, page fault by page fault (870,000 faults for 14,000 questions, twice their time).
    /// https://www.sqlite.org/c3ref/c_config_covering_index_scan.html#sqliteconfigpagecache
    ///
    /// And SQLite keeps no memory statistics (`SQLITE_CONFIG_MEMSTATUS` off): each of its
    /// allocations and frees took a mutex to count it, for counts nothing here reads.
    /// https://www.sqlite.org/c3ref/c_config_covering_index_scan.html#sqliteconfigmemstatus
    private static let configured: Void = {
        _ = csqlite_config_no_initial_page_cache_allocation()
        _ = csqlite_config_no_memory_statistics()
    }()

    deinit {
        for statement in statementCache.values { statement.finalize() }
        for statement in keptStatements.values { statement.finalize() }
        sqlite3_close_v2(handle)
    }

    /// Runs SQL text that takes no values (schema statements, pragmas), one or several statements.
    public func execute(_ sql: String) throws {
        if let store { return try store.execute(sql) }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw DatabaseError(code: code, message: message, sql: sql)
        }
    }

    /// Runs `sql`, one statement that takes no values (`BEGIN`, `COMMIT`, a pragma), prepared at
    /// its first run and kept for the connection's life, and gives its first row's first column
    /// (nil when it returns no row).
    ///
    /// Why: a long-lived host (`transit-serve`) runs `BEGIN`, `PRAGMA data_version` and `COMMIT`
    /// around every question; parsed again each time (`execute`), they were 19,000 of the
    /// 600,000 instructions of a served nearby answer.
    @discardableResult
    public func runKept(_ sql: String) throws -> Int64? {
        if let store {
            try store.execute(sql)
            return nil
        }
        let statement: Statement
        if let kept = keptStatements[sql] {
            statement = kept
        } else {
            statement = try Statement(database: self, sql: sql, persistent: true)
            keptStatements[sql] = statement
        }
        // Reset at once: a pragma's statement left active would keep its read open.
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return Int64(statement.row.int(0))
    }

    /// A prepared statement for `sql`, from the cache when it was prepared before.
    ///
    /// Cached statements are prepared with `SQLITE_PREPARE_PERSISTENT`, SQLite's hint that they
    /// will be reused many times.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let index = recentStatements.firstIndex(where: { $0.sql == sql }) {
            let statement = recentStatements[index]
            if index > 0 {
                recentStatements.remove(at: index)
                recentStatements.insert(statement, at: 0)
            }
            statement.reset()
            return statement
        }
        let statement: Statement
        if let cached = statementCache[sql] {
            statement = cached
            statement.reset()
        } else {
            // Requests whose shape varies (an IN list per stop set) must not grow the cache forever.
            if statementCache.count >= Database.statementCacheLimit { clearStatementCache() }
            statement = try Statement(database: self, sql: sql, persistent: true)
            statementCache[sql] = statement
        }
        if recentStatements.count >= Database.recentStatementLimit { recentStatements.removeLast() }
        recentStatements.insert(statement, at: 0)
        return statement
    }

    /// How many statements the cache keeps before it starts over.
    public static let statementCacheLimit = 128

    /// A new statement for `sql` that the caller owns (not cached).
    public func makeStatement(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql, persistent: false)
    }

    /// Runs `body` inside one transaction: committed when it returns, rolled back when it throws.
    public func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// SQLite's `PRAGMA integrity_check`: `["ok"]` for a sound file, else its complaints.
    public func integrityCheck() throws -> [String] {
        let statement = try makeStatement("PRAGMA integrity_check")
        var lines: [String] = []
        while try statement.step() { lines.append(statement.row.string(0)) }
        return lines
    }

    /// SQLite's `PRAGMA data_version`: it changes when another connection has committed a change
    /// to the file since this connection last asked (a long-lived reader's cue to read again).
    public func dataVersion() throws -> Int64 {
        if let store { return try store.dataVersion() }
        return try runKept("PRAGMA data_version") ?? 0
    }

    /// The row id of the last row inserted on this connection.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    public var changes: Int { lastStoreChanges ?? Int(sqlite3_changes(handle)) }

    /// SQLite's message for the most recent failure on this connection.
    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Closes every cached statement (before a file is renamed, say).
    public func clearStatementCache() {
        for statement in statementCache.values { statement.finalize() }
        for statement in keptStatements.values { statement.finalize() }
        statementCache.removeAll()
        keptStatements.removeAll()
        recentStatements.removeAll()
    }
}
