import XCTest
import Foundation
import TestSupport

/// A database of schema 2 (before the trips' last stop and directions.txt), 3 (names searched in
/// `stop_words`) or 4 (stop times without their trip's service) is upgraded in place by `transit
/// feeds upgrade` or by the next import into it, and
/// then answers exactly as a database imported new; queries on it say what to run.
final class SchemaUpgradeTests: XCTestCase {
    private func sqlite(_ database: String, _ sql: String) throws {
        let run = try CommandRun.run("/usr/bin/env", ["sqlite3", database, sql])
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    /// A copy of the demo database turned back into schema 4: stop times without their trip's
    /// service, and the departures index without it (with that index's statistics of then).
    private func version4Copy(in directory: TemporaryDirectory, as name: String = "old4.sqlite") throws -> String {
        let copy = directory.file(name)
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: copy)
        try sqlite(copy, """
            DROP INDEX stop_times_1_by_stop_departure;
            ALTER TABLE stop_times_1 DROP COLUMN service_number;
            CREATE INDEX "stop_times_1_by_stop_departure" ON "stop_times_1" ("stop", "departure", "pickup_type");
            INSERT INTO sqlite_stat1 VALUES ('stop_times_1', 'stop_times_1_by_stop_departure', '3000000 300 2 2');
            UPDATE metadata SET value = '4' WHERE key = 'schema_version'
            """)
        return copy
    }

    /// A copy of the demo database turned back into schema 2.
    private func version2Copy(in directory: TemporaryDirectory) throws -> String {
        let copy = try version4Copy(in: directory, as: "old.sqlite")
        try sqlite(copy, "ALTER TABLE trips DROP COLUMN last_stop; ALTER TABLE trips DROP COLUMN last_stop_sequence; DROP TABLE directions; UPDATE metadata SET value = '2' WHERE key = 'schema_version'")
        return copy
    }

    private let questions: [[String]] = [
        ["departures", "--stop", "HBF", "--at", "2026-03-02 07:55", "--within", "120", "--format", "json"],
        ["departures", "--near", "52.51,13.4", "--radius", "3000", "--at", "2026-03-02 23:50", "--within", "60", "--format", "json"],
        ["stats", "--date", "2026-03-02", "--format", "json"],
    ]

    /// Asserts a query on `old` is refused with the command that upgrades it, that the upgrade
    /// says it went from `version` to this schema, and that `questions` then answer as on a new import.
    private func assertRefusedThenUpgradedToAnswerAsANewImport(_ old: String, fromSchema version: Int,
                                                              file: StaticString = #filePath, line: UInt = #line) throws {
        let refused = try CommandRun.transit(["departures", "--stop", "HBF", "--db", old])
        XCTAssertEqual(refused.status, 1, file: file, line: line)
        XCTAssertTrue(refused.stderr.contains("(schema \(version)): `transit feeds upgrade --db \(old)` brings it up to date in place"),
                      refused.stderr, file: file, line: line)
        let upgraded = try CommandRun.transit(["feeds", "upgrade", "--db", old])
        XCTAssertEqual(upgraded.status, 0, upgraded.stderr, file: file, line: line)
        XCTAssertEqual(upgraded.stdout, "Upgraded \(old) from schema \(version) to 5\n", file: file, line: line)
        for question in questions {
            let fresh = try CommandRun.transit(question + ["--db", try DemoDatabase.path()])
            let mine = try CommandRun.transit(question + ["--db", old])
            XCTAssertEqual(mine.status, 0, mine.stderr, file: file, line: line)
            XCTAssertEqual(mine.stdout, fresh.stdout, question.joined(separator: " "), file: file, line: line)
        }
    }

