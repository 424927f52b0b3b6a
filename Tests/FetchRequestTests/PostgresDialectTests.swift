import XCTest
@testable import FetchRequest

/// The SQL the generator writes, said in PostgreSQL's dialect (`PostgresStatementText`): each
/// difference on a statement the generator really writes.
final class PostgresDialectTests: XCTestCase {
    private func translated(_ sql: String) throws -> String { try PostgresStatementText(translating: sql).sql }

    func testPlaceholdersAreNumberedInOrderAndQuestionMarksInsideQuotesAreLeftAlone() throws {
        XCTAssertEqual(try translated(#"SELECT "a?" FROM "t" WHERE "x" = ? AND "y" = '?' AND "z" BETWEEN ? AND ?"#),
                       #"SELECT "a?" FROM "t" WHERE "x" = $1 AND "y" = '?' AND "z" BETWEEN $2 AND $3"#)
    }

    func testIsAndIsNotCompareValuesAsInSQLite() throws {
        XCTAssertEqual(try translated(#"SELECT 1 FROM "t" WHERE "p" IS NOT ? AND "q" IS ? AND "r" IS NULL AND "s" IS NOT NULL"#),
                       #"SELECT 1 FROM "t" WHERE "p" IS DISTINCT FROM $1 AND "q" IS NOT DISTINCT FROM $2 AND "r" IS NULL AND "s" IS NOT NULL"#)
        XCTAssertEqual(try translated(#"SELECT 1 FROM "t" WHERE ("a" = ?) IS NOT 1"#), #"SELECT 1 FROM "t" WHERE ("a" = $1) IS NOT TRUE"#)
    }

    func testEveryOrderingKeyPutsNullFirstAsSQLiteDoes() throws {
        XCTAssertEqual(try translated(#"SELECT "a" FROM "t" ORDER BY COUNT(*) DESC, "b", COALESCE("c", "d") LIMIT ?"#),
                       #"SELECT "a" FROM "t" ORDER BY COUNT(*) DESC NULLS LAST, "b" NULLS FIRST, COALESCE("c", "d") NULLS FIRST LIMIT $1"#)
        XCTAssertEqual(try translated(#"SELECT "a" FROM "t" WHERE "a" IN (SELECT "b" FROM "u" ORDER BY "b" LIMIT ?) ORDER BY "a""#),
                       #"SELECT "a" FROM "t" WHERE "a" IN (SELECT "b" FROM "u" ORDER BY "b" NULLS FIRST LIMIT $1) ORDER BY "a" NULLS FIRST"#)
    }

    func testADistinctSubqueryOfAnInIsReadOnceIntoAnArrayAndAListOfConstantsIsLeftAlone() throws {
        XCTAssertEqual(try translated(#"SELECT "a" FROM "t" WHERE "a" IN (SELECT DISTINCT ("b" - ?) AS "b" FROM "u" WHERE "c" = ?) AND "d" = ?"#),
                       #"SELECT "a" FROM "t" WHERE "a" = ANY(ARRAY(SELECT DISTINCT ("b" - $1) AS "b" FROM "u" WHERE "c" = $2)) AND "d" = $3"#)
        XCTAssertEqual(try translated(#"SELECT "a" FROM "t" WHERE "a" NOT IN (SELECT DISTINCT "b" FROM "u") ORDER BY "a""#),
                       #"SELECT "a" FROM "t" WHERE "a" <> ALL(ARRAY(SELECT DISTINCT "b" FROM "u")) ORDER BY "a" NULLS FIRST"#)
        XCTAssertEqual(try translated(#"SELECT "a" FROM "t" WHERE "a" IN (SELECT "b" FROM "u") AND "c" IN (1, 2)"#),
                       #"SELECT "a" FROM "t" WHERE "a" IN (SELECT "b" FROM "u") AND "c" IN (1, 2)"#)
    }

    func testAListOfValuesIsOneArrayParameterSoOneStatementServesEveryLength() throws {
        let text = try PostgresStatementText(translating: #"SELECT 1 FROM "t" WHERE "a" = ? AND "b" IN (?, ?, ?) AND ("c" + ?) NOT IN (?) AND "d" GLOB ?"#)
        XCTAssertEqual(text.sql, #"SELECT 1 FROM "t" WHERE "a" = $1 AND "b" = ANY($2) AND ("c" + $3) <> ALL($4) AND "d" LIKE $5 ESCAPE '\'"#)
        XCTAssertEqual(text.sources, [.value, .list(count: 3), .value, .list(count: 1), .value])
        XCTAssertEqual(text.argumentCount, 7)
        // The GLOB pattern is the text's seventh value, though the server's fifth parameter.
        XCTAssertEqual(text.globArguments, [6])
        // A placeholder before IN keeps its list: the server could not tell its type from an array's.
        XCTAssertEqual(try translated(#"SELECT 1 FROM "t" WHERE ? IN (?, ?)"#), #"SELECT 1 FROM "t" WHERE $1 IN ($2, $3)"#)
        XCTAssertEqual(try PostgresStatementText(translating: #"SELECT 1 FROM "t" WHERE ? IN (?, ?)"#).sources, [.value, .value, .value])
    }

    func testADerivedTableIsNamedAndNoLimitIsLimitAll() throws {
        XCTAssertEqual(try translated(#"SELECT COUNT(*) FROM (SELECT "a" FROM "t" LIMIT -1 OFFSET ?)"#),
                       #"SELECT COUNT(*) FROM (SELECT "a" FROM "t" LIMIT ALL OFFSET $1) AS "derived""#)
    }

    func testTheFirstRowsOfADerivedTableAreFetchedWithTiesUpToTheStatementsLimit() throws {
        let derived = #"SELECT "a"."k", "b"."n" FROM (SELECT "t"."k", "t"."b" FROM "t" WHERE "t"."x" = ? /* first rows by "t"."k" */) AS "a" JOIN "b" ON "b"."id" = "a"."b" ORDER BY "a"."k", "b"."n""#
        let limited = try PostgresStatementText(translating: derived + " LIMIT ?")
        XCTAssertEqual(limited.sql, #"SELECT "a"."k", "b"."n" FROM (SELECT "t"."k", "t"."b" FROM "t" WHERE "t"."x" = $1 ORDER BY "t"."k" NULLS FIRST FETCH FIRST $2 ROWS WITH TIES) AS "a" JOIN "b" ON "b"."id" = "a"."b" ORDER BY "a"."k" NULLS FIRST, "b"."n" NULLS FIRST LIMIT $2"#)
        // SQLite's "no limit" (a negative one) is given to the server as the largest bigint.
        XCTAssertEqual(limited.limitArguments, [1])
        // Without a limit every row can be listed: nothing is cut.
        XCTAssertEqual(try translated(derived), #"SELECT "a"."k", "b"."n" FROM (SELECT "t"."k", "t"."b" FROM "t" WHERE "t"."x" = $1 ) AS "a" JOIN "b" ON "b"."id" = "a"."b" ORDER BY "a"."k" NULLS FIRST, "b"."n" NULLS FIRST"#)
        // Any other comment stays as it is.
        XCTAssertEqual(try translated(#"/* planned once */ SELECT "a" FROM "t" LIMIT ?"#), #"/* planned once */ SELECT "a" FROM "t" LIMIT $1"#)
    }

    func testLikeIgnoresTheCaseOfASCIIAndGlobBecomesLikeWithItsPatternRewritten() throws {
        let text = try PostgresStatementText(translating: #"SELECT 1 FROM "t" WHERE "a" LIKE ? ESCAPE '\' AND "b" GLOB ?"#)
        XCTAssertEqual(text.sql, #"SELECT 1 FROM "t" WHERE "a" ILIKE $1 ESCAPE '\' AND "b" LIKE $2 ESCAPE '\'"#)
        XCTAssertEqual(text.globArguments, [1])
        XCTAssertEqual(try PostgresStatementText.globToLike("*Stra?e[*]50%_"), #"%Stra_e*50\%\_"#)
        XCTAssertThrowsError(try PostgresStatementText.globToLike("[a-z]*"))
    }

    func testTheFileSchemaTableIsTheOneTheImportKeeps() throws {
        XCTAssertEqual(try translated(#"SELECT COUNT(*) FROM "sqlite_master" WHERE "sqlite_master"."name" = ?"#),
                       #"SELECT COUNT(*) FROM "sqlite_schema" WHERE "sqlite_schema"."name" = $1"#)
    }

    func testAnInsertThatIgnoresATakenKeySaysSoAtItsEnd() throws {
        let table = TableDefinition("t", columns: [.init("a", .integer), .init("b", .text)], primaryKey: ["a"])
        XCTAssertEqual(try translated(table.insertSQL(orIgnore: true)), #"INSERT INTO "t" ("a", "b") VALUES ($1, $2) ON CONFLICT DO NOTHING"#)
        XCTAssertEqual(try translated(table.insertSQL(orFail: true)), #"INSERT INTO "t" ("a", "b") VALUES ($1, $2)"#)
        XCTAssertEqual(try translated(table.insertSQL()), #"INSERT INTO "t" ("a", "b") VALUES ($1, $2)"#)
    }

    func testWhatIsNotTranslatedIsRefusedWithItsName() throws {
        XCTAssertThrowsError(try translated(#"SELECT TOTAL("a") FROM "t""#)) { error in
            XCTAssertTrue("\(error)".hasPrefix("SQLite's TOTAL() does not run on a PostgreSQL server yet"), "\(error)")
        }
        // Text folding runs there: the publisher defines `fetch_fold` (TextFolds).
        XCTAssertEqual(try translated(#"SELECT 1 FROM "t" WHERE fetch_fold("a", 3) = ?"#), #"SELECT 1 FROM "t" WHERE fetch_fold("a", 3) = $1"#)
    }

    func testTheGeneratorsOwnRequestsTranslate() throws {
        // A request of the generator, with a filter, a sort and a limit.
        let request = FetchRequest<Station>().filter(Column("name") != "x").sorted(by: [Column("riders").descending]).limited(to: 3)
        XCTAssertEqual(try translated(request.prepare().sql),
                       #"SELECT "station"."id", "station"."name", "station"."line", "station"."riders" FROM "station" WHERE "name" <> $1 ORDER BY "riders" DESC NULLS LAST LIMIT $2"#)
    }
}
