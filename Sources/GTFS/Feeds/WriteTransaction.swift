import FetchRequest
#if canImport(Glibc)
import Glibc
#endif

/// One change to an existing database (adding, replacing or removing a feed), all or nothing,
/// while queries keep reading.
///
/// The database rests in SQLite's rollback-journal mode, so queries open it read-only anywhere (a
/// read-only folder, a CD) and leave no files beside it. For the change it is switched to
/// write-ahead logging: queries that start meanwhile read the feeds as they were until the commit,
/// then the new set; a `kill -9` leaves uncommitted pages in the log, which the next reader ignores.
/// After the commit the log is checkpointed and the database returned to rest (when a query still
/// has it open, it stays in WAL mode until the next change; queries read it either way).
enum WriteTransaction {
    /// Runs `body` in one write transaction on the database at `path`.
    static func run(path: String, _ body: (Database) throws -> Void) throws {
        let database = try Database(path: path, mode: .readWrite)
        // With a file-size limit (ulimit -f), fail the write with EFBIG and roll back instead of dying.
        signal(SIGXFSZ, SIG_IGN)
        do {
            // Queries hold their snapshot for the whole command (a long `list` too): wait for them.
            try database.execute("PRAGMA busy_timeout = 60000")
            try database.execute("PRAGMA journal_mode = WAL")
            // secure_delete (on in some SQLite builds) would zero every page a removed feed frees:
            // timetables hold nothing secret, and it makes removing a large feed several times slower.
            try database.execute("PRAGMA synchronous = NORMAL; PRAGMA threads = 2; PRAGMA journal_size_limit = 67108864; PRAGMA secure_delete = OFF")
            try database.execute("BEGIN IMMEDIATE")
        } catch let error as DatabaseError where error.isBusy {
            throw TransitError.busy(path: path)
        }
        // Ctrl-C or kill: the running statement stops, the transaction rolls back, and the
        // signal is reported as `Interrupted` (kill -9 cannot be caught: the log is discarded by
        // the next reader or writer instead).
        database.interruptOnSignals()
        defer {
            database.stopInterruptingOnSignals()
            database.clearStatementCache()
            try? database.execute("PRAGMA journal_mode = DELETE")
        }
        do {
            try body(database)
            try Interrupted.check()
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            if Database.receivedSignal != 0 { throw Interrupted(signal: Database.receivedSignal) }
            throw error
        }
    }
}

/// A change was stopped by a signal (Ctrl-C, `kill`) and rolled back; the process should exit
/// with 128 + `signal`.
public struct Interrupted: Error, CustomStringConvertible {
    public let signal: Int32
    public var description: String { "interrupted by signal \(signal); nothing was changed" }

    /// Throws when a signal has arrived during the current change.
    static func check() throws {
        if Database.receivedSignal != 0 { throw Interrupted(signal: Database.receivedSignal) }
    }
}
