// The PostgreSQL helper behind `transit import --db postgres://…`: `transit` validates the command
// line and runs this program in its own place (exec), so only PostgreSQL work loads libpq and its
// 22 shared libraries.
//
//     transit-postgres import [SOURCE] --db URL --feed NAME [the other options of transit-import]
//
// The import is the file's, to the letter: the server's transit schema is read into a scratch
// SQLite file, transit-import adds the feed to it (same refusals, counts and messages), and the
// file is stored back on the server in one transaction that ends with the schema swap
// (StorePublisher). A concurrent import waits for this one (an advisory lock).
import FetchRequest
import GTFS
import PostgresStore
#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String, code: Int32 = 1) -> Never {
    writeToStandardError("Error: \(message)\n")
    exit(code)
}

nonisolated(unsafe) var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "import" else {
    fail("transit-postgres runs `transit import … --db postgres://…`; use that command", code: 64)
}
arguments.removeFirst()
guard let urlFlag = arguments.firstIndex(of: "--db"), urlFlag + 1 < arguments.count else {
    fail("transit-postgres import needs --db URL", code: 64)
}
let url = arguments[urlFlag + 1]
arguments.removeSubrange(urlFlag...(urlFlag + 1))
let quiet = arguments.contains("--quiet")
let timings = arguments.contains("--timings")
let shown = StoreLocation.redacted(url)

/// Runs transit-import (beside this program) on the scratch file; returns its exit status.
func runImportEngine() -> Int32 {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { fail("cannot find where transit-postgres is installed") }
    let folder = FileSystem.directory(of: String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    let engine = folder + "/transit-import"
    let childArguments = [engine] + arguments + ["--db", scratchFile, "--shown-db", shown]
    let cArguments = childArguments.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, engine, nil, nil, cArguments, environ)
    guard spawned == 0 else { fail("cannot run \(engine) (\(String(cString: strerror(spawned)))); install it beside transit") }
    // Ctrl-C reaches both processes: the engine rolls back and exits, and this one follows it.
    signal(SIGINT, SIG_IGN)
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return code
}

// The server first: a standby or an unreachable server is refused before anything is made.
let connection: PostgresConnection
do {
    connection = try PostgresConnection(url: url)
    if try connection.isStandby() {
        fail("\(shown) is a read-only hot standby; point `transit import` at the primary server")
    }
    _ = try connection.value("SELECT pg_advisory_lock(hashtext('transit import'))")
} catch {
    fail("\(error)")
}

/// The scratch folder, removed however this process ends but kill -9.
let scratch: String = {
    let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((base + "/transit-postgres-XXXXXX").utf8CString)
    guard mkdtemp(&template) != nil else { fail("cannot make a scratch folder in \(base): \(String(cString: strerror(errno)))") }
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}()
let scratchFile = scratch + "/transit.sqlite"
nonisolated(unsafe) let scratchPaths = ["", "-journal", "-wal", "-shm"].map { strdup(scratchFile + $0)! } + [strdup(scratch)!]
func removeScratch() {
    for path in scratchPaths.dropLast() { unlink(path) }
    rmdir(scratchPaths.last!)
}
for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
    signal(signalNumber) { number in
        for path in scratchPaths.dropLast() { unlink(path) }
        rmdir(scratchPaths.last!)
        _exit(128 + number)
    }
}

do {
    defer { removeScratch() }
    let started = monotonicSeconds()
    let snapshot = StoreSnapshot(connection: connection)
    if try snapshot.exists() { _ = try snapshot.write(toSQLiteFileAt: scratchFile) }
    let read = monotonicSeconds() - started
    let code = runImportEngine()
    guard code == 0 else { removeScratch(); exit(code) }
    let storing = monotonicSeconds()
    let summary = try StorePublisher(connection: connection).publish(sqliteFileAt: scratchFile)
    if !quiet {
        writeToStandardOutput("Stored on \(shown): \(formatCount(summary.rows)) rows in \(summary.tables) tables, "
            + "swapped in as schema \(StorePublisher.liveSchema) in \(formatSeconds(monotonicSeconds() - storing))"
            + " (the feeds it held read back in \(formatSeconds(read)))\n")
        if timings {
            writeToStandardOutput("  read back \(formatSeconds(read)), copy \(formatSeconds(summary.copySeconds)), keys and indexes "
                + "\(formatSeconds(summary.indexSeconds)), analyze \(formatSeconds(summary.analyzeSeconds)), swap and commit \(formatSeconds(summary.swapSeconds))\n")
        }
    }
} catch {
    removeScratch()
    fail("\(error)")
}
