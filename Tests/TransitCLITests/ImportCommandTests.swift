import XCTest
import Foundation
import TestSupport

/// Runs the built `transit` binary, as a user would.
final class ImportCommandTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory = nil }

    /// Data rows per file of a zipped feed, counted by Python's csv module (an independent reader).
    private func pythonRowCounts(_ zip: String) throws -> [String: Int] {
        let run = try CommandRun.run("/usr/bin/env", ["python3", "-c", """
            import csv, io, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                for name in z.namelist():
                    if name.endswith('.txt'):
                        rows = list(csv.reader(io.StringIO(z.read(name).decode('utf-8-sig'))))
                        data = [r for r in rows[1:] if any(field.strip() for field in r)]
                        print(name.split('/')[-1], len(data))
            """, zip])
        XCTAssertEqual(run.status, 0, run.stderr)
        var counts: [String: Int] = [:]
        for line in run.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            counts[String(parts[0])] = Int(parts[1])
        }
        return counts
    }

    private func assertRealFeedImportsEveryRow(_ name: String) throws {
        guard let feed = Paths.sharedFeed(name) else {
            throw XCTSkip("../shared/feeds/\(name) is absent: the real-feed import test is skipped")
        }
        let database = directory.file("db.sqlite")
        let run = try CommandRun.transit(["import", feed, "--db", database])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("Nothing was skipped."), run.stdout)
        let expected = try pythonRowCounts(feed)
        for table in ["agency", "stops", "routes", "trips", "stop_times", "calendar", "calendar_dates", "shapes"] {
            guard let rows = expected[table + ".txt"] else { continue }
            // The only feed has key 1: its stop times and shapes are in stop_times_1 and shapes_1.
            let own = table == "stop_times" || table == "shapes" ? table + "_1" : table
            let counted = try CommandRun.run("/usr/bin/env", ["sqlite3", database, "SELECT COUNT(*) FROM \(own)"])
            XCTAssertEqual(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines), String(rows), "\(name): \(table)")
        }
    }

    func testVilniusImportsEveryRow() throws { try assertRealFeedImportsEveryRow("vilnius.zip") }

    func testCairnsImportsEveryRow() throws { try assertRealFeedImportsEveryRow("cairns_gtfs.zip") }

    func testSampleFeedImportsEveryRow() throws { try assertRealFeedImportsEveryRow("sample_gtfs.zip") }

    func testSummaryListsRowsPerTableAndQuietPrintsNothing() throws {
        let loud = try CommandRun.transit(["import", Paths.demoFeed, "--db", directory.file("a.sqlite")])
        XCTAssertEqual(loud.status, 0, loud.stderr)
        XCTAssertTrue(loud.stdout.contains("stop_times"), loud.stdout)
        XCTAssertTrue(loud.stdout.contains("2 stop times had no time and got one interpolated"), loud.stdout)
        let quiet = try CommandRun.transit(["import", Paths.demoFeed, "--db", directory.file("b.sqlite"), "--quiet"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stdout, "")
        XCTAssertEqual(quiet.stderr, "")
    }

    func testDatabaseDefaultsToTransitSqliteAndHonoursTransitDB() throws {
        let first = try CommandRun.transit(["import", Paths.demoFeed, "--quiet"], in: directory.path)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.file("transit.sqlite")))
        let second = try CommandRun.transit(["import", Paths.demoFeed, "--quiet"], in: directory.path,
                                            environment: ["TRANSIT_DB": directory.file("env.sqlite")])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.file("env.sqlite")))
    }

    func testBadFeedFailsWithOneLineNamingFileLineAndField() throws {
        let feed = try FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,A,52.5,13.4\nS2,B,95,13.4\nS3,C,52.5,13.4\n")
            .write(to: directory)
        let run = try CommandRun.transit(["import", feed, "--db", directory.file("db.sqlite")])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "Error: stops.txt line 3, field stop_lat: 95.0 is outside [-90, 90]\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("db.sqlite")))
    }

    func testMissingFeedSaysWhatToGive() throws {
        let run = try CommandRun.transit(["import", directory.file("nope.zip"), "--db", directory.file("db.sqlite")])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("no such file or folder; give a GTFS .zip or a folder"), run.stderr)
    }

    func testInterruptedImportLeavesThePreviousDatabaseAndNoTemporaryFile() throws {
        guard let feed = Paths.sharedFeed("vilnius.zip") else {
            throw XCTSkip("../shared/feeds/vilnius.zip is absent: the interrupt test needs an import that takes a while")
        }
        let database = directory.file("db.sqlite")
        XCTAssertEqual(try CommandRun.transit(["import", Paths.demoFeed, "--db", database, "--quiet"]).status, 0)
        let before = databaseFingerprint(database)
        for (signal, delay) in [(SIGINT, 0.4), (SIGTERM, 0.2)] {
            let process = try ChildProcess(Paths.transitBinary, ["import", feed, "--db", database, "--quiet"])
            Thread.sleep(forTimeInterval: delay)
            process.send(signal)
            XCTAssertEqual(process.wait(), 128 + signal, "the import should have been interrupted")
            XCTAssertEqual(databaseFingerprint(database), before)
            XCTAssertEqual(directory.contents(), ["db.sqlite"], "no temporary file is left behind")
        }
    }
}
