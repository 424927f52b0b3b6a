import CSQLite
#if canImport(Glibc)
import Glibc
#endif

extension Database {
    /// Rolls back the change a killed writer left unfinished in `path`'s rollback journal, so a
    /// read-only connection can read the file.
    ///
    /// A process killed in the middle of a write in rollback-journal mode (for `transit`, the
    /// moment an import switches the file to write-ahead logging or back to rest) leaves
    /// `PATH-journal` beside it: a "hot journal" that only a connection allowed to write may play
    /// back. A read-only connection would fail every read with `SQLITE_READONLY_ROLLBACK`. So when
    /// the journal is there, a read-write connection takes a read lock once, which makes SQLite
    /// roll the change back (a journal a live writer still holds is not hot and is left alone).
    /// Where the file cannot be written, nothing happens here and the reads say what to do
    /// (`DatabaseError.isUnfinishedChange`). The check is one `access` call when there is no journal.
    /// https://www.sqlite.org/lockingv3.html#hot_journals
    static func rollBackUnfinishedChange(at path: String) {
        guard access(path + "-journal", F_OK) == 0 else { return }
        var pointer: OpaquePointer?
        if sqlite3_open_v2(path, &pointer, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK {
            sqlite3_busy_timeout(pointer, 5_000)
            _ = sqlite3_exec(pointer, "SELECT count(*) FROM sqlite_master", nil, nil, nil)
        }
        sqlite3_close_v2(pointer)
    }
}
