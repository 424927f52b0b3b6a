import TestSupport
import XCTest
@testable import FetchRequest

/// Golden SQL for the cases that are easy to get wrong, each also run on SQLite.
final class SQLGenerationTests: XCTestCase {
    private var fixture: FixtureDatabase!

    override func setUpWithError() throws { fixture = try FixtureDatabase() }
    override func tearDown() { fixture = nil }

    private func whereClause(_ predicate: SQLPredicate) -> (String, [SQLValue]) {
        let (sql, arguments) = fixture.sql(Query(table: "station").select(Column("name")).filter(predicate))
        return (String(sql.dropFirst("SELECT \"name\" FROM \"station\" WHERE ".count)), arguments)
    }

    private func names(_ predicate: SQLPredicate) throws -> [String] {
        try fixture.names(FetchRequest<Station>().filter(predicate).sorted(by: [Column("id").ascending]))
    }

    func testIdentifiersAreQuotedAndValuesAreBound() {
        let (sql, arguments) = fixture.sql(Query(table: "odd \"table\"").select(Column("we\"ird", of: "odd \"table\"")).filter(Column("x") == "'; DROP TABLE x; --"))
        assertEqualSQL(sql, #"SELECT "odd ""table"""."we""ird" FROM "odd ""table""" WHERE "x" = ?"#)
        XCTAssertEqual(arguments, [.text("'; DROP TABLE x; --")])
    }

    func testOrInsideAndKeepsItsParentheses() throws {
        let predicate = Column("riders") > 100 && (Column("line") == 1 || Column("line").isNull)
        let (sql, arguments) = whereClause(predicate)
        assertEqualSQL(sql, #""riders" > ? AND ("line" = ? OR "line" IS NULL)"#)
        XCTAssertEqual(arguments, [.integer(100), .integer(1)])
        XCTAssertEqual(try names(predicate), ["Bahnhof Zoo", "Łazienki"])
        // Without the parentheses SQL would read it as (riders > 100 AND line = 1) OR line IS NULL.
        let other = (Column("riders") > 100 && Column("line") == 1) || Column("line").isNull
        assertEqualSQL(whereClause(other).0, #"("riders" > ? AND "line" = ?) OR "line" IS NULL"#)
    }

    func testNotOverACompoundAndOverASubquery() throws {
        let notBoth = !(Column("line") == 2 && Column("riders") > 500)
        XCTAssertEqual(whereClause(notBoth).0, #"NOT ("line" = ? AND "riders" > ?)"#)
        // Łazienki has no line: NULL = 2 is NULL, but NULL AND FALSE is FALSE, so NOT (…) holds.
        XCTAssertEqual(try names(notBoth), ["alte Münze", "Bahnhof Zoo", "50%_off \"Mall\"", "Łazienki", "Zwickau", "Ńowy"])
        let neverVisited = !Station.visits.exists()
        XCTAssertEqual(whereClause(neverVisited).0,
                       #"NOT (EXISTS (SELECT 1 FROM "visit" WHERE "visit"."station" = "station"."id"))"#)
        XCTAssertEqual(try names(neverVisited), ["50%_off \"Mall\"", "Ńowy"])
        assertEqualSQL(whereClause(!(!Column("line").isNull)).0, #""line" IS NULL"#, "double negation cancels")
    }

    func testBeginsWithIsARangeWithTheRightSuccessor() throws {
        let (sql, arguments) = whereClause(Column("name").beginsWith("Al"))
        assertEqualSQL(sql, #""name" >= ? AND "name" < ?"#)
        XCTAssertEqual(arguments, [.text("Al"), .text("Am")])
        XCTAssertEqual(try names(Column("name").beginsWith("Al")), ["Alexanderplatz"], "case-sensitive, like BINARY")
        XCTAssertEqual(SQLPredicate.successor(of: "az"), "a{")
        XCTAssertEqual(SQLPredicate.successor(of: "zz"), "z{")
        XCTAssertEqual(SQLPredicate.successor(of: "ł"), "Ń", "U+0142 → U+0143")
        XCTAssertEqual(SQLPredicate.successor(of: "a\u{D7FF}"), "a\u{E000}", "skips the surrogates")
        XCTAssertEqual(SQLPredicate.successor(of: "a\u{10FFFF}"), "b", "the largest scalar carries over")
        XCTAssertNil(SQLPredicate.successor(of: "\u{10FFFF}\u{10FFFF}"))
        XCTAssertNil(SQLPredicate.successor(of: ""))
        XCTAssertEqual(try names(Column("name").beginsWith("Ł")), ["Łazienki"], "non-ASCII prefix")
        assertEqualSQL(whereClause(Column("name").beginsWith("\u{10FFFF}")).0, #""name" >= ?"#, "no upper bound when none exists")
        let plan = try fixture.database.queryPlan(SQLGenerator.prepare(Query(table: "station").select(Column("name")).filter(Column("name").beginsWith("Al"))))
        XCTAssertTrue(plan.tree.contains("SEARCH station USING COVERING INDEX station_by_name (name>? AND name<?)"), plan.tree)
    }

    func testContainsEscapesLikeWildcards() throws {
        let (sql, arguments) = whereClause(Column("name").contains("50%_off"))
        assertEqualSQL(sql, #""name" LIKE ? ESCAPE '\'"#)
        XCTAssertEqual(arguments, [.text(#"%50\%\_off%"#)])
        XCTAssertEqual(try names(Column("name").contains("50%_off")), ["50%_off \"Mall\""])
        XCTAssertEqual(try names(Column("name").contains("%")), ["50%_off \"Mall\""], "% matches only itself")
        XCTAssertEqual(try names(Column("name").contains("\"mall\"")), ["50%_off \"Mall\""], "LIKE ignores ASCII case")
        XCTAssertEqual(try names(Column("name").like("%o_")), ["Bahnhof Zoo"], "like() keeps the caller's wildcards")
    }

    func testComparisonsBetweenInAndNull() throws {
        XCTAssertEqual(try names(Column("riders").between(100, and: 700)), ["alte Münze", "Bahnhof Zoo", "Łazienki"])
        XCTAssertEqual(try names(Column("line").isIn([1, 3])), ["Bahnhof Zoo", "50%_off \"Mall\"", "Zwickau", "Ńowy"])
        XCTAssertEqual(try names(Column("line").isIn([Int]())), [], "an empty list matches nothing")
        XCTAssertEqual(whereClause(Column("line").isIn([Int]())).0, "0")
        XCTAssertEqual(try names(Column("line") == nil as Int?), ["Łazienki"])
        XCTAssertEqual(try names(Column("line").isNot(2)), ["Bahnhof Zoo", "50%_off \"Mall\"", "Łazienki", "Zwickau", "Ńowy"])
        let redLines = Query(table: "line").select(Column("id")).filter(Column("color") == "red")
        assertEqualSQL(whereClause(Column("line").isIn(redLines)).0, #""line" IN (SELECT "id" FROM "line" WHERE "color" = ?)"#)
        XCTAssertEqual(try names(Column("line").isIn(redLines)), ["Alexanderplatz", "alte Münze"])
    }

    func testRelationshipSubqueriesExistsAndCount() throws {
        let busy = Station.visits.count(.greaterOrEqual, 3)
        XCTAssertEqual(whereClause(busy).0, #"(SELECT COUNT(*) FROM "visit" WHERE "visit"."station" = "station"."id") >= ?"#)
        XCTAssertEqual(try names(busy), ["Alexanderplatz", "Bahnhof Zoo"])
        let lateVisit = Station.visits.exists(where: Column("minute", of: "visit") > 50)
        XCTAssertEqual(try names(lateVisit), ["Alexanderplatz", "Zwickau"], "visits at 55 and 60 minutes")
        XCTAssertEqual(try names(Station.visits.count(where: Column("minute", of: "visit") < 30, .equal, 0)),
                       ["50%_off \"Mall\"", "Łazienki", "Zwickau", "Ńowy"])
    }

    func testSortDescriptorsAppendAndTakeCollations() throws {
        let byLineThenRiders = Column("line").descending + Column("riders").ascending
        var request = FetchRequest<Station>().sorted(by: byLineThenRiders + Column("id").ascending)
        XCTAssertEqual(request.prepare().sql.hasSuffix(#"ORDER BY "line" DESC, "riders", "id""#), true, request.prepare().sql)
        XCTAssertEqual(try fixture.names(request), ["Zwickau", "Ńowy", "alte Münze", "Alexanderplatz", "50%_off \"Mall\"", "Bahnhof Zoo", "Łazienki"])
        request = FetchRequest<Station>().filter(Column("name").isIn(["alte Münze", "Alexanderplatz", "Bahnhof Zoo"]))
            .sorted(by: [SortDescriptor(Column("name"), collation: .noCase)])
        XCTAssertTrue(request.prepare().sql.hasSuffix(#"ORDER BY "name" COLLATE NOCASE"#))
        XCTAssertEqual(try fixture.names(request), ["Alexanderplatz", "alte Münze", "Bahnhof Zoo"])
        request.sortDescriptors = [Column("name").ascending]
        XCTAssertEqual(try fixture.names(request), ["Alexanderplatz", "Bahnhof Zoo", "alte Münze"], "BINARY puts lowercase last")
    }

    /// Visits from minute 10 joined to their station's name, by minute then name, at most `limit`:
    /// the visits a derived table, its first rows by minute marked for a server.
    private func visitsWithStationNames(limit: Int) -> Query {
        var visits = Query(table: "visit").select(Column("minute", of: "visit"), Column("station", of: "visit"))
            .filter(Column("minute", of: "visit") >= 10)
        visits.firstRowsKey = Column("minute", of: "visit")
        return Query(rowsOf: visits, as: "visit")
            .joining(Join(table: "station", on: Column("id", of: "station") == Column("station", of: "visit")))
            .select(Column("name", of: "station"), Column("minute", of: "visit"))
            .sorted(by: [Column("minute", of: "visit").ascending, Column("name", of: "station").ascending])
            .limited(to: limit)
    }

    func testADerivedTableIsReadAsATableAndItsFirstRowsMarkIsAComment() throws {
        let (sql, arguments) = fixture.sql(visitsWithStationNames(limit: 3))
        assertEqualSQL(sql, #"SELECT "station"."name", "visit"."minute" FROM (SELECT "visit"."minute", "visit"."station" FROM "visit" WHERE "visit"."minute" >= ? /* first rows by "visit"."minute" */) AS "visit" JOIN "station" ON "station"."id" = "visit"."station" ORDER BY "visit"."minute", "station"."name" LIMIT ?"#)
        XCTAssertEqual(arguments, [.integer(10), .integer(3)])
        // SQLite reads past the mark: the rows are the join's, in order, cut at the limit.
        let integer = { (value: SQLValue) -> Int64 in if case .integer(let number) = value { return number }; return -1 }
        let text = { (value: SQLValue) -> String in if case .text(let string) = value { return string }; return "" }
        let expected = FixtureDatabase.visits.filter { integer($0[2]) >= 10 }.map { visit in
            "\(text(FixtureDatabase.stations.first { integer($0[0]) == integer(visit[1]) }![1])) \(integer(visit[2]))"
        }
        var rows: [String] = []
        try fixture.database.forEachRow(SQLGenerator.prepare(visitsWithStationNames(limit: 3))) { rows.append("\($0.string(0)) \($0.int(1))") }
        XCTAssertEqual(rows, Array(expected.prefix(3)))
    }

    func testLimitAndOffset() throws {
        var request = FetchRequest<Station>().sorted(by: [Column("id").ascending])
        request.fetchLimit = 2
        request.fetchOffset = 3
        XCTAssertTrue(request.prepare().sql.hasSuffix("LIMIT ? OFFSET ?"))
        XCTAssertEqual(request.prepare().arguments, [.integer(2), .integer(3)])
        XCTAssertEqual(try fixture.names(request), ["50%_off \"Mall\"", "Łazienki"])
        request.fetchLimit = 0
        XCTAssertTrue(request.prepare().sql.hasSuffix("LIMIT -1 OFFSET ?"))
        XCTAssertEqual(try fixture.database.fetch(request).count, 4)
    }
}
