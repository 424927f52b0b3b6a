#if canImport(Glibc)
import Glibc
#endif

/// Inserts many rows into one table through multi-row statements
/// (`INSERT INTO t (a, b) VALUES (?, ?), (?, ?), …`), taking one row's values at a time.
///
/// One statement execution inserts `rowsPerStatement` rows with its cursor kept open, so SQLite
/// appends rows that arrive in key order without descending the B-tree again for each one; on a
/// `WITHOUT ROWID` table this is several times faster than one execution per row.
///
/// Values are collected into blocks. With `background` set, full blocks are inserted by a worker
/// thread while the caller fills the next one, so parsing and SQLite share the two cores; at most
/// three blocks exist, so memory stays bounded. The connection must not be used by anyone else
/// until `finish()` or `cancel()` returns.
///
/// Without `orIgnore`, a row that breaks a constraint stops the insert with the error, and the rows
/// before it stay (`INSERT OR FAIL`): the caller rolls its transaction back. A plain `INSERT` of
/// several rows would make SQLite copy every page the statement touches to a statement journal
/// first, so that it could undo that statement alone; loading trips beside other feeds, that
/// journal spilled to a temporary file and took 295 MB of writes
/// ([statement journals](https://sqlite.org/tempfiles.html#statement_journals)).
public final class BatchInsert {
    fileprivate enum Value {
        case null
        case integer(Int64)
        case real(Double)
        case text(start: Int, count: Int)
    }

    /// One block of rows waiting to be inserted.
    fileprivate final class Block {
        let values: UnsafeMutablePointer<Value>
        var text: [UInt8] = []
        var rows = 0

        init(capacity: Int) {
            values = .allocate(capacity: capacity)
            values.initialize(repeating: .null, count: capacity)
            text.reserveCapacity(1 << 16)
        }

        deinit { values.deallocate() }
    }

    private let database: Database
    private let table: TableDefinition
    private let columns: [String]
    private let orIgnore: Bool
    private let columnCount: Int
    private let rowsPerStatement: Int
    private let rowsPerBlock: Int
    private let fullStatement: Statement
    private var current: Block
    private var worker: InsertWorker?
    private var ignored = 0
    private var done = false

    /// Rows SQLite did not insert because they broke a unique key (with `orIgnore`); final after `finish()`.
    public var rowsIgnored: Int { ignored }

    /// A batch insert into `columns` of `table` (every column when nil).
    public init(_ database: Database, into table: TableDefinition, columns: [String]? = nil,
                orIgnore: Bool = false, rowsPerStatement: Int = 64, background: Bool = false) throws {
        self.database = database
        self.table = table
        self.columns = columns ?? table.columnNames
        self.orIgnore = orIgnore
        self.columnCount = self.columns.count
        self.rowsPerStatement = rowsPerStatement
        self.rowsPerBlock = background ? rowsPerStatement * 64 : rowsPerStatement
        fullStatement = try database.makeStatement(table.insertSQL(columns: self.columns, orIgnore: orIgnore, orFail: !orIgnore, rows: rowsPerStatement))
        current = Block(capacity: self.columnCount * rowsPerBlock)
        if background {
            let capacity = self.columnCount * rowsPerBlock
            worker = InsertWorker(spareBlocks: [Block(capacity: capacity), Block(capacity: capacity)]) { [unowned self] block in
                try self.insert(block)
            }
        }
    }

    deinit { cancel() }

    @inline(__always)
    private func slot(_ column: Int) -> Int { current.rows * columnCount + column }

    /// Sets `column` (0-based, in the order of `columns`) of the current row to an integer.
    @inline(__always)
    public func set(_ column: Int, integer value: Int64) { current.values[slot(column)] = .integer(value) }

    /// Sets `column` of the current row to an integer, or NULL when nil.
    @inline(__always)
    public func set(_ column: Int, integer value: Int?) {
        current.values[slot(column)] = value.map { .integer(Int64($0)) } ?? .null
    }

    /// Sets `column` of the current row to a double, or NULL when nil.
    @inline(__always)
    public func set(_ column: Int, real value: Double?) {
        current.values[slot(column)] = value.map { .real($0) } ?? .null
    }

    /// Sets `column` of the current row to UTF-8 text, or NULL when `bytes` is empty.
    @inline(__always)
    public func set(_ column: Int, utf8 bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.isEmpty {
            current.values[slot(column)] = .null
        } else {
            current.values[slot(column)] = .text(start: current.text.count, count: bytes.count)
            current.text.append(contentsOf: bytes)
        }
    }

    /// Sets `column` of the current row to `text`.
    public func set(_ column: Int, text: String) {
        var text = text
        text.withUTF8 { set(column, utf8: $0) }
    }

