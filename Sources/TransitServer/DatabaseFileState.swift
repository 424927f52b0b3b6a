#if canImport(Glibc)
import Glibc
#endif

/// The database file as a request finds it, read once per request (before its question starts,
/// so the state is never newer than what the question reads): which file the path names, and a
/// version that changes when an import replaces the file (new inode) and when a realtime refresh
/// commits (the file or its write-ahead log is written).
struct DatabaseFileState {
    /// Which file the path names.
    let identity: FileIdentity
    /// A hash of the file's and its log's inode, size and modification time, for the entity tag.
    /// Hashed as numbers: formatted as text first, they were 6,700 instructions a request.
    let version: UInt64

    init?(path: String) {
        var file = stat()
        guard stat(path, &file) == 0 else { return nil }
        identity = FileIdentity(file)
        var hash = FNVHash()
        hash.add(file)
        var log = stat()
        if stat(path + "-wal", &log) == 0 { hash.add(log) }
        version = hash.value
    }
}
