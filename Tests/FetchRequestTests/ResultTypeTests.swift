import TestSupport
import XCTest
@testable import FetchRequest

/// Result types, aggregates, batching, prefetching, templates, explain and errors, on SQLite.
final class ResultTypeTests: XCTestCase {
    private var fixture: FixtureDatabase!
    private var executed: [ExecutedRequest] = []

    override func setUpWithError() throws {
        fixture = try FixtureDatabase()
        executed = []
        fixture.database.observer = { [unowned self] in executed.append($0) }
    }

    override func tearDown() { fixture = nil }

    func testCountRunsCountAndFetchesNothing() throws {
        let request = FetchRequest<Station>().filter(Column("riders") > 100)
        XCTAssertEqual(try fixture.database.count(request), 4)
        XCTAssertEqual(executed.map(\.request.sql), [#"SELECT COUNT(*) FROM "station" WHERE "riders" > ?"#])
        XCTAssertEqual(executed.first?.rowCount, 1)
        XCTAssertEqual(try fixture.database.count(request.limited(to: 2)), 2, "a limited request counts what a fetch returns")
    }

    func testDictionariesOfSelectedPropertiesAndIdentifiers() throws {
        let query = Query(table: "station").select([SelectedProperty(Column("name")), SelectedProperty(Column("riders") * 2, as: "doubled")])
            .filter(Column("line") == 2).sorted(by: [Column("id").ascending])
        XCTAssertEqual(try fixture.database.fetchDictionaries(query), [
            ["name": .text("Alexanderplatz"), "doubled": .integer(1800)],
            ["name": .text("alte Münze"), "doubled": .integer(300)],
        ])
        XCTAssertEqual(try fixture.database.fetchIdentifiers(FetchRequest<Station>().filter(Column("line") == 3)).sorted(), [6, 7])
        assertEqualSQL(executed.last?.request.sql ?? "", #"SELECT "station"."id" FROM "station" WHERE "line" = ?"#)
    }

    func testAggregatesGroupByAndHaving() throws {
        // The seed's NSExpressionDescription "sum:" example, grouped, with a having filter.
        let query = Query(table: "station")
            .select([SelectedProperty(Column("line")), SelectedProperty(countAll, as: "stations"),
                     SelectedProperty(Column("riders").sum, as: "total"), SelectedProperty(Column("riders").min, as: "least"),
                     SelectedProperty(Column("riders").max, as: "most"), SelectedProperty(Column("riders").average, as: "mean")])
            .grouped(by: [Column("line")], having: countAll >= .value(2))
            .sorted(by: [Column("line").ascending])
        assertEqualSQL(SQLGenerator.prepare(query).sql,
                       #"SELECT "line", COUNT(*) AS "stations", SUM("riders") AS "total", MIN("riders") AS "least", MAX("riders") AS "most", AVG("riders") AS "mean" FROM "station" GROUP BY "line" HAVING COUNT(*) >= ? ORDER BY "line""#)
        XCTAssertEqual(try fixture.database.fetchDictionaries(query), [
            ["line": .integer(1), "stations": .integer(2), "total": .integer(740), "least": .integer(40), "most": .integer(700), "mean": .real(370)],
            ["line": .integer(2), "stations": .integer(2), "total": .integer(1050), "least": .integer(150), "most": .integer(900), "mean": .real(525)],
            ["line": .integer(3), "stations": .integer(2), "total": .integer(30), "least": .integer(10), "most": .integer(20), "mean": .real(15)],
        ])
        XCTAssertEqual(try fixture.database.count(query), 3, "counting a grouped query counts groups")
    }

    func testBatchesNeverHoldMoreThanTheBatchSize() throws {
        var request = FetchRequest<Visit>().sorted(by: [Column("id").ascending])
        request.fetchBatchSize = 5
        var sizes: [Int] = []
        var ids: [Int] = []
        try fixture.database.forEachBatch(request) { batch in
            sizes.append(batch.count)
            ids += batch.map(\.id)
        }
        XCTAssertEqual(sizes, [5, 5, 2])
        XCTAssertEqual(ids, Array(1...12))
        XCTAssertEqual(executed.count, 1, "one statement, stepped through")
    }

    func testReadingRowsStopsWhereTheCallerSaysAndTheStatementRunsAgain() throws {
        let request = SQLGenerator.prepare(Query(table: "visit").select(Column("id")).sorted(by: [Column("id").ascending]))
        var ids: [Int] = []
        try fixture.database.readRows(request, while: { row in
            ids.append(row.int("id"))
            return ids.count < 3
        })
        XCTAssertEqual(ids, [1, 2, 3])
        XCTAssertEqual(executed.last?.rowCount, 3, "the observer counts the rows read")
        var all = 0
        try fixture.database.forEachRow(request) { _ in all += 1 }
        XCTAssertGreaterThan(all, 3, "the cached statement was reset, not left at row 3")
    }

    func testPrefetchingIsOneQueryPerRelationship() throws {
        let request = FetchRequest<Station>().filter(Column("riders") >= 100)
        let stations = try fixture.database.fetch(request)
        let lines = try fixture.database.fetchRelated(Station.lineOf, of: request)
        let visits = try fixture.database.fetchRelated(Station.visits, of: request)
        XCTAssertEqual(executed.count, 3, "the stations, then one query per relationship")
        XCTAssertEqual(stations.map { $0.line.flatMap { lines[.integer(Int64($0))]?.first?.name } }, ["U2", "U2", "U1", nil])
        XCTAssertEqual(stations.map { visits[.integer(Int64($0.id))]?.count ?? 0 }, [5, 2, 3, 1])
        assertEqualSQL(executed[1].request.sql,
                       #"SELECT "line"."id", "line"."name", "line"."color", "line"."id" AS "prefetch_key" FROM "line" WHERE "line"."id" IN (SELECT "station"."line" FROM "station" WHERE "riders" >= ?)"#)
    }

    func testTemplatesBindNewValuesToTheSameStatement() throws {
        let library = TemplateLibrary()
        library.register(Query(table: "station").select(Column("name")).filter(Column("riders") > .variable("min"))
            .sorted(by: [Column("riders").descending]), as: "busierThan")
        let template = try XCTUnwrap(library.template(named: "busierThan"))
        XCTAssertEqual(template.variableNames, ["min"])
        let first = try library.request(named: "busierThan", substituting: ["min": 500])
        let second = try library.request(named: "busierThan", substituting: ["min": 100])
        XCTAssertEqual(first.sql, second.sql)
        var names: [String] = []
        try fixture.database.forEachRow(first) { names.append($0.string(0)) }
        XCTAssertEqual(names, ["Alexanderplatz", "Bahnhof Zoo"])
        let statement = try fixture.database.cachedStatement(first.sql)
        names = []
        try fixture.database.forEachRow(second) { names.append($0.string(0)) }
        XCTAssertEqual(names.count, 4)
        XCTAssertTrue(statement === (try fixture.database.cachedStatement(second.sql)), "prepared once, reused")
        XCTAssertThrowsError(try library.request(named: "busierThan", substituting: [:])) { error in
            XCTAssertEqual(error as? RequestError, .missingSubstitutionVariable(name: "min"))
        }
        XCTAssertThrowsError(try library.request(named: "nope", substituting: [:])) { error in
            XCTAssertEqual(error as? RequestError, .unknownTemplate(name: "nope"))
        }
        XCTAssertEqual(try template.binding([.integer(800)]).arguments, [.integer(800)])
    }

    func testExplainDrawsThePlanAndFlagsFullScans() throws {
        _ = try fixture.database.fetch(FetchRequest<Station>().filter(Column("riders") > 100))
        let scan = try XCTUnwrap(executed.last)
        XCTAssertEqual(scan.plan.tree, "QUERY PLAN\n`--SCAN station")
        XCTAssertEqual(scan.plan.fullyScannedTables, ["station"])
        XCTAssertEqual(scan.rowCount, 4)
        XCTAssertGreaterThan(scan.seconds, 0)
        _ = try fixture.database.fetch(FetchRequest<Station>().filter(Column("name") == "Zwickau"))
        XCTAssertEqual(executed.last?.plan.fullyScannedTables, [])
        let nested = QueryPlan(steps: [.init(id: 2, parent: 0, detail: "SEARCH a"), .init(id: 3, parent: 2, detail: "SEARCH b"),
                                       .init(id: 4, parent: 2, detail: "SCAN c"), .init(id: 5, parent: 0, detail: "USE TEMP B-TREE FOR ORDER BY")])
        XCTAssertEqual(nested.tree, "QUERY PLAN\n|--SEARCH a\n|  |--SEARCH b\n|  `--SCAN c\n`--USE TEMP B-TREE FOR ORDER BY")
    }

    func testErrorsSayWhichSQLFailed() throws {
        XCTAssertThrowsError(try fixture.database.fetchDictionaries(Query(table: "nowhere"))) { error in
            let databaseError = error as? DatabaseError
            XCTAssertEqual(databaseError?.code, 1)
            XCTAssertEqual(databaseError?.description, #"SQLite error 1: no such table: nowhere - while executing `SELECT * FROM "nowhere"`"#)
        }
        let statement = try fixture.database.makeStatement(#"SELECT * FROM "station" WHERE "id" = ?"#)
        XCTAssertThrowsError(try statement.bind([.integer(1), .integer(2)])) { error in
            XCTAssertEqual(error as? RequestError, .argumentCountMismatch(sql: #"SELECT * FROM "station" WHERE "id" = ?"#, expected: 1, given: 2))
        }
    }

    func testReadOnlyConnectionsCannotWrite() throws {
        let readOnly = try Database(path: fixture.directory.file("test.sqlite"), mode: .readOnly)
        XCTAssertThrowsError(try readOnly.execute(#"DELETE FROM "station""#)) { error in
            XCTAssertEqual((error as? DatabaseError).map { $0.code & 0xFF }, 8, "SQLITE_READONLY")
        }
        XCTAssertThrowsError(try Database(path: fixture.directory.file("missing.sqlite"), mode: .readOnly))
    }

    func testBatchInsertInsertsPartialLastBatchesAndCountsIgnoredRows() throws {
        let table = TableDefinition("pair", columns: [.init("a", .integer), .init("b", .text)], primaryKey: ["a"], withoutRowID: true)
        try fixture.database.execute(table.sql)
        for background in [false, true] {
            try fixture.database.execute(#"DELETE FROM "pair""#)
            let insert = try BatchInsert(fixture.database, into: table, orIgnore: true, rowsPerStatement: 4, background: background)
            for index in [1, 2, 3, 2, 5, 6, 7, 8, 9, 1, 11] {
                insert.set(0, integer: Int64(index))
                insert.set(1, text: "row \(index)")
                try insert.endRow()
            }
            try insert.finish()
            XCTAssertEqual(insert.rowsIgnored, 2, "background \(background)")
            XCTAssertEqual(try fixture.database.count(Query(table: "pair")), 9, "background \(background)")
        }
    }

    func testBatchInsertFailsAtABrokenKeyWithoutAStatementJournal() throws {
        let table = TableDefinition("pair", columns: [.init("a", .integer), .init("b", .text)], primaryKey: ["a"], withoutRowID: true)
        // OR FAIL: SQLite keeps no statement journal for a multi-row insert; the caller rolls back.
        XCTAssertEqual(table.insertSQL(orFail: true, rows: 2), #"INSERT OR FAIL INTO "pair" ("a", "b") VALUES (?, ?), (?, ?)"#)
        try fixture.database.execute(table.sql)
        let insert = try BatchInsert(fixture.database, into: table, rowsPerStatement: 4)
        XCTAssertThrowsError(try {
            for index in [1, 2, 3, 4, 5, 5, 7, 8] {
                insert.set(0, integer: Int64(index))
                insert.set(1, text: "row \(index)")
                try insert.endRow()
            }
            try insert.finish()
        }()) { error in
            XCTAssertEqual((error as? DatabaseError).map { $0.code & 0xFF }, 19, "SQLITE_CONSTRAINT")
        }
        insert.cancel()
    }
}
