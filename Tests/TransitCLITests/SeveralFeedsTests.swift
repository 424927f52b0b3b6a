import XCTest
import Foundation
import TestSupport

/// Several feeds in one database, run through the release binary on fixture feeds written here:
/// answers from every feed together, ids per feed, each feed in its own time zone, and adding,
/// replacing and removing one feed without touching the others.
final class SeveralFeedsTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var database: String!

    override func setUp() {
        directory = TemporaryDirectory()
        database = directory.file("db.sqlite")
    }

    override func tearDown() { directory = nil }

    /// The fixture feed with its trip leaving S1 at `time`, in `zone`, under folder `name`.
    private func feed(_ name: String, zone: String = "Europe/Berlin", leaves time: String = "08:00:00",
                      stopNames: [String] = ["First", "Second", "Third"]) throws -> String {
        let stops = "stop_id,stop_name,stop_lat,stop_lon\nS1,\(stopNames[0]),52.5,13.4\nS2,\(stopNames[1]),52.51,13.41\nS3,\(stopNames[2]),52.52,13.42\n"
        let hour = Int(time.prefix(2))!
        func later(_ minutes: Int) -> String { String(format: "%02d:%02d:00", hour, minutes) }
        return try FeedFixture()
            .with("agency.txt", "agency_id,agency_name,agency_url,agency_timezone\nA,Agency \(name),https://example.org,\(zone)\n")
            .with("stops.txt", stops)
            .with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,\(time),\(time),S1,1\nT,\(later(10)),\(later(10)),S2,2\nT,\(later(20)),\(later(20)),S3,3\n")
            .write(to: directory, as: name)
    }

    @discardableResult
    private func run(_ arguments: [String], status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> CommandRun {
        let run = try CommandRun.transit(arguments + ["--db", database])
        XCTAssertEqual(run.status, status, "\(arguments): \(run.stderr)", file: file, line: line)
        return run
    }

    private func json(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let output = try run(arguments + ["--format", "json"], file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]], output.stdout)
    }

    private func importFeed(_ path: String, as name: String? = nil) throws {
        try run(["import", path, "--quiet"] + (name.map { ["--feed", $0] } ?? []))
    }

    func testTwoFeedsSharingStopIdsAnswerTogetherInTheFiledOrder() throws {
        try importFeed(try feed("berlin"))
        try importFeed(try feed("other", leaves: "08:05:00"))
        let near = try json(["nearby", "52.5", "13.4", "--radius", "10"])
        XCTAssertEqual(near.map { "\($0["feed"]!):\($0["stop_id"]!)" }, ["berlin:S1", "other:S1"], "same distance: feed name breaks the tie")
        let found = try json(["search", "seco"])
        XCTAssertEqual(found.map { "\($0["feed"]!):\($0["stop_id"]!)" }, ["berlin:S2", "other:S2"])
        let departures = try json(["departures", "--near", "52.5,13.4", "--radius", "10", "--at", "2026-03-02 07:55"])
        XCTAssertEqual(departures.map { "\($0["feed"]!) \($0["departure"]!)" },
                       ["berlin 2026-03-02T08:00:00+01:00", "other 2026-03-02T08:05:00+01:00"])
        let table = try run(["nearby", "52.5", "13.4", "--radius", "10"])
        XCTAssertEqual(table.stdout.split(separator: "\n").first, "Distance  Stop   stop_id  Feed", table.stdout)
        let csv = try run(["nearby", "52.5", "13.4", "--radius", "10", "--format", "csv", "--feed", "other"])
        XCTAssertEqual(csv.stdout, "feed,stop_id,name,lat,lon,distance_m\r\nother,S1,First,52.5,13.4,0\r\n")
        let feeds = try json(["feeds"])
        XCTAssertEqual(feeds.map { $0["feed"] as? String }, ["berlin", "other"])
        XCTAssertEqual(Set(feeds[0].keys), ["feed", "agencies", "time_zone", "stops", "stop_times", "trips", "routes",
                                            "first_date", "last_date", "imported", "source", "south", "west", "north", "east"])
        // Each feed's extent is the box of its own stops (S1 at 52.5, 13.4 to S3 at 52.52, 13.42).
        XCTAssertEqual([feeds[1]["south"], feeds[1]["west"], feeds[1]["north"], feeds[1]["east"]].map { $0 as? Double }, [52.5, 13.4, 52.52, 13.42])
        XCTAssertEqual(feeds[1]["agencies"] as? [String], ["Agency other"])
        XCTAssertEqual(feeds[1]["stop_times"] as? Int, 3)
        XCTAssertEqual(feeds[1]["first_date"] as? String, "2026-01-01")
        XCTAssertEqual(feeds[1]["source"] as? String, directory.file("other"))
        let geojson = try run(["search", "first", "--format", "geojson"])
        XCTAssertTrue(geojson.stdout.contains("\"properties\": {\"feed\": \"other\""), geojson.stdout)
    }

    func testEveryPlanStaysASearchWithSeveralFeeds() throws {
        try importFeed(try feed("berlin"))
        try importFeed(try feed("other", zone: "America/New_York"))
        for question in [["nearby", "52.5", "13.4"], ["nearby", "52.5", "13.4", "--feed", "other"], ["search", "sec"],
                         ["search", "sec", "--feed", "berlin"], ["departures", "--stop", "other:S1", "--at", "2026-03-02 07:55"],
                         ["departures", "--near", "52.5,13.4", "--at", "2026-03-02T07:55Z"],
                         ["list", "stops", "--feed", "other"]] {
            let explained = try run(question + ["--explain"])
            XCTAssertTrue(explained.stderr.contains("SEARCH"), "\(question): \(explained.stderr)")
            XCTAssertFalse(explained.stderr.contains("warning:"), "\(question): \(explained.stderr)")
        }
        let departures = try run(["departures", "--stop", "other:S1", "--at", "2026-03-02 07:55", "--explain"])
        XCTAssertTrue(departures.stderr.contains("SEARCH stop_times USING COVERING INDEX stop_times_2_by_stop_departure (stop=? AND departure>? AND departure<?)"), departures.stderr)
    }

    func testABareIdSeveralFeedsHaveListsEveryCandidate() throws {
        try importFeed(try feed("berlin"))
        try importFeed(try feed("other", leaves: "08:05:00", stopNames: ["Uno", "Dos", "Tres"]))
        let ambiguous = try run(["departures", "--stop", "S1"], status: 64)
        XCTAssertTrue(ambiguous.stderr.contains("berlin:S1 (First), other:S1 (Uno)"), ambiguous.stderr)
        XCTAssertEqual(ambiguous.stderr.filter { $0 == "\n" }.count, 1, ambiguous.stderr)
        let chosen = try json(["departures", "--stop", "other:S1", "--at", "2026-03-02 07:55"])
        XCTAssertEqual(chosen.map { "\($0["feed"]!):\($0["gtfs_time"]!)" }, ["other:08:05:00"])
        let restricted = try json(["departures", "--stop", "S1", "--feed", "berlin", "--at", "2026-03-02 07:55"])
        XCTAssertEqual(restricted.map { "\($0["feed"]!):\($0["gtfs_time"]!)" }, ["berlin:08:00:00"])
        try run(["stats", "--stop", "S1"], status: 64)
        try run(["stats", "--stop", "berlin:S1", "--date", "2026-03-02"])
        let unknown = try run(["nearby", "52.5", "13.4", "--feed", "nope"], status: 64)
        XCTAssertTrue(unknown.stderr.contains("no feed is named 'nope'; the feeds are berlin, other"), unknown.stderr)
        try run(["nearby", "52.5", "13.4", "--feed", "Not A Name"], status: 64)
        try run(["departures", "--stop", "berlin:NOPE"], status: 64)
        let outside = try run(["departures", "--stop", "other:S1", "--feed", "berlin"], status: 64)
        XCTAssertTrue(outside.stderr.contains("other:S1 is a stop of feed other, which --feed leaves out (it keeps berlin)"), outside.stderr)
        let missing = try run(["departures", "--stop", "S9", "--feed", "berlin"], status: 64)
        XCTAssertTrue(missing.stderr.contains("no stop of feed berlin has stop_id 'S9' (--feed leaves the others out)"), missing.stderr)
        // stats names stops FEED:ID whenever the database holds several feeds.
        let stats = try run(["stats", "--date", "2026-03-02", "--feed", "berlin", "--format", "csv"])
        XCTAssertTrue(stats.stdout.contains("busiest_stops 2026-03-02,berlin:S1,1\r\n"), stats.stdout)
    }

    func testEachFeedIsReadInItsOwnTimeZone() throws {
        try importFeed(try feed("berlin"))
        try importFeed(try feed("newyork", zone: "America/New_York"))
        // Both feeds' S1 are at the same place: an offset-less time cannot be read in one zone.
        let refused = try run(["departures", "--near", "52.5,13.4", "--radius", "10", "--at", "2026-03-02 07:55"], status: 64)
        XCTAssertTrue(refused.stderr.contains("different time zones") && refused.stderr.contains("berlin: Europe/Berlin"), refused.stderr)
        let berlin = try json(["departures", "--near", "52.5,13.4", "--radius", "10", "--at", "2026-03-02T07:55+01:00"])
        XCTAssertEqual(berlin.map { $0["departure"] as? String }, ["2026-03-02T08:00:00+01:00"])
        let newYork = try json(["departures", "--near", "52.5,13.4", "--radius", "10", "--at", "2026-03-02T12:55Z"])
        XCTAssertEqual(newYork.map { "\($0["feed"]!) \($0["departure"]!) \($0["minutes"]!)" }, ["newyork 2026-03-02T08:00:00-05:00 5"])
        // With --stop, the stop's feed gives the zone; --feed narrows the feeds asked.
        let byStop = try json(["departures", "--stop", "newyork:S1", "--at", "2026-03-02 07:55"])
        XCTAssertEqual(byStop.map { $0["departure"] as? String }, ["2026-03-02T08:00:00-05:00"])
        let narrowed = try json(["departures", "--near", "52.5,13.4", "--radius", "10", "--feed", "newyork", "--at", "2026-03-02 07:55"])
        XCTAssertEqual(narrowed.map { $0["feed"] as? String }, ["newyork"])
        // A whole day: both feeds' 08:00, five hours apart, in instant order with their own offsets.
        let day = try json(["departures", "--near", "52.5,13.4", "--radius", "10", "--at", "2026-03-02T00:00Z", "--within", "1440"])
        XCTAssertEqual(day.map { $0["departure"] as? String }, ["2026-03-02T08:00:00+01:00", "2026-03-02T08:00:00-05:00"])
        try run(["departures", "--stop", "berlin:S1", "--at", "2026-03-02T08:00+25:00"], status: 64)
    }

    func testReplacingAndRemovingAFeedLeaveTheOthersAsTheyWere() throws {
        try importFeed(try feed("berlin"))
        try importFeed(try feed("other", leaves: "09:00:00"))
        let others = try run(["list", "stop-times", "--feed", "other"]).stdout
        // Replace berlin with a feed that has a fourth stop.
        let changed = try FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,First,52.5,13.4\nS2,Second,52.51,13.41\nS3,Third,52.52,13.42\nS4,Fourth,52.53,13.43\n")
            .write(to: directory, as: "changed")
        let replaced = try run(["import", changed, "--feed", "berlin"])
        XCTAssertTrue(replaced.stdout.hasPrefix("Imported feed berlin into \(database!) in "), replaced.stdout)
        XCTAssertTrue(replaced.stdout.contains("(replacing the previous berlin; 1 other feed untouched)"), replaced.stdout)
        XCTAssertEqual(try json(["feeds"]).map { "\($0["feed"]!) \($0["stops"]!)" }, ["berlin 4", "other 3"])
        XCTAssertEqual(try run(["list", "stop-times", "--feed", "other"]).stdout, others)
        XCTAssertEqual(try json(["search", "fourth"]).map { $0["feed"] as? String }, ["berlin"])
        // Remove berlin: its rows, words and tables go; other answers as before.
        let removed = try run(["feeds", "remove", "berlin"])
        XCTAssertEqual(removed.stdout, "Removed feed berlin from \(database!)\n")
        XCTAssertEqual(try json(["feeds"]).map { $0["feed"] as? String }, ["other"])
        XCTAssertEqual(try json(["search", "fourth"]).count, 0, "its search words are gone")
        XCTAssertEqual(try run(["list", "stop-times"]).stdout, others)
        let tables = try CommandRun.run("/usr/bin/env", ["sqlite3", database, "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB '*_[0-9]*' ORDER BY name"])
        XCTAssertEqual(tables.stdout, "planner_2\nservice_days_2\nshapes_2\nstop_times_2\ntransfers_2\n", "only other's own tables remain")
        let counts = try CommandRun.run("/usr/bin/env", ["sqlite3", database,
            "SELECT (SELECT COUNT(*) FROM stops) || ' ' || (SELECT COUNT(*) FROM stop_name_prefixes WHERE stop NOT IN (SELECT id FROM stops)) || ' ' || (SELECT COUNT(*) FROM trips) || ' ' || (SELECT COUNT(*) FROM calendar)"])
        XCTAssertEqual(counts.stdout, "3 0 1 1\n", "no row of berlin is left in the shared tables")
        let unknown = try run(["feeds", "remove", "berlin"], status: 64)
        XCTAssertTrue(unknown.stderr.contains("no feed is named 'berlin'; the feeds are other"), unknown.stderr)
        // A feed added after a removal gets a key never used before.
        try importFeed(try feed("third"))
        let keys = try CommandRun.run("/usr/bin/env", ["sqlite3", database, "SELECT group_concat(id || '=' || name) FROM feeds"])
        XCTAssertEqual(keys.stdout, "2=other,4=third\n")
        try run(["feeds", "remove", "other"])
        try run(["feeds", "remove", "third"])
        XCTAssertEqual(try run(["nearby", "52.5", "13.4"]).stdout, "No stops within 500 m of 52.5, 13.4\n")
        XCTAssertEqual(try run(["feeds"]).stdout, "The database holds no feeds: add one with `transit import FEED`\n")
        XCTAssertEqual(directory.contents().filter { $0.hasPrefix("db.sqlite") }, ["db.sqlite"], "the database rests without a log")
    }

    func testFeedNamesComeFromTheFileNameOrFeed() throws {
        try importFeed(try FeedFixture().write(to: directory, as: "Caltrain 2017"))
        XCTAssertEqual(try json(["feeds"]).map { $0["feed"] as? String }, ["caltrain-2017"])
        for bad in ["Caltrain", "a b", "a:b", "ü", ""] {
            let refused = try CommandRun.transit(["import", directory.file("Caltrain 2017"), "--feed", bad, "--db", database])
            XCTAssertEqual(refused.status, 64, "\(bad): \(refused.stderr)")
        }
        XCTAssertEqual(try json(["feeds"]).count, 1)
    }

    func testADatabaseOfTheSingleFeedVersionSaysWhatToRun() throws {
        let source = try feed("vilnius-old")
        let made = try CommandRun.run("/usr/bin/env", ["sqlite3", database,
            "CREATE TABLE metadata (key TEXT PRIMARY KEY, value TEXT); INSERT INTO metadata VALUES ('schema_version', '1'), ('source', '\(source)'); CREATE TABLE stop_times (trip INTEGER)"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let query = try run(["nearby", "52.5", "13.4"], status: 1)
        XCTAssertTrue(query.stderr.contains("earlier transit (schema 1, one feed from \(source)); re-import that feed to upgrade it: transit import \(source) --db \(database!)"), query.stderr)
        // Another feed would silently drop the old one: refused with the same advice.
        let other = try run(["import", try feed("other"), "--quiet"], status: 1)
        XCTAssertTrue(other.stderr.contains("re-import that feed to upgrade it"), other.stderr)
        // The advised command upgrades it: the database now holds that feed, under its name.
        try run(["import", source, "--quiet"])
        XCTAssertEqual(try json(["feeds"]).map { $0["feed"] as? String }, ["vilnius-old"])
        XCTAssertEqual(try json(["nearby", "52.5", "13.4", "--radius", "10"]).count, 1)
    }

    /// The same real feed under two names answers every question exactly twice, once per feed; with
    /// --feed, each answers exactly as a database holding only that feed.
    func testARealFeedImportedTwiceAnswersTwice() throws {
        guard let vilnius = Paths.sharedFeed("vilnius.zip") else {
            throw XCTSkip("../shared/feeds/vilnius.zip is absent: the two-copies test is skipped")
        }
        let single = directory.file("single.sqlite")
        XCTAssertEqual(try CommandRun.transit(["import", vilnius, "--feed", "a", "--db", single, "--quiet"]).status, 0)
        try importFeed(vilnius, as: "a")
        try importFeed(vilnius, as: "b")
        let questions: [[String]] = [
            ["nearby", "54.687", "25.28", "--radius", "600", "--limit", "0"],
            ["nearby", "54.70", "25.25", "--radius", "400", "--platforms", "--limit", "0"],
            ["search", "sto", "--limit", "0"],
            ["search", "vinco kud", "--limit", "0"],
            ["departures", "--near", "54.687,25.28", "--radius", "500", "--at", "2015-09-08 08:00", "--limit", "0"],
            ["departures", "--near", "54.687,25.28", "--radius", "500", "--at", "2015-09-08 23:40", "--within", "60", "--limit", "0"],
        ]
        for question in questions {
            let alone = try CommandRun.transit(question + ["--format", "csv", "--db", single])
            XCTAssertEqual(alone.status, 0, alone.stderr)
            let rows = alone.stdout.split(separator: "\r\n").dropFirst().map { String($0.dropFirst(2)) }
            XCTAssertGreaterThan(rows.count, 1, "\(question) must find something to compare")
            let both = try run(question + ["--format", "csv"]).stdout.split(separator: "\r\n").dropFirst()
            // Every answer twice: each feed's answers, in the single-feed order, interleaved by the
            // filed order (feed name breaks ties, so a's copy of an answer precedes b's).
            XCTAssertEqual(both.filter { $0.hasPrefix("a,") }.map { String($0.dropFirst(2)) }, rows, "\(question)")
            XCTAssertEqual(both.filter { $0.hasPrefix("b,") }.map { String($0.dropFirst(2)) }, rows, "\(question)")
            XCTAssertEqual(both.count, 2 * rows.count, "\(question)")
            for row in rows {
                let positions = both.indices.filter { String(both[$0].dropFirst(2)) == row }
                XCTAssertTrue(both[positions[0]].hasPrefix("a,"), "\(question): \(row)")
            }
            XCTAssertEqual(try run(question + ["--format", "csv", "--feed", "a"]).stdout, alone.stdout, "\(question)")
            XCTAssertEqual(try run(question + ["--format", "csv", "--feed", "b"]).stdout,
                           alone.stdout.replacingOccurrences(of: "\r\na,", with: "\r\nb,"), "\(question)")
        }
    }
}
