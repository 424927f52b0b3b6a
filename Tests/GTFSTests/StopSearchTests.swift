import XCTest
import FetchRequest
import TestSupport
@testable import GTFS

final class StopSearchTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var transit: TransitDatabase!
    private var database: Database { transit.database }

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        let stops = """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            T1,Tierpark,52.5,13.4,0,
            T2,Tierparkallee,52.5,13.4,0,
            T3,Am Tierpark,52.5,13.4,0,
            T4,Alt-Tierpark,52.5,13.4,0,
            T0,Tierpark,52.5,13.4,0,
            G,U Görlitzer Bahnhof (Berlin),52.5,13.4,0,
            L,Łódź Fabryczna,51.7,19.5,0,
            C,gare de Compiègne,49.4,2.8,0,
            S,Große Straße,52.5,13.4,0,
            STA,Zentrum,52.5,13.4,1,
            P1,Zentrum Gleis 1,52.5,13.4,0,STA
            P2,Zentrum Gleis 2,52.5,13.4,0,STA
            E1,Zentrum Eingang Gleisdreieck,52.5,13.4,2,STA
            O,O'Hara's Corner,52.5,13.4,0,
            S1,First,52.5,13.4,0,
            S2,Second,52.51,13.41,0,
            S3,Third,52.52,13.42,0,

            """
        let feed = try FeedFixture().with("stops.txt", stops).write(to: directory)
        try Importer(feedPath: feed, databasePath: directory.file("db.sqlite")).run()
        transit = try TransitDatabase(path: directory.file("db.sqlite"))
    }

    override func tearDown() {
        transit = nil
        directory = nil
    }

    private func search(_ text: String, platforms: Bool = false, limit: Int = 20) throws -> [String] {
        var query = try StopSearchQuery(text: text)
        query.platforms = platforms
        query.limit = limit
        return try query.run(on: transit).map(\.stopID)
    }

    func testRidersSpellingFindsTheStop() throws {
        XCTAssertEqual(try search("u gorli"), ["G"])
        XCTAssertEqual(try search("lodz"), ["L"])
        XCTAssertEqual(try search("gare compie"), ["C"])
        XCTAssertEqual(try search("GROSSE"), ["S"])
        XCTAssertEqual(try search("strasse"), ["S"])
        XCTAssertEqual(try search("Łódź"), ["L"])
    }

    func testEveryQueryWordMustBeAPrefixOfSomeWord() throws {
        XCTAssertEqual(try search("bahnhof gor"), ["G"], "word order does not matter")
        XCTAssertEqual(try search("gorli berlin"), ["G"])
        XCTAssertEqual(try search("gorli paris"), [], "every word must match")
        XCTAssertEqual(try search("orlitzer"), [], "prefixes of words, not substrings")
        XCTAssertEqual(try search("o hara"), ["O"])
        XCTAssertEqual(try search("o'hara's"), ["O"])
    }

    func testWholeNamePrefixFirstThenNormalizedNameThenStopID() throws {
        // "tierpark…" names first (T0 and T1 tie on the name, so stop_id decides), then the rest.
        XCTAssertEqual(try search("tierpark"), ["T0", "T1", "T2", "T4", "T3"])
        XCTAssertEqual(try search("tierpark", limit: 3), ["T0", "T1", "T2"])
    }

    func testPlatformsAreFoundThroughTheirStationUnlessPlatformsAreAsked() throws {
        XCTAssertEqual(try search("gleis"), ["STA"], "a platform's name finds its station")
        XCTAssertEqual(try search("gleis", platforms: true), ["P1", "P2"])
        XCTAssertEqual(try search("zentrum"), ["STA"])
        XCTAssertEqual(try search("eingang"), ["STA"], "an entrance is never listed, its station is")
        XCTAssertEqual(try search("eingang", platforms: true), [])
    }

    func testQueriesWithoutLettersOrDigitsAreRefused() {
        for text in ["", "   ", "%_%", "'; --", "🚇🚌", "---"] {
            XCTAssertThrowsError(try StopSearchQuery(text: text), text) { error in
                XCTAssertEqual(error as? StopSearchQuery.Problem, .noLettersOrDigits)
            }
        }
    }

    func testHostileTextIsSearchedAsPlainText() throws {
        XCTAssertEqual(try search("'; DROP TABLE stops; --"), [])
        // % is not a wildcard: the word is "tier", and no name starts with "tier%", so all are in the second group.
        XCTAssertEqual(try search("tier%"), ["T4", "T3", "T0", "T1", "T2"])
        XCTAssertEqual(try search("t_erpark"), [])
        XCTAssertEqual(try search("🚇 lodz"), ["L"])
        XCTAssertEqual(try search("תל אביב"), [])
        XCTAssertEqual(try search(String(repeating: "a", count: 10_000)), [])
        XCTAssertThrowsError(try StopSearchQuery(text: (0..<100).map { "w\($0)x" }.joined(separator: " "))) { error in
            XCTAssertEqual(error as? StopSearchQuery.Problem, .tooManyWords(100))
        }
        XCTAssertEqual(try database.count(Query(table: "stops")), 17, "the table is still there")
    }

    func testRedundantWordsAreDropped() throws {
        let query = try StopSearchQuery(text: "gor gorli GORLI bahn")
        XCTAssertEqual(query.words, ["bahn", "gorli"])
        XCTAssertEqual(query.normalizedText, "gor gorli gorli bahn")
    }

    func testPlanSearchesIndexesAndNeverScans() throws {
        for text in ["gorli", "bahnhof gor", "a b c"] {
            for platforms in [false, true] {
                var query = try StopSearchQuery(text: text)
                query.platforms = platforms
                let prepared = try query.prepared()
                let plan = try database.queryPlan(prepared)
                XCTAssertEqual(plan.fullyScannedTables, [], plan.tree)
                XCTAssertTrue(plan.tree.contains("SEARCH stop_words USING PRIMARY KEY (word>? AND word<?)"), plan.tree)
                XCTAssertFalse(prepared.sql.contains("LIKE"), prepared.sql)
            }
        }
    }
}
