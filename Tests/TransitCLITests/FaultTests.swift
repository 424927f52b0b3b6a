import XCTest
import Foundation
import TestSupport

/// Faults around the database: disk limits, imports killed outright, queries while a nightly import
/// replaces the file, and read-only use.
final class FaultTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private func importDemo(_ path: String) throws {
        let run = try CommandRun.transit(["import", Paths.demoFeed, "--db", path, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    func testFileSizeLimitDuringImportFailsCleanly() throws {
        guard let feed = Paths.sharedFeed("vilnius.zip") else {
            throw XCTSkip("../shared/feeds/vilnius.zip is absent: the file-size-limit test needs a feed larger than the limit")
        }
        let database = directory.file("db.sqlite")
        try importDemo(database)
        let before = databaseFingerprint(database)
        // ulimit -f counts 512-byte blocks in dash: about 4 MB, far less than vilnius needs.
        let run = try CommandRun.run("/bin/sh", ["-c", "ulimit -f 8000; exec \"$0\" import \"$1\" --db \"$2\" --quiet",
                                                 Paths.transitBinary, feed, database])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("Error: "), run.stderr)
        XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
        XCTAssertEqual(databaseFingerprint(database), before)
        XCTAssertEqual(directory.contents(), ["db.sqlite"], "the log is removed")
    }

    func testKilledAddsLeaveTheFeedsAsTheyWereAndTheNextImportCleansUp() throws {
        guard let feed = Paths.sharedFeed("vilnius.zip") else {
            throw XCTSkip("../shared/feeds/vilnius.zip is absent: the kill -9 test needs an import that takes a while")
        }
        let database = directory.file("db.sqlite")
        try importDemo(database)
        let before = databaseFingerprint(database)
        XCTAssertNotNil(before)
        // Adding vilnius takes about a second in a release build: every delay falls inside it.
        for delay in [0.05, 0.15, 0.35, 0.6] {
            let process = try ChildProcess(Paths.transitBinary, ["import", feed, "--db", database, "--quiet"])
            Thread.sleep(forTimeInterval: delay)
            process.send(SIGKILL)
            XCTAssertEqual(process.wait(), 128 + SIGKILL, "delay \(delay)")
            // The fingerprint includes PRAGMA integrity_check: the file is whole and holds the old set.
            XCTAssertEqual(databaseFingerprint(database), before, "delay \(delay)")
            let feeds = try CommandRun.transit(["feeds", "--format", "csv", "--db", database])
            XCTAssertEqual(feeds.status, 0, feeds.stderr)
            XCTAssertEqual(feeds.stdout.split(separator: "\r\n").dropFirst().map { String($0.prefix { $0 != "," }) }, ["lindenau"])
        }
        try importDemo(database)
        XCTAssertEqual(directory.contents(), ["db.sqlite"], "the next import checkpointed and removed the log killed imports left")
    }

    /// A writer killed halfway through a change in rollback-journal mode (an import between its
    /// journal switches) leaves a hot journal that only a writable open may undo: the next query
    /// undoes it and answers, where it used to fail every read with "attempt to write a readonly
    /// database" and call the file "not a transit database".
    func testAChangeLeftInTheJournalByAKilledWriterIsUndoneByTheNextQuery() throws {
        let database = directory.file("db.sqlite")
        try importDemo(database)
        let before = databaseFingerprint(database)
        // Python's sqlite3 as the killed writer: a one-page cache makes the change spill into the
        // file (journal synced first), and the process kills itself before committing.
        let writer = try CommandRun.run("/usr/bin/env", ["python3", "-c", """
            import os, sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("PRAGMA cache_size = 2")
            db.execute("BEGIN")
            db.execute("DELETE FROM stops")
            db.execute("CREATE TABLE junk AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) SELECT randomblob(4000) FROM n")
            os.kill(os.getpid(), 9)
            """, database])
        XCTAssertEqual(writer.status, 128 + SIGKILL, writer.stderr)
        XCTAssertEqual(directory.contents(), ["db.sqlite", "db.sqlite-journal"], "the killed writer left its journal")
        let feeds = try CommandRun.transit(["feeds", "--format", "csv", "--db", database])
        XCTAssertEqual(feeds.status, 0, feeds.stderr)
        XCTAssertEqual(feeds.stdout.split(separator: "\r\n").dropFirst().map { String($0.prefix { $0 != "," }) }, ["lindenau"])
        XCTAssertEqual(directory.contents(), ["db.sqlite"], "the query undid the change and removed the journal")
        XCTAssertEqual(databaseFingerprint(database), before)
    }

    func testKilledFirstImportLeavesNoDatabaseAndTheNextImportCleansUp() throws {
        guard let feed = Paths.sharedFeed("vilnius.zip") else {
            throw XCTSkip("../shared/feeds/vilnius.zip is absent: the kill -9 test needs an import that takes a while")
        }
        let database = directory.file("db.sqlite")
        let process = try ChildProcess(Paths.transitBinary, ["import", feed, "--db", database, "--quiet"])
        Thread.sleep(forTimeInterval: 0.2)
        process.send(SIGKILL)
        XCTAssertEqual(process.wait(), 128 + SIGKILL)
        XCTAssertFalse(directory.contents().contains("db.sqlite"), "a new database appears only whole")
        XCTAssertTrue(directory.contents().contains { $0.hasSuffix(".tmp") }, "kill -9 cannot be caught: a temporary file stays")
        try importDemo(database)
        XCTAssertEqual(directory.contents(), ["db.sqlite"], "the next import removed what the killed one left")
    }

    func testQueriesDuringReplacementAlwaysAnswer() throws {
        let database = directory.file("db.sqlite")
        try importDemo(database)
        let state = ImportLoop()
        let finished = DispatchSemaphore(value: 0)
        // Imports replace the file again and again until the queries are done.
        DispatchQueue(label: "imports").async {
            while !state.shouldStop {
                guard let run = try? CommandRun.transit(["import", Paths.demoFeed, "--db", database, "--quiet"]) else { continue }
                state.record(run)
            }
            finished.signal()
        }
        let queries = [["search", "haupt", "--format", "csv"], ["nearby", "52.5249", "13.3692", "--format", "csv"],
                       ["departures", "--stop", "HBF", "--at", "2026-03-02 07:55", "--format", "csv"]]
        // At least 300 queries, and on until the file was replaced more than 20 times (queries start
        // in about 2 ms, imports take longer), with a bound so a stuck import fails instead of hanging.
        var index = 0
        while index < 300 || (state.imports <= 20 && index < 20_000) {
            defer { index += 1 }
            let arguments = queries[index % queries.count]
            let run = try CommandRun.transit(arguments + ["--db", database])
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
            XCTAssertFalse(run.stderr.contains("locked") || run.stderr.contains("malformed"), run.stderr)
            XCTAssertTrue(run.stdout.contains("HBF"), "\(arguments): \(run.stdout)")
        }
        state.stop()
        finished.wait()
        XCTAssertEqual(state.failures, [])
        XCTAssertGreaterThan(state.imports, 20, "the file was replaced many times while the queries ran")
    }

    func testQueriesNeverChangeTheFileAndWorkReadOnly() throws {
        let folder = directory.file("ro")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let database = folder + "/db.sqlite"
        try importDemo(database)
        // A second feed: the database was changed in place once, and rests in rollback-journal mode.
        let second = try CommandRun.transit(["import", Paths.demoFeed, "--feed", "second", "--db", database, "--quiet"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [], ["db.sqlite"])
        let before = fileFingerprint(database)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: database)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        for arguments in [["nearby", "52.5249", "13.3692"], ["search", "lodz"], ["departures", "--stop", "lindenau:HBF", "--at", "2026-03-02 07:55"],
                          ["stats", "--date", "2026-03-02"], ["list", "stop-times"], ["feeds"]] {
            let run = try CommandRun.transit(arguments + ["--db", database])
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
        }
        XCTAssertEqual(fileFingerprint(database), before)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [], ["db.sqlite"], "no journal or other file appeared")
    }