    func testUpgradeInPlaceAnswersAsANewImport() throws {
        let directory = TemporaryDirectory()
        let old = try version2Copy(in: directory)
        try assertRefusedThenUpgradedToAnswerAsANewImport(old, fromSchema: 2)
        let ends = "SELECT trip_id, last_stop_sequence, last_stop FROM trips ORDER BY trip_id"
        XCTAssertEqual(try CommandRun.run("/usr/bin/env", ["sqlite3", old, ends]).stdout,
                       try CommandRun.run("/usr/bin/env", ["sqlite3", try DemoDatabase.path(), ends]).stdout)
        let again = try CommandRun.transit(["feeds", "upgrade", "--db", old])
        XCTAssertEqual(again.stdout, "\(old) is up to date (schema 5)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: old + "-wal"), "the database rests in rollback-journal mode")
    }

    /// A copy of the demo database turned back into schema 3: names searched by word ranges in
    /// `stop_words`, with that table's index and planner statistics.
    private func version3Copy(in directory: TemporaryDirectory) throws -> String {
        let copy = try version4Copy(in: directory, as: "old3.sqlite")
        try sqlite(copy, """
            DROP TABLE stop_name_prefixes;
            CREATE TABLE stop_words ("word" TEXT, "stop" INTEGER, "listed_as" INTEGER NOT NULL, PRIMARY KEY ("word", "stop")) WITHOUT ROWID;
            INSERT INTO stop_words SELECT 'hauptbahnhof', id, id FROM stops WHERE stop_id = 'HBF';
            CREATE INDEX stop_words_by_stop ON stop_words ("stop");
            INSERT INTO sqlite_stat1 VALUES ('stop_words', 'stop_words', '10000 10 1'), ('stop_words', 'stop_words_by_stop', '10000 2');
            UPDATE metadata SET value = '3' WHERE key = 'schema_version'
            """)
        return copy
    }

    func testUpgradeFromSchema3BuildsTheSearchIndexFromTheStops() throws {
        let directory = TemporaryDirectory()
        let old = try version3Copy(in: directory)
        let refused = try CommandRun.transit(["search", "haupt", "--db", old])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("(schema 3): `transit feeds upgrade --db \(old)` brings it up to date in place"), refused.stderr)
        let upgraded = try CommandRun.transit(["feeds", "upgrade", "--db", old])
        XCTAssertEqual(upgraded.status, 0, upgraded.stderr)
        XCTAssertEqual(upgraded.stdout, "Upgraded \(old) from schema 3 to 5\n", "with the new table's planner statistics")
        for question in [["search", "haupt"], ["search", "a", "--limit", "0"], ["search", "hauptbahnhof", "--platforms"],
                         ["search", "nord", "--limit", "0"], ["search", "gorli strasse"]] {
            let fresh = try CommandRun.transit(question + ["--format", "json", "--db", try DemoDatabase.path()])
            let mine = try CommandRun.transit(question + ["--format", "json", "--db", old])
            XCTAssertEqual(mine.status, 0, mine.stderr)
            XCTAssertEqual(mine.stdout, fresh.stdout, question.joined(separator: " "))
        }
        let rows = "SELECT * FROM stop_name_prefixes"
        XCTAssertEqual(try CommandRun.run("/usr/bin/env", ["sqlite3", old, rows]).stdout,
                       try CommandRun.run("/usr/bin/env", ["sqlite3", try DemoDatabase.path(), rows]).stdout)
        let leftovers = "SELECT COUNT(*) FROM sqlite_master WHERE name GLOB 'stop_words*'; SELECT COUNT(*) FROM sqlite_stat1 WHERE tbl = 'stop_words'"
        XCTAssertEqual(try CommandRun.run("/usr/bin/env", ["sqlite3", old, leftovers]).stdout, "0\n0\n")
        XCTAssertEqual(try CommandRun.transit(["feeds", "upgrade", "--db", old]).stdout, "\(old) is up to date (schema 5)\n")
    }

    func testUpgradeFromSchema4GivesEachStopTimeItsTripsServiceAndDeparturesTestItInTheIndex() throws {
        let directory = TemporaryDirectory()
        let old = try version4Copy(in: directory)
        try assertRefusedThenUpgradedToAnswerAsANewImport(old, fromSchema: 4)
        let services = "SELECT trip, stop_sequence, service_number FROM stop_times_1 ORDER BY trip, stop_sequence"
        let upgradedServices = try CommandRun.run("/usr/bin/env", ["sqlite3", old, services]).stdout
        XCTAssertEqual(upgradedServices, try CommandRun.run("/usr/bin/env", ["sqlite3", try DemoDatabase.path(), services]).stdout)
        XCTAssertFalse(upgradedServices.contains("|\n"), "every stop time has a service")
        let schema = "SELECT sql FROM sqlite_master WHERE name = 'stop_times_1_by_stop_departure'; SELECT stat FROM sqlite_stat1 WHERE idx = 'stop_times_1_by_stop_departure'"
        XCTAssertEqual(try CommandRun.run("/usr/bin/env", ["sqlite3", old, schema]).stdout,
                       try CommandRun.run("/usr/bin/env", ["sqlite3", try DemoDatabase.path(), schema]).stdout)
        let explained = try CommandRun.transit(questions[0] + ["--explain", "--db", old])
        XCTAssertTrue(explained.stderr.contains("WHERE (\"stop_times\".\"service_number\" + ?) IN (SELECT"), explained.stderr)
        XCTAssertTrue(explained.stderr.contains("SEARCH stop_times USING COVERING INDEX stop_times_1_by_stop_departure (stop=? AND departure>? AND departure<?)"),
                      explained.stderr)
        XCTAssertEqual(try CommandRun.transit(["feeds", "upgrade", "--db", old]).stdout, "\(old) is up to date (schema 5)\n")
    }

