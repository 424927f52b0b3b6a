// What `transit import --db postgres://…` runs (through transit-postgres): the server's transit
// schema is read into a scratch SQLite file, transit-import adds the feed to it (same refusals,
// counts and messages), and the file is stored back on the server in one transaction that ends
// with the schema swap (StorePublisher). A concurrent import waits for this one (an advisory lock).
//
//     transit-postgres import [SOURCE] --db URL --feed NAME [the other options of transit-import]
import FetchRequest
import GTFS
import PostgresStore
#if canImport(Glibc)
import Glibc
#endif

/// Prints `message` as an error and ends the process with `code`.
func fail(_ message: String, code: Int32 = 1) -> Never {
    writeToStandardError("Error: \(message)\n")
    exit(code)
}

/// The scratch file's paths (and last its folder) as C strings, for the signal handlers, which
/// may not allocate: removed however this process ends but kill -9.
nonisolated(unsafe) private var scratchPaths: [UnsafeMutablePointer<CChar>] = []

private func removeScratch() {
    guard let folder = scratchPaths.last else { return }
    for path in scratchPaths.dropLast() { unlink(path) }
    rmdir(folder)
}

/// Imports into the server named by `--db` among `arguments` (transit-import's options); never returns.
func runServerImport(arguments given: [String]) -> Never {
    var arguments = given
    guard let urlFlag = arguments.firstIndex(of: "--db"), urlFlag + 1 < arguments.count else {
        fail("transit-postgres import needs --db URL", code: 64)
    }
    let url = arguments[urlFlag + 1]
    arguments.removeSubrange(urlFlag...(urlFlag + 1))
    let shown = StoreLocation.redacted(url)
    let connection = lockedPrimary(url: url, shown: shown)
    let scratchFile = makeScratchFile()
    do {
        defer { removeScratch() }
        let started = monotonicSeconds()
        let snapshot = StoreSnapshot(connection: connection)
        if try snapshot.exists() { _ = try snapshot.write(toSQLiteFileAt: scratchFile) }
        let read = monotonicSeconds() - started
        let code = runImportEngine(arguments + ["--db", scratchFile, "--shown-db", shown])
        guard code == 0 else { removeScratch(); exit(code) }
        let storing = monotonicSeconds()
        let summary = try StorePublisher(connection: connection).publish(sqliteFileAt: scratchFile)
        if !arguments.contains("--quiet") {
            writeToStandardOutput("Stored on \(shown): \(formatCount(summary.rows)) rows in \(summary.tables) tables, "
                + "swapped in as schema \(StorePublisher.liveSchema) in \(formatSeconds(monotonicSeconds() - storing))"
                + " (the feeds it held read back in \(formatSeconds(read)))\n")
            if arguments.contains("--timings") {
                writeToStandardOutput("  read back \(formatSeconds(read)), copy \(formatSeconds(summary.copySeconds)), keys and indexes "
                    + "\(formatSeconds(summary.indexSeconds)), analyze \(formatSeconds(summary.analyzeSeconds)), swap and commit \(formatSeconds(summary.swapSeconds))\n")
            }
        }
    } catch {
        removeScratch()
        fail("\(error)")
    }
    exit(0)
}

/// A connection to the primary at `url`, holding the import lock: a standby or an unreachable
/// server is refused before anything is made.
private func lockedPrimary(url: String, shown: String) -> PostgresConnection {
    do {
        let connection = try PostgresConnection(url: url)
        if try connection.isStandby() {
            fail("\(shown) is a read-only hot standby; point `transit import` at the primary server")
        }
        _ = try connection.value("SELECT pg_advisory_lock(hashtext('transit import'))")
        return connection
    } catch {
        fail("\(error)")
    }
}

/// Makes the scratch folder in `$TMPDIR` and returns the path of the file in it; the folder is
/// removed at exit and on SIGINT, SIGTERM and SIGHUP.
private func makeScratchFile() -> String {
    let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((base + "/transit-postgres-XXXXXX").utf8CString)
    guard mkdtemp(&template) != nil else { fail("cannot make a scratch folder in \(base): \(String(cString: strerror(errno)))") }
    let folder = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let file = folder + "/transit.sqlite"
    scratchPaths = ["", "-journal", "-wal", "-shm"].map { strdup(file + $0)! } + [strdup(folder)!]
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
        signal(signalNumber) { number in
            removeScratch()
            _exit(128 + number)
        }
    }
    return file
}

/// Runs transit-import (beside this program) with `arguments`; returns its exit status.
private func runImportEngine(_ arguments: [String]) -> Int32 {
    guard let folder = FileSystem.programDirectory() else { fail("cannot find where transit-postgres is installed") }
    let engine = folder + "/transit-import"
    let cArguments = ([engine] + arguments).map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, engine, nil, nil, cArguments, environ)
    guard spawned == 0 else { fail("cannot run \(engine) (\(String(cString: strerror(spawned)))); install it beside transit") }
    // Ctrl-C reaches both processes: the engine rolls back and exits, and this one follows it.
    signal(SIGINT, SIG_IGN)
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
}