    func testHostileDatabasePathsAndValues() throws {
        let spaced = directory.file("a folder with spaces/my db's \"copy\".sqlite")
        try FileManager.default.createDirectory(atPath: directory.file("a folder with spaces"), withIntermediateDirectories: true)
        try importDemo(spaced)
        let run = try CommandRun.transit(["search", "haupt", "--db", spaced])
        XCTAssertEqual(run.status, 0, run.stderr)
        for value in ["HBF' OR '1'='1", "HBF; DELETE FROM stops", "HBF -- comment", "%", "_", String(repeating: "x", count: 100_000)] {
            let stop = try CommandRun.transit(["departures", "--stop", value, "--db", spaced])
            XCTAssertEqual(stop.status, 64, stop.stderr)
            XCTAssertTrue(stop.stderr.contains("no stop has stop_id"), String(stop.stderr.prefix(200)))
        }
        for at in ["2026-03-02 08:00'; --", "2026-03-02\n08:00", "9999-99-99 99:99"] {
            XCTAssertEqual(try CommandRun.transit(["departures", "--stop", "HBF", "--at", at, "--db", spaced]).status, 64, at)
        }
        XCTAssertEqual(try CommandRun.transit(["search", "lodz", "--db", spaced]).stdout, "Stop            stop_id\nŁódź Fabryczna  LODZ\n")
    }
}

/// The import loop's state, shared with the thread that runs it.
private final class ImportLoop: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var count = 0
    private var messages: [String] = []

    var shouldStop: Bool { lock.lock(); defer { lock.unlock() }; return stopped }
    var imports: Int { lock.lock(); defer { lock.unlock() }; return count }
    var failures: [String] { lock.lock(); defer { lock.unlock() }; return messages }

    func stop() { lock.lock(); stopped = true; lock.unlock() }

    func record(_ run: CommandRun) {
        lock.lock()
        count += 1
        if run.status != 0 { messages.append(run.stderr) }
        lock.unlock()
    }
}
