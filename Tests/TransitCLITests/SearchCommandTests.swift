import XCTest
import Foundation
import TestSupport

final class SearchCommandTests: XCTestCase {
    private func search(_ arguments: [String], db: String? = nil) throws -> CommandRun {
        try CommandRun.transit(["search"] + arguments + ["--db", try db ?? DemoDatabase.path()])
    }

    func testJSONFieldsAndTable() throws {
        let run = try search(["lodz", "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(Set(rows[0].keys), ["feed", "stop_id", "name", "lat", "lon", "platform_code", "location_type", "routes", "towards"])
        XCTAssertTrue(rows[0]["routes"] is NSNull, "a name no other stop has is not told apart")
        XCTAssertEqual(rows[0]["name"] as? String, "Łódź Fabryczna")
        XCTAssertEqual(rows[0]["lat"] as? Double, 52.515)
        let table = try search(["haupt"])
        XCTAssertEqual(table.stdout, "Stop                    stop_id\nHauptbahnhof (station)  HBF\n")
        let none = try search(["zzz"])
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.stdout, "No stop name matches \"zzz\"\n")
    }

    func testHostileTextNeverBecomesSQLAndNeverChangesTheDatabase() throws {
        let db = try DemoDatabase.path()
        let before = fileFingerprint(db)
        for text in ["'; DROP TABLE stops; --", "\" OR 1=1 --", "50%_off", "a\nb", "🚇 tierpark", "שלום", String(repeating: "ż", count: 10_000)] {
            let run = try search([text, "--format", "csv"], db: db)
            XCTAssertEqual(run.status, 0, "\(text.prefix(20)): \(run.stderr)")
            XCTAssertTrue(run.stdout.hasPrefix("feed,stop_id,name,lat,lon,platform_code,location_type,routes,towards\r\n"), run.stdout)
        }
        XCTAssertEqual(fileFingerprint(db), before)
        let emoji = try search(["🚇🚌"], db: db)
        XCTAssertEqual(emoji.status, 64)
        XCTAssertEqual(emoji.stderr, "Error: the search text has no letters or digits to search for (see 'transit search --help')\n")
    }

    func testExplainShowsSearchNotScan() throws {
        let run = try search(["gorli strasse", "--explain"])
        XCTAssertEqual(run.status, 0, run.stderr)
        // The names that begin with the text, then the others: each an index search, neither a sort.
        XCTAssertTrue(run.stderr.contains("SEARCH stop_name_prefixes USING PRIMARY KEY (prefix=? AND shown_name>? AND shown_name<?)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("-- statement 2: 1 row"), run.stderr)
        XCTAssertTrue(run.stderr.contains("SEARCH stop_name_prefixes USING PRIMARY KEY (prefix=?)"), run.stderr)
        XCTAssertFalse(run.stderr.contains("SCAN"), run.stderr)
        XCTAssertFalse(run.stderr.contains("TEMP B-TREE"), run.stderr)
        XCTAssertFalse(run.stderr.contains("LIKE"), run.stderr)
    }

    func testVilniusFindsBijunu() throws {
        guard let feed = Paths.sharedFeed("vilnius.zip") else {
            throw XCTSkip("../shared/feeds/vilnius.zip is absent: the vilnius search test is skipped")
        }
        let run = try search(["bijunu", "--format", "json"], db: try DemoDatabase.path(feed: feed))
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        XCTAssertFalse(rows.isEmpty)
        XCTAssertTrue(rows.allSatisfy { $0["name"] as? String == "Bijūnų st." }, run.stdout)
    }

    /// Two stops of one name (the two sides of a street) are told apart by what calls there: the
    /// routes boarding there and where they go, as the feed's trips say; --routes shows it for all.
    func testTwinsAreToldApartByTheirRoutesAndHeadsigns() throws {
        let folder = TemporaryDirectory()
        let feed = FeedFixture(files: [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nX,Metro,https://example.org,America/Los_Angeles\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nW1,Westlake Ave & 9th Ave,47.62,-122.33\nW2,Westlake Ave & 9th Ave,47.6201,-122.3302\n"
                + "N,North End,47.65,-122.33\nS,South End,47.59,-122.33\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR8,X,8,,3\nR40,X,40,,3\n",
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR8,D,N1,North End\nR8,D,S1,South End\nR40,D,F1,Fremont\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + "N1,08:00:00,08:00:00,S,1\nN1,08:05:00,08:05:00,W1,2\nN1,08:10:00,08:10:00,N,3\n"
                + "S1,08:00:00,08:00:00,N,1\nS1,08:05:00,08:05:00,W2,2\nS1,08:10:00,08:10:00,S,3\n"
                + "F1,09:00:00,09:00:00,W1,1\nF1,09:10:00,09:10:00,N,2\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20261231\n",
        ])
        let db = try DemoDatabase.path(feed: try feed.write(to: folder, as: "westlake"))
        let run = try search(["westlake", "--format", "json"], db: db)
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let told = Dictionary(uniqueKeysWithValues: rows.map { ($0["stop_id"] as? String ?? "", [$0["routes"] as? [String], $0["towards"] as? [String]]) })
        XCTAssertEqual(told["W1"], [["8", "40"], ["Fremont", "North End"]])
        XCTAssertEqual(told["W2"], [["8"], ["South End"]])
        let table = try search(["westlake"], db: db)
        let lines = table.stdout.split(separator: "\n").filter { $0.hasPrefix("Westlake") }
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(Set(lines).count, 2, "twins are never identical rows: \(table.stdout)")
        XCTAssertTrue(table.stdout.contains("South End"), table.stdout)
        // A name of one stop: nothing read, unless --routes asks.
        let north = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try search(["north", "--format", "json"], db: db).stdout.utf8)) as? [[String: Any]])
        XCTAssertTrue(north.first?["routes"] is NSNull)
        let asked = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try search(["north", "--routes", "--format", "json"], db: db).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(asked.first?["routes"] as? [String], ["8"], "S1 starts at North End; N1 and F1 end there (not boarded)")
        XCTAssertEqual(asked.first?["towards"] as? [String], ["South End"])
    }
}