    /// Sets `column` of the current row to NULL.
    @inline(__always)
    public func setNull(_ column: Int) { current.values[slot(column)] = .null }

    /// Ends the current row; inserts (or hands over) the block when it is full.
    @inline(__always)
    public func endRow() throws {
        current.rows += 1
        if current.rows == rowsPerBlock { try handOver() }
    }

    /// Inserts the rows still waiting and, in the background mode, waits for the worker.
    /// Call once, after the last row; it throws the first error the inserts met.
    public func finish() throws {
        guard !done else { return }
        if current.rows > 0 { try handOver() }
        done = true
        if let worker { try worker.finish() }
    }

    /// Stops without inserting what is still waiting (after an error elsewhere).
    public func cancel() {
        guard !done else { return }
        done = true
        worker?.cancel()
    }

    private func handOver() throws {
        if let worker {
            current = try worker.exchange(current)
        } else {
            try insert(current)
        }
    }

    /// Binds and runs the block's rows, `rowsPerStatement` at a time.
    private func insert(_ block: Block) throws {
        defer {
            block.rows = 0
            block.text.removeAll(keepingCapacity: true)
        }
        var first = 0
        try block.text.withUnsafeBufferPointer { text in
            while first < block.rows {
                let count = min(rowsPerStatement, block.rows - first)
                let statement = count == rowsPerStatement
                    ? fullStatement
                    : try database.makeStatement(table.insertSQL(columns: columns, orIgnore: orIgnore, orFail: !orIgnore, rows: count))
                let base = first * columnCount
                for index in 0..<(count * columnCount) {
                    let position = Int32(index + 1)
                    switch block.values[base + index] {
                    case .null: statement.bindNull(at: position)
                    case .integer(let value): statement.bind(integer: value, at: position)
                    case .real(let value): statement.bind(real: value, at: position)
                    case let .text(start, length):
                        statement.bind(utf8: UnsafeBufferPointer(rebasing: text[start..<(start + length)]), at: position)
                    }
                }
                try statement.run()
                ignored += count - database.changes
                first += count
            }
        }
    }
}

/// A thread that inserts the blocks handed to it, keeping a pool of spare blocks.
private final class InsertWorker: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var full: [BatchInsert.Block] = []
    private var spare: [BatchInsert.Block]
    private var finished = false
    private var cancelled = false
    private var failure: Error?
    private var thread = pthread_t()
    private let insert: (BatchInsert.Block) throws -> Void

    init(spareBlocks: [BatchInsert.Block], insert: @escaping (BatchInsert.Block) throws -> Void) {
        spare = spareBlocks
        self.insert = insert
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { context in
            let worker = Unmanaged<InsertWorker>.fromOpaque(context!).takeRetainedValue()
            worker.work()
            return nil
        }, context)
    }

    deinit {
        pthread_mutex_destroy(&mutex)
        pthread_cond_destroy(&condition)
    }

    /// Queues `block` and returns an empty one, waiting while every block is busy.
    func exchange(_ block: BatchInsert.Block) throws -> BatchInsert.Block {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        full.append(block)
        pthread_cond_broadcast(&condition)
        while spare.isEmpty && failure == nil { pthread_cond_wait(&condition, &mutex) }
        if let failure { throw failure }
        return spare.removeLast()
    }

    /// Waits until every queued block is inserted; throws the first failure.
    func finish() throws {
        stop(cancel: false)
        if let failure { throw failure }
    }

    /// Drops the queued blocks and stops the thread.
    func cancel() { stop(cancel: true) }

    private func stop(cancel: Bool) {
        pthread_mutex_lock(&mutex)
        let alreadyStopped = finished
        finished = true
        if cancel { cancelled = true }
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
        if !alreadyStopped { pthread_join(thread, nil) }
    }

    private func work() {
        while true {
            pthread_mutex_lock(&mutex)
            while full.isEmpty && !finished { pthread_cond_wait(&condition, &mutex) }
            if full.isEmpty || cancelled {
                pthread_mutex_unlock(&mutex)
                return
            }
            let block = full.removeFirst()
            let failed = failure != nil
            pthread_mutex_unlock(&mutex)
            var error: Error?
            if !failed {
                do { try insert(block) } catch let thrown { error = thrown }
            } else {
                block.rows = 0
                block.text.removeAll(keepingCapacity: true)
            }
            pthread_mutex_lock(&mutex)
            if let error, failure == nil { failure = error }
            spare.append(block)
            pthread_cond_broadcast(&condition)
            pthread_mutex_unlock(&mutex)
        }
    }
}
