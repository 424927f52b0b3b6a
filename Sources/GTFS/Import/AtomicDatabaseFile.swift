#if canImport(Glibc)
import Glibc
#endif

/// The temporary file an import writes, beside its target, renamed over the target only when the
/// import succeeds: the previous database is never touched before that moment.
///
/// Named `.NAME.import-PID.tmp`. A failed import removes it; Ctrl-C and `kill` (SIGINT, SIGTERM,
/// SIGHUP) remove it before exiting; a `kill -9` cannot be caught, so the next import removes
/// every such file whose process is gone.
final class AtomicDatabaseFile {
    let targetPath: String
    let temporaryPath: String

    init(targetPath: String) {
        self.targetPath = targetPath
        let directory = FileSystem.directory(of: targetPath)
        let prefix = "." + FileSystem.baseName(of: targetPath) + ".import-"
        temporaryPath = directory + "/" + prefix + String(getpid()) + ".tmp"
        AtomicDatabaseFile.removeAbandoned(in: directory, prefix: prefix)
    }

    /// Removes temporary files of imports whose process no longer runs.
    static func removeAbandoned(in directory: String, prefix: String) {
        guard let names = FileSystem.contents(of: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let pidText = name.dropFirst(prefix.count).dropLast(4)
            guard let pid = Int32(pidText) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                unlink(directory + "/" + name)
            }
        }
    }

    /// Starts writing: clears any leftover file and arranges for signals to remove it.
    func begin() throws {
        unlink(temporaryPath)
        guard FileSystem.kind(of: FileSystem.directory(of: targetPath)) == .directory else {
            throw FeedError(file: targetPath, message: "the folder for the database does not exist")
        }
        signalCleanupPath = strdup(temporaryPath)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, removeTemporaryFileAndExit)
        }
        // With a file-size limit (ulimit -f), fail the write with EFBIG instead of dying.
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Makes the finished file durable, then renames it over the target in one step.
    func commit() throws {
        let descriptor = open(temporaryPath, O_RDONLY)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
        // A journal or log left beside the file being replaced belongs to the old file: SQLite
        // must never apply it to the new one.
        for suffix in ["-journal", "-wal", "-shm"] { unlink(targetPath + suffix) }
        guard rename(temporaryPath, targetPath) == 0 else {
            let reason = String(cString: strerror(errno))
            abandon()
            throw FeedError(file: targetPath, message: "cannot replace the database: \(reason)")
        }
        let directory = open(FileSystem.directory(of: targetPath), O_RDONLY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        stopHandlingSignals()
    }

    /// Removes the temporary file; the target is left as it was.
    func abandon() {
        unlink(temporaryPath)
        unlink(temporaryPath + "-journal")
        stopHandlingSignals()
    }

    private func stopHandlingSignals() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { signal(signalNumber, SIG_DFL) }
        let path = signalCleanupPath
        signalCleanupPath = nil
        free(path)
    }
}

/// Removes the temporary files named `.DATABASE.KIND-PID.tmp` beside `databasePath` whose process
/// no longer runs (left by a `kill -9`), and returns the name this process should use.
public func temporaryFile(beside databasePath: String, kind: String) -> String {
    let directory = FileSystem.directory(of: databasePath)
    let prefix = "." + FileSystem.baseName(of: databasePath) + "." + kind + "-"
    AtomicDatabaseFile.removeAbandoned(in: directory, prefix: prefix)
    return directory + "/" + prefix + String(getpid()) + ".tmp"
}

/// The temporary file to remove if a signal ends the import (read by the signal handler).
nonisolated(unsafe) private var signalCleanupPath: UnsafeMutablePointer<CChar>?

private func removeTemporaryFileAndExit(_ signalNumber: Int32) {
    if let path = signalCleanupPath { unlink(path) }
    _exit(128 + signalNumber)
}
