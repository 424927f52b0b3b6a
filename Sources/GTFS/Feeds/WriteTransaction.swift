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
    /// Runs `body` in one write transaction on the database at `path`; `timed` (when given) is told
    /// how long the commit and the return to rest (checkpoint, journal switch) took.
    static func run(path: String, timed: ((String, Double) -> Void)? = nil, _ body: (Database) throws -> Void) throws {
        let database = try Database(path: path, mode: .readWrite)
        // With a file-size limit (ulimit -f), fail the write with EFBIG and roll back instead of dying.
        signal(SIGXFSZ, SIG_IGN)
        do {
            try switchJournal(of: database, to: "WAL", trying: 600, path: path)
            // Writers wait for each other; readers are never held off in WAL mode.
            try database.execute("PRAGMA busy_timeout = 60000")
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
            // Back to rest; when queries still read it (for more than 2 s), it stays in WAL mode.
            let start = monotonicSeconds()
            try? switchJournal(of: database, to: "DELETE", trying: 20, path: path)
            timed?("back to rest (checkpoint)", monotonicSeconds() - start)
        }
        do {
            // Added to the layout after the first version-2 databases were written.
            try database.execute(Schema.feedDownloads.sqlIfNotExists)
            try body(database)
            try Interrupted.check()
            let start = monotonicSeconds()
            try database.execute("COMMIT")
            timed?("commit", monotonicSeconds() - start)
        } catch {
            try? database.execute("ROLLBACK")
            if Database.receivedSignal != 0 { throw Interrupted(signal: Database.receivedSignal) }
            throw error
        }
    }
}

/// Switches the journal mode, which needs the file to itself for a moment. A waiting switch would
/// hold new readers off (SQLite's pending lock), so it is tried without waiting, every 0.1 s,
/// `attempts` times, letting queries in between.
private func switchJournal(of database: Database, to mode: String, trying attempts: Int, path: String) throws {
    try database.execute("PRAGMA busy_timeout = 0")
    for attempt in 1...attempts {
        do {
            try database.execute("PRAGMA journal_mode = " + mode)
            return
        } catch let error as DatabaseError where error.isBusy && attempt < attempts {
            usleep(100_000)
        } catch let error as DatabaseError where error.isBusy {
            throw TransitError.busy(path: path)
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
