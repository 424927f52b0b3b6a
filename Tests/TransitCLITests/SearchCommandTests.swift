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
        XCTAssertEqual(Set(rows[0].keys), ["feed", "stop_id", "name", "lat", "lon"])
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
            XCTAssertTrue(run.stdout.hasPrefix("feed,stop_id,name,lat,lon\r\n"), run.stdout)
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
}
