import XCTest
import FetchRequest
import TestSupport
@testable import GTFS

final class StopSearchTests: XCTestCase {
    private var directory: TemporaryDirectory!
    /// The directories of the databases tests make for themselves, removed with the test.
    private var others: [TemporaryDirectory] = []
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
        others = []
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

    func testPlanSearchesIndexesAndNeverScansOrSorts() throws {
        for text in ["gorli", "bahnhof gor", "a b c"] {
            for platforms in [false, true] {
                for part in StopSearchQuery.Part.allCases {
                    var query = try StopSearchQuery(text: text)
                    query.platforms = platforms
                    let prepared = try query.prepared(part: part)
                    let plan = try database.queryPlan(prepared)
                    XCTAssertEqual(plan.fullyScannedTables, [], plan.tree)
                    XCTAssertTrue(plan.tree.contains("SEARCH stop_name_prefixes USING PRIMARY KEY (prefix=?"), plan.tree)
                    XCTAssertTrue(plan.tree.contains("SEARCH stops USING INTEGER PRIMARY KEY (rowid=?)"), plan.tree)
                    XCTAssertFalse(plan.tree.contains("TEMP B-TREE"), "the key gives the listing order: \(plan.tree)")
                    XCTAssertFalse(prepared.sql.contains("LIKE"), prepared.sql)
                }
            }
        }
        let first = try database.queryPlan(try StopSearchQuery(text: "gorli").prepared(part: .namesStartingWithText))
        XCTAssertTrue(first.tree.contains("(prefix=? AND shown_name>? AND shown_name<?)"), first.tree)
    }

    /// A separate database of `stops` (lines of stops.txt after its header) and the fixture's
    /// three stops that its trip serves.
    private func searchable(_ stops: String) throws -> TransitDatabase {
        let directory = TemporaryDirectory()
        others.append(directory)
        let header = "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n"
        let served = "S1,First,52.5,13.4,0,\nS2,Second,52.51,13.41,0,\nS3,Third,52.52,13.42,0,\n"
        let feed = try FeedFixture().with("stops.txt", header + served + stops).write(to: directory)
        try Importer(feedPath: feed, databasePath: directory.file("db.sqlite")).run()
        return try TransitDatabase(path: directory.file("db.sqlite"))
    }

    private func search(_ text: String, in transit: TransitDatabase, platforms: Bool = false, limit: Int = 20) throws -> [String] {
        var query = try StopSearchQuery(text: text)
        query.platforms = platforms
        query.limit = limit
        return try query.run(on: transit).map(\.stopID)
    }

    func testWordsLongerThanTheStoredPrefixesAreMatchedWhole() throws {
        let transit = try searchable("""
            D,Donaudampfschifffahrtsgesellschaft Kai,48.2,16.4,0,
            E,Donaudampfschifffahrt,48.2,16.4,0,
            K,Kai Donaudampfschifffahrtsgesellschaftskapitän,48.2,16.4,0,

            """)
        XCTAssertEqual(try search("donau", in: transit), ["E", "D", "K"])
        XCTAssertEqual(try search("donaudampfschifff", in: transit), ["E", "D", "K"], "17 letters: one more than stored")
        XCTAssertEqual(try search("donaudampfschifffahrtsgesellschaft", in: transit), ["D", "K"])
        XCTAssertEqual(try search("donaudampfschifffahrtsgesellschafts", in: transit), ["K"])
        XCTAssertEqual(try search("kai donaudampfschifffahrtsgesellschaft", in: transit), ["K", "D"], "a long word filters too")
        XCTAssertEqual(try search("donaudampfschifffahrtsgesellschaftx", in: transit), [])
        let long = try transit.database.queryPlan(try StopSearchQuery(text: "donaudampfschifffahrtsgesellschaft").prepared(part: .otherNames))
        XCTAssertTrue(long.tree.contains("SEARCH stop_name_prefixes USING PRIMARY KEY (prefix>? AND prefix<?)"), long.tree)
        XCTAssertEqual(long.fullyScannedTables, [], long.tree)
    }

    func testAStationFoundThroughSeveralOfItsStopsCountsOnceTowardsTheLimit() throws {
        let transit = try searchable("""
            A,Alpha,52.5,13.4,1,
            A1,Alpha Gleis 1,52.5,13.4,0,A
            A2,Alpha Gleis 2,52.5,13.4,0,A
            AE,Alpha Gleis Eingang,52.5,13.4,2,A
            B,Beta Gleis,52.5,13.4,0,
            C,Gamma Gleis,52.5,13.4,0,

            """)
        XCTAssertEqual(try search("gleis", in: transit, limit: 2), ["A", "B"])
        XCTAssertEqual(try search("gleis", in: transit, limit: 0), ["A", "B", "C"])
        XCTAssertEqual(try search("gleis", in: transit, platforms: true, limit: 0), ["A1", "A2", "B", "C"])
        XCTAssertEqual(try search("alpha gleis", in: transit), ["A"])
        XCTAssertEqual(try search("alpha gleis", in: transit, platforms: true), ["A1", "A2"])
        XCTAssertEqual(try search("alpha", in: transit, limit: 1), ["A"])
    }

    func testEachStopComesOnceEvenWhenTwoOfItsWordsShareThePrefix() throws {
        let transit = try searchable("""
            P,Parkstraße Park,52.5,13.4,0,
            Q,Am Park,52.5,13.4,0,

            """)
        XCTAssertEqual(try search("par", in: transit), ["P", "Q"])
        XCTAssertEqual(try search("park", in: transit, limit: 1), ["P"])
    }

    func testTheSecondPartIsReadOnlyWhileTheListingHasRoom() throws {
        var statements = 0
        database.observer = { _ in statements += 1 }
        defer { database.observer = nil }
        XCTAssertEqual(try search("tierpark", limit: 3), ["T0", "T1", "T2"])
        XCTAssertEqual(statements, 1, "three names start with the text")
        XCTAssertEqual(try search("tierpark"), ["T0", "T1", "T2", "T4", "T3"])
        XCTAssertEqual(statements, 3)
    }
}