    func testUpgradeAddsTheIndexesADatabaseOfThisSchemaLacks() throws {
        let directory = TemporaryDirectory()
        let copy = directory.file("copy.sqlite")
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: copy)
        try sqlite(copy, "DROP INDEX trips_by_route; DROP INDEX stops_by_parent")
        let upgraded = try CommandRun.transit(["feeds", "upgrade", "--db", copy])
        XCTAssertEqual(upgraded.status, 0, upgraded.stderr)
        // Dropping an index drops its statistics: they are written again too.
        XCTAssertEqual(upgraded.stdout, "Added the missing indexes stops_by_parent, trips_by_route to \(copy)\n"
                       + "Added the query planner's statistics (sqlite_stat1) to \(copy)\n")
        let indexes = "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name"
        XCTAssertEqual(try CommandRun.run("/usr/bin/env", ["sqlite3", copy, indexes]).stdout,
                       try CommandRun.run("/usr/bin/env", ["sqlite3", try DemoDatabase.path(), indexes]).stdout)
        XCTAssertEqual(try CommandRun.transit(["feeds", "upgrade", "--db", copy]).stdout, "\(copy) is up to date (schema 5)\n")
    }

    /// The fixed planner statistics make a small feed plan as a city's does: a predicate on a
    /// route's name starts from the routes and reaches stop times by their trip, where without
    /// them SQLite reads every stop time.
    func testUpgradeAddsThePlannerStatisticsAndPredicatesStartFromTheSelectiveEnd() throws {
        let directory = TemporaryDirectory()
        let copy = directory.file("copy.sqlite")
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: copy)
        let question = ["list", "stop_times", "--predicate", "trip.route.route_short_name == '1' AND stop_sequence == 1", "--explain"]
        let imported = try CommandRun.transit(question + ["--db", copy])
        XCTAssertTrue(imported.stderr.contains("SEARCH stop_times USING PRIMARY KEY (trip=?"), imported.stderr)
        XCTAssertFalse(imported.stderr.contains("SCAN stop_times\n"), imported.stderr)
        try sqlite(copy, "DROP TABLE sqlite_stat1")
        let unplanned = try CommandRun.transit(question + ["--db", copy])
        XCTAssertTrue(unplanned.stderr.contains("SCAN stop_times\n"), "without statistics: \(unplanned.stderr)")
        XCTAssertEqual(unplanned.stdout, imported.stdout, "the same answer either way")
        let upgraded = try CommandRun.transit(["feeds", "upgrade", "--db", copy])
        XCTAssertEqual(upgraded.stdout, "Added the query planner's statistics (sqlite_stat1) to \(copy)\n", upgraded.stderr)
        XCTAssertTrue(try CommandRun.transit(question + ["--db", copy]).stderr.contains("SEARCH stop_times USING PRIMARY KEY (trip=?"))
        XCTAssertEqual(try CommandRun.transit(["feeds", "upgrade", "--db", copy]).stdout, "\(copy) is up to date (schema 5)\n")
        // Measured statistics (ANALYZE: as many rows, other figures) are replaced too.
        try sqlite(copy, "ANALYZE")
        XCTAssertEqual(try CommandRun.transit(["feeds", "upgrade", "--db", copy]).stdout, "Added the query planner's statistics (sqlite_stat1) to \(copy)\n")
        XCTAssertEqual(try CommandRun.run("/usr/bin/env", ["sqlite3", copy, "SELECT stat FROM sqlite_stat1 WHERE idx = 'trips_by_route'"]).stdout, "100000 200\n")
    }

    func testAnImportIntoASchema2DatabaseUpgradesItFirst() throws {
        let directory = TemporaryDirectory()
        let old = try version2Copy(in: directory)
        let feed = try FeedFixture().write(to: directory, as: "small")
        let run = try CommandRun.transit(["import", feed, "--db", old])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("upgraded in place from schema 2 to 5"), run.stdout)
        let feeds = try CommandRun.transit(["feeds", "--format", "csv", "--db", old])
        XCTAssertTrue(feeds.stdout.contains("\r\nlindenau,") && feeds.stdout.contains("\r\nsmall,"), feeds.stdout)
        let departures = try CommandRun.transit(questions[0] + ["--db", old])
        XCTAssertEqual(departures.stdout, try CommandRun.transit(questions[0] + ["--db", try DemoDatabase.path()]).stdout)
    }

    func testDirectionsNameTheTripsAndRoutesAndBadRowsAreCounted() throws {
        let directory = TemporaryDirectory()
        let feed = try FeedFixture()
            .with("trips.txt", "route_id,service_id,trip_id,direction_id\nR,WD,T,0\n")
            .with("directions.txt", """
                route_id,direction_id,direction
                R,0,Northbound
                R,0,Again
                NOPE,1,Southbound
                R,2,Sideways
                R,1,
                """)
            .write(to: directory, as: "named")
        let db = directory.file("db.sqlite")
        let imported = try CommandRun.transit(["import", feed, "--db", db])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        for line in ["directions.txt: duplicate (route_id, direction_id)", "directions.txt: route_id not in routes.txt",
                     "directions.txt: direction_id not 0 or 1", "directions.txt: direction empty"] {
            XCTAssertTrue(imported.stdout.contains(line) || imported.stderr.contains(line), "\(line): \(imported.stdout)")
        }
        let trip = try CommandRun.transit(["trip", "T", "--date", "2026-03-02", "--db", db])
        XCTAssertEqual(trip.status, 0, trip.stderr)
        // No trip_headsign: the header says where it goes as departures do, by its last stop.
        XCTAssertTrue(trip.stdout.hasPrefix("Trip T: route 1 One to Third, direction 0 (Northbound), Agency\n"), trip.stdout)
        let route = try CommandRun.transit(["route", "R", "--db", db])
        XCTAssertTrue(route.stdout.contains("Direction 0 (Northbound)"), route.stdout)
    }
}
