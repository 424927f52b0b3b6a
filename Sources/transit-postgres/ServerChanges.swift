// How transit-postgres changes the feeds on a server: the server's transit schema is read into a
// scratch SQLite file (but for the rows of the own tables of the feed an import replaces), the
// file's own change is made to it (transit-import adds a feed, with the same refusals, counts and
// messages; `feeds remove` and `feeds upgrade` run as on a file), and the file is stored back on the server in one transaction that ends with the schema swap
// (StorePublisher). A concurrent change waits for this one (an advisory lock).
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

func removeScratch() {
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
    do {
        // The last --feed, as transit-import reads it.
        let feedName = arguments.lastIndex(of: "--feed").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        let stored = try changeOnServer(url: url, requiringFeeds: false, replacing: feedName) { scratchFile in
            let code = runImportEngine(arguments + ["--db", scratchFile, "--shown-db", shown, "--defer-feed-indexes"])
            guard code == 0 else { removeScratch(); exit(code) }
            return true
        }
        guard let stored, !arguments.contains("--quiet") else { exit(0) }
        let summary = stored.summary
        writeToStandardOutput("Stored on \(shown): \(formatCount(summary.rows)) rows in \(summary.tables) tables, "
            + "swapped in as schema \(StorePublisher.liveSchema) in \(formatSeconds(stored.storeSeconds))"
            + " (the feeds it held read back in \(formatSeconds(stored.readSeconds)))\n")
        if arguments.contains("--timings") {
            writeToStandardOutput("  read back \(formatSeconds(stored.readSeconds)), copy \(formatSeconds(summary.copySeconds)), keys and indexes "
                + "\(formatSeconds(summary.indexSeconds)), analyze \(formatSeconds(summary.analyzeSeconds)), swap and commit \(formatSeconds(summary.swapSeconds))\n")
        }
    } catch {
        fail("\(error)")
    }
    exit(0)
}

/// What `changeOnServer` stored, and the seconds it took to read the feeds back and to store them.
struct StoredChange {
    let summary: StorePublisher.Summary
    let readSeconds: Double
    let storeSeconds: Double
}

/// The feeds of the primary at `url`, read into a scratch SQLite file, changed there by `body`,
/// and stored back (when `body` returns true) in one transaction ending in the schema swap; nil
/// when `body` changed nothing. Holds the import lock throughout, so changes wait for each other.
/// `requiringFeeds`: a server holding no feeds is an error (there is nothing to change).
///
/// `replacing`: the name of the feed an import adds, whose own tables (its stop times, planner
/// timetable, …) are not read back, as the import replaces them: a daily update of a city's feed
/// no longer copies its 4.45 M stop times out only to delete them (18 s of a 57 s import). When
/// the feed still has its key afterwards, the import changed nothing (a download found the feed
/// unchanged), and nothing is stored, whatever the server's layout (the file lacks those rows;
/// `transit feeds upgrade` brings an older layout up to date).
func changeOnServer(url: String, requiringFeeds: Bool, replacing feedName: String? = nil,
                    _ body: (_ scratchFile: String) throws -> Bool) throws -> StoredChange? {
    let connection = lockedPrimary(url: url, shown: StoreLocation.redacted(url))
    let scratchFile = makeScratchFile()
    defer { removeScratch() }
    let started = monotonicSeconds()
    let snapshot = StoreSnapshot(connection: connection)
    var replaced: (key: Int, tables: [String])?
    if try snapshot.exists() {
        replaced = try feedName.flatMap { try FeedCatalog.ownTables(ofFeedNamed: $0, inDatabaseAt: url) }
        _ = try snapshot.write(toSQLiteFileAt: scratchFile, leavingEmpty: Set(replaced?.tables ?? []))
    } else if requiringFeeds {
        throw TransitError.noFeedsOnServer(location: StoreLocation.redacted(url))
    }
    let readSeconds = monotonicSeconds() - started
    let changed = try body(scratchFile)
    if let replaced, let feedName, try FeedCatalog.ownTables(ofFeedNamed: feedName, inDatabaseAt: scratchFile)?.key == replaced.key {
        return nil
    }
    if !changed, try hasCurrentLayout(connection) { return nil }
    // Realtime data is stored on the server in place (`transit realtime`), in tables made here.
    try RealtimeStore.makeTables(inDatabaseAt: scratchFile)
    let storing = monotonicSeconds()
    let summary = try StorePublisher(connection: connection, folding: TransitModel.folding).publish(sqliteFileAt: scratchFile)
    return StoredChange(summary: summary, readSeconds: readSeconds, storeSeconds: monotonicSeconds() - storing)
}

/// Whether the server's live schema has what this build stores beside the file's tables (the
/// realtime tables, `fetch_fold`, the count of writes in place): a `feeds upgrade` that changes nothing in the file stores the
/// feeds again when it does not.
private func hasCurrentLayout(_ connection: PostgresConnection) throws -> Bool {
    let live = StorePublisher.liveSchema
    return try connection.value("SELECT to_regclass($1) IS NOT NULL AND to_regprocedure($2) IS NOT NULL AND to_regclass($3) IS NOT NULL",
                                ["\(live).realtime_feeds", "\(live).fetch_fold(text, integer)", "\(live).store_version"]) == "t"
}

/// A connection to the primary at `url`, holding the import lock: a standby or an unreachable
/// server is refused before anything is made.
private func lockedPrimary(url: String, shown: String) -> PostgresConnection {
    do {
        let connection = try PostgresConnection(url: url)
        if try connection.isStandby() {
            fail("\(ReadOnlyStandby(location: shown))")
        }
        _ = try connection.value("SELECT pg_advisory_lock(\(PostgresStore.changeLockKey))")
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
