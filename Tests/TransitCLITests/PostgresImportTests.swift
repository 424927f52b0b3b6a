import XCTest
import Foundation
import FetchRequest
import GTFS
import PostgresStore
import TestSupport

/// `transit import --db postgres://…` on a real primary and its hot standby (scripts/with-postgres.sh
/// starts both for `make test` and CI): the store holds what the file holds, the standby replays
/// it, the swap is atomic under readers, and a killed import leaves the previous feeds.
final class PostgresImportTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var servers: PostgresServers!
    private var primary: String { servers.primary }
    private var standby: String { servers.standby }

    override func setUpWithError() throws {
        // Each test starts from a server without feeds.
        servers = try PostgresServers()
        directory = TemporaryDirectory()
    }

    override func tearDown() { directory = nil }

    private func transitImport(_ source: String, _ extra: [String] = [], db: String) throws {
        try servers.transitImport(source, extra, db: db)
    }

    private func waitForStandby() throws { try servers.waitForStandby() }

    /// Every table of the file at `path`, each row as text (blobs in hex), sorted; the feeds' import
    /// time is left out (two imports never share it).
    private func tables(ofSQLiteFileAt path: String) throws -> [String: [String]] {
        let database = try Database(path: path, mode: .readOnly)
        let names = try database.makeStatement("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'")
        var tables: [String: [String]] = [:]
        while try names.step() {
            let table = names.row.string(0)
            let rows = try database.makeStatement("SELECT * FROM \"\(table)\"")
            var lines: [String] = []
            while try rows.step() {
                let row = rows.row
                lines.append((0..<row.count).map { index -> String in
                    if row.columnNames[index] == "imported_at" { return "-" }
                    if row.isBlob(index) { return row.withBlob(index) { $0.map { String($0, radix: 16) }.joined() } }
                    return row.value(index).literalDescription
                }.joined(separator: "|"))
            }
            tables[table] = lines.sorted()
        }
        // Its indexes, as pseudo-table rows: the server must keep (and build) every one the file
        // has, those transit-import left to it (`DeferredIndexes`) included.
        let indexes = try database.makeStatement("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        var lines: [String] = []
        while try indexes.step() { lines.append(indexes.row.string(0) + "|" + indexes.row.string(1)) }
        tables["(indexes)"] = lines.sorted()
        return tables
    }

    /// Reads the feeds a server holds back into an SQLite file.
    private func snapshot(of url: String) throws -> String {
        let path = directory.file("snapshot-\(UUID().uuidString).sqlite")
        _ = try StoreSnapshot(connection: PostgresConnection(url: url)).write(toSQLiteFileAt: path)
        return path
    }

    func testImportsAddAndReplaceFeedsOnTheServerExactlyAsInTheFileAndTheStandbyReplaysThem() throws {
        let nevada = try PostgresServers.sharedFeed("sample_gtfs.zip", for: "the PostgreSQL import test")
        let file = directory.file("transit.sqlite")
        // Add a feed, add a second one, then replace the first: the same three imports on both stores.
        for source in [Paths.demoFeed, nevada, Paths.demoFeed] {
            try transitImport(source, ["--quiet"], db: file)
            try transitImport(source, ["--quiet"], db: primary)
        }
        let expected = try tables(ofSQLiteFileAt: file)
        XCTAssertTrue(expected.keys.contains { $0.hasPrefix("planner_") }, "the planner's timetables (blobs) are among the tables compared")
        XCTAssertEqual(try serverTables(primary), expected)
        XCTAssertTrue(expected["(indexes)", default: []].contains { $0.hasPrefix("stop_times_") }, "the stop times' index is compared")
        let built = try PostgresConnection(url: primary).rows("SELECT indexname FROM pg_indexes WHERE schemaname = $1", [StorePublisher.liveSchema])
        for index in expected["(indexes)", default: []] {
            let name = String(index.prefix { $0 != "|" })
            XCTAssertTrue(built.contains { $0.first == name }, "\(name) is built on the server")
        }
        try waitForStandby()
        XCTAssertEqual(try serverTables(standby), expected)
    }

    /// The tables of the server's feeds, read back, less the realtime tables every import makes
    /// there (realtime is stored on a server in place), which must be there and empty.
    private func serverTables(_ url: String) throws -> [String: [String]] {
        var tables = try tables(ofSQLiteFileAt: snapshot(of: url))
        for table in RealtimeSchema.tables {
            XCTAssertEqual(tables.removeValue(forKey: table.name), [], "\(table.name) on \(url)")
            tables["(indexes)"]?.removeAll { $0.contains(" ON \"\(table.name)\" ") }
        }
        return tables
    }

    func testTheSummaryNamesTheServerWithoutItsPassword() throws {
        let run = try CommandRun.transit(["import", Paths.demoFeed, "--db", primary])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("Imported feed lindenau into \(primary) in "), run.stdout)
        XCTAssertTrue(run.stdout.contains("Stored on \(primary): "), run.stdout)
        XCTAssertFalse(run.stdout.contains("transit.sqlite"), "the scratch file is never named: \(run.stdout)")
    }

    func testAnImportAgainstTheStandbyIsRefusedWithOneClearLine() throws {
        let run = try CommandRun.transit(["import", Paths.demoFeed, "--db", standby])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "Error: \(standby) is a read-only hot standby; point `transit import`, `transit feeds remove|upgrade` and `transit realtime` at the primary server\n")
    }

    /// The live schema's oid: every store swaps in a new schema, so it changes with each.
    private func liveSchema(of url: String) throws -> String? {
        try PostgresConnection(url: url).value("SELECT oid FROM pg_namespace WHERE nspname = $1", [StorePublisher.liveSchema])
    }

    func testAReplacedFeedIsStoredAnewAndAnUnchangedDownloadStoresNothing() throws {
        let server = try LocalHTTPServer(handler: ImportFromURLTests.serverScript, arguments: [Paths.demoFeed, directory.file("requests.log")],
                                         folder: directory.path)
        let first = try CommandRun.transit(["import", server.base + "/feed.zip", "--db", primary])
        XCTAssertEqual(first.status, 0, first.stderr)
        let stored = try liveSchema(of: primary)
        // The same URL again, by name: the server answers 304, and the feed's own tables, which an
        // import that replaces it does not read back, must not be stored empty in its place.
        let again = try CommandRun.transit(["import", "--feed", "feed", "--db", primary])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "feed: unchanged since Mon, 02 Mar 2026 08:00:00 GMT; nothing downloaded or imported\n")
        XCTAssertEqual(try liveSchema(of: primary), stored, "nothing was stored")
        let departures = ["departures", "--stop", "HBF", "--at", "2026-03-02 08:00", "--format", "csv"]
        let answer = try CommandRun.transit(departures + ["--db", primary])
        XCTAssertEqual(answer.status, 0, answer.stderr)
        XCTAssertGreaterThan(answer.stdout.split(separator: "\r\n").count, 1, "the feed still answers: \(answer.stdout)")
        // An import of that name failing halfway (stops.txt's header lacks stop_id, found after
        // the old feed was removed from the scratch file) stores nothing either.
        let broken = directory.file("broken")
        try FileManager.default.copyItem(atPath: Paths.demoFeed, toPath: broken)
        var stops = try String(contentsOfFile: broken + "/stops.txt", encoding: .utf8)
        stops.replaceSubrange(try XCTUnwrap(stops.range(of: "stop_id,")), with: "")
        try stops.write(toFile: broken + "/stops.txt", atomically: true, encoding: .utf8)
        let failed = try CommandRun.transit(["import", broken, "--feed", "feed", "--db", primary])
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderr.hasPrefix("Error: stops.txt line 2: "), failed.stderr)
        XCTAssertEqual(try liveSchema(of: primary), stored, "nothing was stored")
        XCTAssertEqual(try CommandRun.transit(departures + ["--db", primary]).stdout, answer.stdout)
        // A local copy replaces it: stored anew, with the same departures.
        let replaced = try CommandRun.transit(["import", Paths.demoFeed, "--feed", "feed", "--db", primary])
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertTrue(replaced.stdout.contains("replacing the previous feed"), replaced.stdout)
        XCTAssertNotEqual(try liveSchema(of: primary), stored)
        XCTAssertEqual(try CommandRun.transit(departures + ["--db", primary]).stdout, answer.stdout)
    }

    /// What a reader sees: the stop count the feeds table records for feed `x`, and the stops there are.
    private static let readerQuestion = "SELECT (SELECT stops FROM transit.feeds WHERE name = 'x'), (SELECT count(*) FROM transit.stops)"

    func testReadersOfTheStandbySeeTheOldFeedOrTheNewOneWhileThePrimaryReimports() throws {
        let nevada = try PostgresServers.sharedFeed("sample_gtfs.zip", for: "the swap-under-load test")
        try transitImport(Paths.demoFeed, ["--feed", "x", "--quiet"], db: primary)
        try waitForStandby()
        let reader = try PostgresConnection(url: standby)
        let lindenau = try reader.rows(PostgresImportTests.readerQuestion)[0]
        let done = ManagedAtomicFlag()
        let answers = ReaderAnswers()
        let thread = Thread { [standby] in
            do {
                let connection = try PostgresConnection(url: standby)
                while !done.isSet { answers.add(try connection.rows(PostgresImportTests.readerQuestion)[0]) }
            } catch {
                answers.fail("\(error)")
            }
        }
        thread.start()
        // Replace feed x twice: Nevada, then Lindenau again.
        try transitImport(nevada, ["--feed", "x", "--quiet"], db: primary)
        try waitForStandby()
        try transitImport(Paths.demoFeed, ["--feed", "x", "--quiet"], db: primary)
        try waitForStandby()
        done.set()
        while !answers.finished(thread: thread) { usleep(1000) }
        let nevadaAnswer = answers.distinct.filter { $0 != lindenau }
        XCTAssertEqual(answers.failures, [], "no query against the standby failed")
        XCTAssertGreaterThan(answers.count, 10)
        XCTAssertEqual(nevadaAnswer.count, 1, "every answer is Lindenau's or Nevada's, and both were seen: \(answers.distinct)")
        for answer in nevadaAnswer { XCTAssertEqual(answer[0], answer[1], "the feeds table and the stops agree: \(answer)") }
        XCTAssertEqual(lindenau[0], lindenau[1])
    }

    func testAnImportKilledDuringTheCopyLeavesThePreviousFeedsOnBothServers() throws {
        let vilnius = try PostgresServers.sharedFeed("vilnius.zip", for: "the kill -9 test (it needs an import that takes a while)")
        try transitImport(Paths.demoFeed, ["--quiet"], db: primary)
        let before = try PostgresConnection(url: primary).rows("SELECT name, stops, stop_times FROM transit.feeds ORDER BY name")
        let watcher = try PostgresConnection(url: primary)
        let child = try ChildProcess(Paths.transitBinary, ["import", vilnius, "--db", primary, "--quiet"],
                                     environment: ["TMPDIR": directory.path])
        try waitFor(watcher, query: "COPY \"transit_next\".\"stop_times_%")
        kill(child.pid, SIGKILL)
        _ = child.wait()
        try expectFeeds(before)
    }

    func testAnImportKilledDuringTheSwapLeavesThePreviousFeedsOnBothServers() throws {
        try transitImport(Paths.demoFeed, ["--quiet"], db: primary)
        let before = try PostgresConnection(url: primary).rows("SELECT name, stops, stop_times FROM transit.feeds ORDER BY name")
        // A reader holding the live stops keeps the swap waiting at its DROP of the old schema.
        let reader = try PostgresConnection(url: primary)
        try reader.execute("BEGIN; LOCK TABLE transit.stops IN ACCESS SHARE MODE")
        let watcher = try PostgresConnection(url: primary)
        let child = try ChildProcess(Paths.transitBinary, ["import", Paths.demoFeed, "--feed", "second", "--db", primary, "--quiet"],
                                     environment: ["TMPDIR": directory.path])
        try waitFor(watcher, query: "DROP SCHEMA IF EXISTS \"transit_previous\"%", waiting: true)
        kill(child.pid, SIGKILL)
        _ = child.wait()
        try reader.execute("ROLLBACK")
        try expectFeeds(before)
    }

    func testARealtimeReadKilledWhileWritingLeavesThePreviousRealtimeDataOnBothServers() throws {
        try transitImport(Paths.demoFeed, ["--quiet"], db: primary)
        let late = try directory.write("late.pb", bytes: try PostgresRealtimeTests.message(delay: 300).serializedBytes())
        XCTAssertEqual(try CommandRun.transit(["realtime", late, "--db", primary]).status, 0)
        let stored = """
            SELECT (SELECT string_agg(stop || '@' || scheduled || ':' || coalesce(delay, -1), ',' ORDER BY stop, scheduled, trip) FROM transit.realtime_stop_times),
                   (SELECT count(*) FROM transit.realtime_vehicles), (SELECT count(*) FROM transit.realtime_alert_texts)
            """
        let before = try PostgresConnection(url: primary).rows(stored)
        XCTAssertNotEqual(before, [[nil, "0", "0"]], "the first read stored rows")
        // A reader holding the alerts keeps the next read waiting at their DELETE, after it has
        // deleted and written the stop times.
        let reader = try PostgresConnection(url: primary)
        try reader.execute("BEGIN; LOCK TABLE transit.realtime_alerts IN SHARE MODE")
        let later = try directory.write("later.pb", bytes: try PostgresRealtimeTests.message(delay: 900).serializedBytes())
        let child = try ChildProcess(Paths.transitBinary, ["realtime", later, "--db", primary])
        try waitFor(try PostgresConnection(url: primary), query: "%DELETE FROM \"realtime_alerts\"%", waiting: true)
        kill(child.pid, SIGKILL)
        _ = child.wait()
        try reader.execute("ROLLBACK")
        let primaryConnection = try PostgresConnection(url: primary)
        // The killed read's backend rolls back once it sees the closed connection, releasing its lock.
        for _ in 0..<6000 where try primaryConnection.value("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'") != "0" {
            usleep(10_000)
        }
        XCTAssertEqual(try primaryConnection.rows(stored), before)
        try waitForStandby()
        XCTAssertEqual(try PostgresConnection(url: standby).rows(stored), before)
    }

    /// Polls `pg_stat_activity` until a backend runs a statement like `pattern` (waiting on a lock,
    /// when asked).
    private func waitFor(_ watcher: PostgresConnection, query pattern: String, waiting: Bool = false) throws {
        for _ in 0..<60_000 {
            let found = try watcher.value("SELECT count(*) FROM pg_stat_activity WHERE query LIKE $1 AND (NOT $2 OR wait_event_type = 'Lock')",
                                          [pattern, waiting ? "true" : "false"])
            if found != "0" { return }
            usleep(5_000)
        }
        XCTFail("no statement like \(pattern) ran")
    }

    /// The primary and, once it has replayed it, the standby hold exactly `feeds`, and no import
    /// is left half done.
    private func expectFeeds(_ feeds: [[String?]]) throws {
        let primaryConnection = try PostgresConnection(url: primary)
        // The killed import's backend rolls back and ends (releasing its advisory lock) once it sees
        // the closed connection.
        for _ in 0..<6000 where try primaryConnection.value("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'") != "0" {
            usleep(10_000)
        }
        XCTAssertEqual(try primaryConnection.rows("SELECT name, stops, stop_times FROM transit.feeds ORDER BY name"), feeds)
        XCTAssertEqual(try primaryConnection.rows("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'transit%' ORDER BY 1"), [["transit"]])
        try waitForStandby()
        XCTAssertEqual(try PostgresConnection(url: standby).rows("SELECT name, stops, stop_times FROM transit.feeds ORDER BY name"), feeds)
    }
}

/// A flag one thread sets and another reads.
private final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// What the reader thread saw.
private final class ReaderAnswers: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: Set<[String?]> = []
    private var total = 0
    private var errors: [String] = []
    private var ended = false

    func add(_ answer: [String?]) { lock.withLock { answers.insert(answer); total += 1 } }
    func fail(_ message: String) { lock.withLock { errors.append(message); ended = true } }
    var distinct: [[String?]] { lock.withLock { Array(answers) } }
    var count: Int { lock.withLock { total } }
    var failures: [String] { lock.withLock { errors } }
    func finished(thread: Thread) -> Bool { thread.isFinished || lock.withLock { ended } }
}
