import TestSupport
import XCTest
@testable import FetchRequest

/// Predicate strings over a model of the fixture (lines, stations, visits): the SQL each
/// relationship shape becomes, that every value is bound, the errors with their places, and the
/// answers against rows computed here from the fixture's data.
final class PredicateCompilerTests: XCTestCase {
    private var fixture: FixtureDatabase!

    override func setUpWithError() throws {
        fixture = try FixtureDatabase()
        try fixture.database.register(folding: Self.model.folding)
    }

    override func tearDown() { fixture = nil }

    /// line 1—n station 1—n visit; `clock` is a visit's minute written `M:SS`-free as `Hh MMm`.
    static let model: ObjectModel = {
        typealias A = AttributeDescription
        let clock = AttributeType.converted(form: "a time like 1h05m", read: { text in
            let parts = text.split(separator: "h")
            guard parts.count == 2, let hours = Int(parts[0]), parts[1].hasSuffix("m"), let minutes = Int(parts[1].dropLast()) else { return nil }
            return .integer(Int64(hours * 60 + minutes))
        })
        return ObjectModel(entities: [
            EntityDescription(name: "line", table: "line", attributes: [A("name", .text), A("color", .text)],
                              relationships: [.toMany("stations", "station", to: "line")], naturalOrder: ["id"]),
            EntityDescription(name: "station", table: "station",
                              attributes: [A("name", .text), A("riders", .integer), A("line_name", .text, keyPath: "line.name")],
                              relationships: [.toOne("line", "line", from: "line", identifier: "name"), .toMany("visits", "visit", to: "station")],
                              naturalOrder: ["id"]),
            EntityDescription(name: "visit", table: "visit", attributes: [A("minute", .integer), A("clock", clock, column: "minute")],
                              relationships: [.toOne("station", "station", from: "station", identifier: "name")], naturalOrder: ["id"]),
        ], folding: { text, options in
            var folded = options.contains(.caseInsensitive) ? text.lowercased() : text
            if options.contains(.diacriticInsensitive) {
                let plain: [Character: Character] = ["ł": "l", "Ł": "L", "ń": "n", "Ń": "N", "ü": "u"]
                folded = String(folded.map { plain[$0] ?? $0 })
            }
            return folded
        })
    }()

    // MARK: The fixture's rows, to compute expected answers

    private struct StationRow { let id: Int; let name: String; let line: Int?; let riders: Int }
    private var stations: [StationRow] {
        FixtureDatabase.stations.map { row in
            guard case .integer(let id) = row[0], case .text(let name) = row[1], case .integer(let riders) = row[3] else { fatalError("fixture") }
            var line: Int?
            if case .integer(let value) = row[2] { line = Int(value) }
            return StationRow(id: Int(id), name: name, line: line, riders: Int(riders))
        }
    }
    /// The minutes of each station's visits.
    private func visits(of station: Int) -> [Int] {
        FixtureDatabase.visits.compactMap { row in
            guard case .integer(let at) = row[1], case .integer(let minute) = row[2], Int(at) == station else { return nil }
            return Int(minute)
        }
    }
    private func lineName(_ line: Int?) -> String? {
        FixtureDatabase.lines.first { $0[0] == .integer(Int64(line ?? -1)) }.flatMap { if case .text(let name) = $0[1] { name } else { nil } }
    }

    // MARK: Running

    private struct Result { let sql: String; let arguments: [SQLValue]; let names: [String] }

    private func run(_ entity: String, _ format: String, _ arguments: [PredicateValue] = [], variables: [String: PredicateValue] = [:],
                     sort: String? = nil) throws -> Result {
        var fetch = try XCTUnwrap(ModelFetch(entity: entity, in: Self.model))
        try fetch.filter(format: format, arguments: arguments, variables: variables)
        if let sort { try fetch.sort(by: sort) }
        let query = try fetch.query(selecting: ["name"]).query
        let prepared = SQLGenerator.prepare(query)
        var names: [String] = []
        try fixture.database.forEachRow(prepared) { names.append($0.string(0)) }
        return Result(sql: prepared.sql, arguments: prepared.arguments, names: names)
    }

    private func stationNames(where include: (StationRow) -> Bool) -> [String] {
        stations.filter(include).map(\.name)
    }

    /// The error `format` gives on `entity`.
    private func mistake(_ entity: String, _ format: String, _ arguments: [PredicateValue] = [], variables: [String: PredicateValue] = [:]) -> PredicateFormatError? {
        do {
            _ = try run(entity, format, arguments, variables: variables)
            return nil
        } catch let error as PredicateFormatError {
            return error
        } catch {
            XCTFail("not a PredicateFormatError: \(error)")
            return nil
        }
    }

    // MARK: Relationship shapes

    func testToOneKeyPathsJoinOncePerPathAndKeepRowsWithoutARelation() throws {
        let result = try run("station", "line.name == 'U2' OR line.color == nil")
        assertEqualSQL(result.sql, #"SELECT "station"."name" FROM "station" LEFT JOIN "line" AS "station.line" ON "station.line"."id" = "station"."line" WHERE "station.line"."name" = ? OR "station.line"."color" IS NULL ORDER BY "station"."id""#)
        XCTAssertEqual(result.arguments, [.text("U2")])
        // Łazienki has no line: the left join keeps it, and its line's colour is nil.
        XCTAssertEqual(result.names, stationNames { lineName($0.line) == "U2" || $0.line == nil || $0.line == 3 })
    }

    func testDerivedAttributesAndRelationshipsAsValuesUseTheDestinationsIdentifier() throws {
        let derived = try run("station", "line_name == 'U1'")
        let direct = try run("station", "line == 'U1'")
        XCTAssertEqual(derived.names, stationNames { lineName($0.line) == "U1" })
        XCTAssertEqual(direct.names, derived.names)
        XCTAssertEqual(direct.sql, derived.sql, "both compare line.name through one join")
    }

    func testToManyKeyPathsBecomeCorrelatedExistsForAnyAllNone() throws {
        let any = try run("station", "ANY visits.minute > 50")
        assertEqualSQL(any.sql, #"SELECT "station"."name" FROM "station" WHERE EXISTS (SELECT 1 FROM "visit" AS "station.visits" WHERE "station.visits"."station" = "station"."id" AND "station.visits"."minute" > ?) ORDER BY "station"."id""#)
        XCTAssertEqual(any.names, stationNames { visits(of: $0.id).contains { $0 > 50 } })
        XCTAssertEqual(try run("station", "SOME visits.minute > 50").names, any.names)
        let all = try run("station", "ALL visits.minute >= 20")
        XCTAssertEqual(all.names, stationNames { visits(of: $0.id).allSatisfy { $0 >= 20 } }, "vacuously true without visits")
        XCTAssertTrue(all.sql.contains(#"NOT (EXISTS (SELECT 1 FROM "visit" AS "station.visits" WHERE "station.visits"."station" = "station"."id" AND CASE WHEN "station.visits"."minute" >= ? THEN ? ELSE ? END = ?))"#), all.sql)
        let none = try run("station", "NONE visits.minute < 30")
        XCTAssertEqual(none.names, stationNames { !visits(of: $0.id).contains { $0 < 30 } })
    }

    func testAToManyKeyPathWithoutQuantifierIsAMistakeAtItsPlace() throws {
        let error = try XCTUnwrap(mistake("station", "name == 'x' AND visits.minute > 10"))
        XCTAssertEqual(error.position, 16)
        XCTAssertTrue(error.message.contains("visits is a to-many relationship of station"), error.message)
        XCTAssertTrue(error.message.contains("ANY, ALL or NONE"), error.message)
        XCTAssertTrue(error.description.hasSuffix("\n  name == 'x' AND visits.minute > 10\n                  ^"), error.description)
    }

    func testCountAndAggregatesAreCorrelatedScalarSubqueries() throws {
        let count = try run("station", "visits.@count >= 2")
        assertEqualSQL(count.sql, #"SELECT "station"."name" FROM "station" WHERE (SELECT COUNT(*) FROM "visit" AS "station.visits" WHERE "station.visits"."station" = "station"."id") >= ? ORDER BY "station"."id""#)
        XCTAssertEqual(count.names, stationNames { visits(of: $0.id).count >= 2 })
        XCTAssertEqual(try run("station", "visits.@max.minute > 50").names, stationNames { (visits(of: $0.id).max() ?? 0) > 50 })
        XCTAssertEqual(try run("station", "visits.@min.minute < 20").names, stationNames { (visits(of: $0.id).min() ?? .max) < 20 })
        XCTAssertEqual(try run("station", "visits.@sum.minute >= 100").names, stationNames { visits(of: $0.id).reduce(0, +) >= 100 })
        XCTAssertEqual(try run("station", "visits.@sum.minute == 0").names, stationNames { visits(of: $0.id).isEmpty }, "an empty sum is 0")
        XCTAssertEqual(try run("station", "visits.@avg.minute > 30").names, stationNames { let v = visits(of: $0.id); return !v.isEmpty && Double(v.reduce(0, +)) / Double(v.count) > 30 })
        XCTAssertEqual(try run("station", "2 < visits.@count").names, stationNames { visits(of: $0.id).count > 2 }, "a value on the left swaps sides")
    }

    /// A fetch is a value: a copy's key paths join in the copy only, and building a query
    /// changes nothing.
    func testACopyOfAFetchJoinsApartAndBuildingAQueryChangesNothing() throws {
        let original = try XCTUnwrap(ModelFetch(entity: "station", in: Self.model))
        var copy = original
        _ = try copy.value("line.name")
        try copy.expand("visits")
        XCTAssertFalse(SQLGenerator.prepare(try original.query()).sql.contains("JOIN"))
        let joined = SQLGenerator.prepare(try copy.query()).sql
        XCTAssertTrue(joined.contains(#"JOIN "line" AS "station.line""#), joined)
        _ = try original.query(selecting: ["line.name"])
        XCTAssertFalse(SQLGenerator.prepare(try original.query()).sql.contains("JOIN"), "selecting a key path joins in that query only")
        // An expanded to-many relationship reads like a to-one one: one row per visit.
        copy.select(try copy.value("visits.minute"), as: "minute")
        XCTAssertTrue(SQLGenerator.prepare(try copy.query()).sql.contains(#"JOIN "visit" AS "station.visits""#))
        var minutes: [Int] = []
        try fixture.database.forEachRow(SQLGenerator.prepare(try copy.query())) { minutes.append($0.int("minute")) }
        XCTAssertEqual(minutes.count, FixtureDatabase.visits.count)
    }

    func testCountComparedWithZeroOrOneAsksWhetherARelatedRowExists() throws {
        let none = try run("station", "visits.@count == 0")
        assertEqualSQL(none.sql, #"SELECT "station"."name" FROM "station" WHERE NOT (EXISTS (SELECT 1 FROM "visit" AS "station.visits" WHERE "station.visits"."station" = "station"."id")) ORDER BY "station"."id""#)
        XCTAssertEqual(none.names, stationNames { visits(of: $0.id).isEmpty })
        for format in ["visits.@count > 0", "visits.@count >= 1", "visits.@count != 0", "0 < visits.@count"] {
            let some = try run("station", format)
            XCTAssertTrue(some.sql.contains("WHERE EXISTS (SELECT 1 FROM"), format + ": " + some.sql)
            XCTAssertEqual(some.names, stationNames { !visits(of: $0.id).isEmpty }, format)
        }
        for format in ["visits.@count <= 0", "visits.@count < 1", "NOT visits.@count > 0"] {
            XCTAssertEqual(try run("station", format).names, stationNames { visits(of: $0.id).isEmpty }, format)
        }
        let subquery = try run("station", "SUBQUERY(visits, $v, $v.minute > 50).@count > 0")
        XCTAssertTrue(subquery.sql.contains(#"EXISTS (SELECT 1 FROM "visit" AS "$v" WHERE "$v"."station" = "station"."id" AND "$v"."minute" > ?)"#), subquery.sql)
        XCTAssertEqual(subquery.names, stationNames { visits(of: $0.id).contains { $0 > 50 } })
        // Other numbers still count.
        XCTAssertTrue(try run("station", "visits.@count > 1").sql.contains("SELECT COUNT(*)"))
    }

    func testSubqueryCountsTheRelatedRowsItsPredicateHoldsFor() throws {
        let result = try run("station", "SUBQUERY(visits, $v, $v.minute > 20 AND $v.minute < 58).@count >= 2")
        assertEqualSQL(result.sql, #"SELECT "station"."name" FROM "station" WHERE (SELECT COUNT(*) FROM "visit" AS "$v" WHERE "$v"."station" = "station"."id" AND "$v"."minute" > ? AND "$v"."minute" < ?) >= ? ORDER BY "station"."id""#)
        XCTAssertEqual(result.names, stationNames { visits(of: $0.id).filter { $0 > 20 && $0 < 58 }.count >= 2 })
        // Inside, as in NSPredicate, a key path without the variable is the element's own.
        let bare = try run("station", "SUBQUERY(visits, $v, minute > 20 AND minute < 58).@count >= 2")
        XCTAssertEqual(bare.names, result.names)
        let outside = try XCTUnwrap(mistake("station", "SUBQUERY(visits, $v, riders > 5).@count > 0"))
        XCTAssertTrue(outside.message.hasPrefix("visit has no attribute or relationship 'riders'"), outside.message)
    }

    func testCollectionsCrossSeveralToManyRelationships() throws {
        let any = try run("line", "ANY stations.visits.minute >= 55")
        XCTAssertTrue(any.sql.contains(#"EXISTS (SELECT 1 FROM "station" AS "line.stations" JOIN "visit" AS "line.stations.visits" ON "line.stations.visits"."station" = "line.stations"."id" WHERE "line.stations"."line" = "line"."id" AND "line.stations.visits"."minute" >= ?)"#), any.sql)
        func visitsOfLine(_ line: Int) -> [Int] { stations.filter { $0.line == line }.flatMap { visits(of: $0.id) } }
        XCTAssertEqual(any.names, ["U2", "S9"].filter { name in visitsOfLine(name == "U2" ? 2 : 3).contains { $0 >= 55 } })
        let count = try run("line", "stations.visits.@count > 3")
        XCTAssertEqual(count.names, [(1, "U1"), (2, "U2"), (3, "S9")].filter { visitsOfLine($0.0).count > 3 }.map(\.1))
        let nested = try run("line", "SUBQUERY(stations, $s, $s.visits.@count > 2).@count == 1")
        XCTAssertEqual(nested.names, [(1, "U1"), (2, "U2"), (3, "S9")].filter { line in
            stations.filter { $0.line == line.0 && visits(of: $0.id).count > 2 }.count == 1
        }.map(\.1))
    }

    // MARK: Values

    func testEveryValueIsBoundNeverSpliced() throws {
        let hostile = "'; DROP TABLE station; --"
        let result = try run("station", "name == %@ OR name BEGINSWITH $P OR name ENDSWITH \"\\\"x\" OR name IN {'a', %@}",
                             [.text(hostile), .text("b'b")], variables: ["P": .text("\")--")])
        XCTAssertFalse(result.sql.contains("DROP"), result.sql)
        XCTAssertFalse(result.sql.contains("'"), "no literal reaches the SQL: \(result.sql)")
        XCTAssertTrue(result.arguments.contains(.text(hostile)))
        XCTAssertEqual(result.names, [])
        XCTAssertEqual(try fixture.database.count(Query(table: "station")), 7, "the table is still there")
    }

    func testStringOperatorsMatchLiterallyAndFoldWithOptions() throws {
        XCTAssertEqual(try run("station", "name BEGINSWITH 'Al'").names, stationNames { $0.name.hasPrefix("Al") })
        XCTAssertEqual(try run("station", "name BEGINSWITH[c] 'al'").names, stationNames { $0.name.lowercased().hasPrefix("al") })
        XCTAssertEqual(try run("station", "name CONTAINS '%_'").names, stationNames { $0.name.contains("%_") }, "LIKE's wildcards are literal")
        XCTAssertEqual(try run("station", "name CONTAINS '*'").names, [], "GLOB's too")
        XCTAssertEqual(try run("station", "name ENDSWITH 'au'").names, stationNames { $0.name.hasSuffix("au") })
        XCTAssertEqual(try run("station", "name LIKE 'Z*u'").names, ["Zwickau"])
        XCTAssertEqual(try run("station", "name LIKE '?owy'").names, ["Ńowy"])
        XCTAssertEqual(try run("station", "name LIKE[cd] 'nowy'").names, ["Ńowy"])
        XCTAssertEqual(try run("station", "name ==[d] 'Lazienki'").names, ["Łazienki"])
        XCTAssertEqual(try run("station", "name ==[c] 'lazienki'").names, [], "[c] keeps diacritics")
        XCTAssertEqual(try run("station", "name CONTAINS[cd] 'MUNZ'").names, ["alte Münze"])
        XCTAssertTrue(try run("station", "name BEGINSWITH[c] 'al'").sql.contains(#"fetch_fold("station"."name", 1) GLOB ?"#))
    }

    func testValuesAreTypedByTheAttributeTheyMeet() throws {
        XCTAssertEqual(try run("station", "riders == %@", [.text("900")]).names, ["Alexanderplatz"], "text argument read as a number")
        XCTAssertEqual(try run("station", "riders BETWEEN {100, 700}").names, stationNames { (100...700).contains($0.riders) })
        XCTAssertEqual(try run("station", "riders IN {10, '20', 40}").names, stationNames { [10, 20, 40].contains($0.riders) })
        XCTAssertEqual(try run("station", "ANY visits.clock == '0h55m'").names, stationNames { visits(of: $0.id).contains(55) }, "converted by the model")
        let wrong = try XCTUnwrap(mistake("station", "riders > 'many'"))
        XCTAssertEqual(wrong.position, 9)
        XCTAssertTrue(wrong.message.contains("riders takes a whole number; got 'many'"), wrong.message)
        let time = try XCTUnwrap(mistake("visit", "clock < '55'"))
        XCTAssertTrue(time.message.contains("a time like 1h05m"), time.message)
        let textOnly = try XCTUnwrap(mistake("station", "riders BEGINSWITH '9'"))
        XCTAssertTrue(textOnly.message.contains("BEGINSWITH compares text; riders is a whole number"), textOnly.message)
    }

    func testNilMatchesMissingValuesAndOnlyWithEquality() throws {
        XCTAssertEqual(try run("station", "line == nil").names, stationNames { $0.line == nil })
        XCTAssertEqual(try run("station", "line != NULL").names, stationNames { $0.line != nil })
        XCTAssertNotNil(mistake("station", "riders > nil"))
    }

    func testVariablesComeFromTheGivenValues() throws {
        XCTAssertEqual(try run("station", "riders >= $MIN", variables: ["MIN": .integer(700)]).names, stationNames { $0.riders >= 700 })
        let missing = try XCTUnwrap(mistake("station", "riders >= $MIN"))
        XCTAssertEqual(missing.position, 10)
        XCTAssertTrue(missing.message.contains("--var MIN=VALUE"), missing.message)
        let notAVariable = try XCTUnwrap(mistake("station", "$x.name == 'a'"))
        XCTAssertTrue(notAVariable.message.contains("not a SUBQUERY variable"), notAVariable.message)
    }

    func testUnknownKeyPathsNameTheEntityAndWhatItHas() throws {
        let error = try XCTUnwrap(mistake("station", "line.nmae == 'U1'"))
        XCTAssertEqual(error.position, 5)
        XCTAssertEqual(error.message, "line has no attribute or relationship 'nmae'; attributes: name, color; relationships: stations (to-many)")
        let past = try XCTUnwrap(mistake("station", "riders.count > 1"))
        XCTAssertTrue(past.message.contains("riders is an attribute of station, not a relationship"), past.message)
        XCTAssertEqual(past.position, 7)
    }

    func testMatchesIsRefusedWithAnAlternative() throws {
        let error = try XCTUnwrap(mistake("station", "name MATCHES 'A.*'"))
        XCTAssertEqual(error.position, 5)
        XCTAssertTrue(error.message.contains("use LIKE"), error.message)
    }

    func testARelatedFetchIsCorrelatedToEachRowOfItsOwner() throws {
        // Each station's earliest visit, read by a subquery of the visits related to it.
        var fetch = try XCTUnwrap(ModelFetch(entity: "station", in: Self.model))
        var first = try fetch.related("visits")
        first.select(try first.value("minute"), as: "minute")
        first.sort(by: [try first.value("minute").ascending])
        first.limit = 1
        fetch.select(.subquery(try first.query()), as: "first_visit")
        let prepared = SQLGenerator.prepare(try fetch.query(selecting: ["name"]).query)
        XCTAssertTrue(prepared.sql.contains(#"FROM "visit" AS "station.visits" WHERE "station.visits"."station" = "station"."id" ORDER BY "station.visits"."minute" LIMIT"#),
                      prepared.sql)
        var found: [String: Int?] = [:]
        try fixture.database.forEachRow(prepared) { found[$0.string("name")] = $0.optionalInt("first_visit") }
        XCTAssertEqual(found, Dictionary(uniqueKeysWithValues: stations.map { ($0.name, visits(of: $0.id).min()) }))
        XCTAssertTrue(found.values.contains { $0 == nil } && found.values.contains { $0 != nil }, "the fixture has stations with and without visits")
        // Only a to-many relationship relates rows so.
        XCTAssertThrowsError(try fetch.related("line")) { error in
            XCTAssertEqual((error as? PredicateFormatError)?.position, 0)
        }
    }

    func testSortKeysAreKeyPathsWithDirections() throws {
        let result = try run("station", "TRUEPREDICATE", sort: "-line.name, riders")
        XCTAssertTrue(result.sql.hasSuffix(#"ORDER BY "station.line"."name" DESC, "station"."riders", "station"."id""#), result.sql)
        let expected = stations.sorted { a, b in
            let (x, y) = (lineName(a.line) ?? "", lineName(b.line) ?? "")
            return x != y ? x > y : a.riders < b.riders
        }.map(\.name)
        XCTAssertEqual(result.names, expected)
        var fetch = try XCTUnwrap(ModelFetch(entity: "station", in: Self.model))
        XCTAssertThrowsError(try fetch.sort(by: "name,visits")) { error in
            XCTAssertEqual((error as? PredicateFormatError)?.position, 5)
        }
        XCTAssertThrowsError(try fetch.sort(by: "name,,riders"))
    }

    func testTruePredicateAndFalsePredicateAndPrecedence() throws {
        XCTAssertEqual(try run("station", "FALSEPREDICATE").names, [])
        XCTAssertEqual(try run("station", "TRUEPREDICATE").names.count, stations.count)
        // NOT binds tighter than AND, AND than OR; a station without a line is "not on U2".
        let mixed = try run("station", "riders > 100 AND NOT line == 'U2' OR name == 'Zwickau'")
        XCTAssertEqual(mixed.names, stationNames { ($0.riders > 100 && !(lineName($0.line) == "U2")) || $0.name == "Zwickau" })
        XCTAssertEqual(try run("station", "line != 'U2'").names, stationNames { lineName($0.line) != "U2" }, "nil != 'U2' holds")
    }

    /// What a typed predicate shows: its syntax written back as a format string reads back as the same predicate.
    func testFormattedSyntaxParsesBackToItself() throws {
        let formats = [
            "name == 'a\\'b' AND (riders > 5 OR line == nil)", "NOT (riders BETWEEN {1, 2}) || name IN {'x', \"y\"}",
            "ANY visits.minute >= 3", "ALL visits.minute != 4 AND NONE visits.clock == '0h05m'", "name BEGINSWITH[cd] 'ł'",
            "visits.@count > 2 AND visits.@avg.minute < 30.5", "SUBQUERY(visits, $v, $v.minute > 1 AND NOT $v.minute == 2).@count == 0",
            "riders >= $MIN OR TRUEPREDICATE", "FALSEPREDICATE", "name LIKE[c] '*a?' OR name ENDSWITH 'z' OR name CONTAINS[d] 'q'",
            "NOT NOT riders < -3",
        ]
        for format in formats {
            let formatted = try PredicateParser.parse(format).formatted
            XCTAssertEqual(try PredicateParser.parse(formatted).formatted, formatted, format)
            // And compiles to the same SQL as the original.
            var original = try XCTUnwrap(ModelFetch(entity: "station", in: Self.model))
            var again = try XCTUnwrap(ModelFetch(entity: "station", in: Self.model))
            try original.filter(format: format, variables: ["MIN": .integer(1)])
            try again.filter(format: formatted, variables: ["MIN": .integer(1)])
            XCTAssertEqual(SQLGenerator.prepare(try original.query(selecting: ["name"]).query).sql,
                           SQLGenerator.prepare(try again.query(selecting: ["name"]).query).sql, format)
        }
    }

    // MARK: Found in review

    func testNestedSubqueriesReusingAVariableEachGetTheirOwnTable() throws {
        func linesWhere(_ include: (Int) -> Bool) -> [String] {
            [(1, "U1"), (2, "U2"), (3, "S9")].filter { include($0.0) }.map(\.1)
        }
        let reused = try run("line", "SUBQUERY(stations, $s, SUBQUERY($s.visits, $s, $s.minute > 50).@count > 0).@count > 0")
        XCTAssertTrue(reused.sql.contains(#""$s_2""#), reused.sql)
        XCTAssertEqual(reused.names, linesWhere { line in stations.contains { $0.line == line && visits(of: $0.id).contains { $0 > 50 } } })
        // A collection starting at an outer variable still sees the variables between.
        let outer = try run("line", "SUBQUERY(stations, $s, SUBQUERY($s.visits, $v, SUBQUERY($s.visits, $u, $u.minute > $v.minute).@count > 0).@count > 0).@count > 0")
        XCTAssertEqual(outer.names, linesWhere { line in stations.contains { $0.line == line && visits(of: $0.id).count >= 2 } })
        // Bare keys inside a SUBQUERY over a path are the elements' (the visits here).
        let bare = try run("line", "SUBQUERY(stations.visits, $v, minute > 50).@count > 0")
        XCTAssertEqual(bare.names, linesWhere { line in stations.contains { $0.line == line && visits(of: $0.id).contains { $0 > 50 } } })
    }

    func testMistakesTheReviewFound() throws {
        let quantified = try XCTUnwrap(mistake("station", "NONE visits.@count > 3"))
        XCTAssertTrue(quantified.message.contains("NONE goes before a to-many key path, not before an aggregate"), quantified.message)
        let folded = try XCTUnwrap(mistake("station", "riders ==[c] 900"))
        XCTAssertEqual(folded.message, "[c] and [d] apply to text; riders is a whole number")
        let wholeRelationship = try XCTUnwrap(mistake("station", "ANY visits == 5"))
        XCTAssertTrue(wholeRelationship.message.contains("compare one of its attributes (visits.ATTRIBUTE)"), wholeRelationship.message)
        let many = (0...Self.manyTerms).map { "riders == \($0)" }.joined(separator: " OR ")
        let tooMany = try XCTUnwrap(mistake("station", many))
        XCTAssertTrue(tooMany.message.contains("use IN {a, b, …}"), tooMany.message)
    }

    private static let manyTerms = 500

    func testNilInAListMatchesAMissingValue() throws {
        XCTAssertEqual(try run("station", "line IN {nil, 'U1'}").names, stationNames { $0.line == nil || lineName($0.line) == "U1" })
    }

    func testSortKeysMayBeAggregates() throws {
        let result = try run("station", "TRUEPREDICATE", sort: "-visits.@count")
        let expected = stations.enumerated().sorted { a, b in
            let (x, y) = (visits(of: a.element.id).count, visits(of: b.element.id).count)
            return x != y ? x > y : a.offset < b.offset
        }.map(\.element.name)
        XCTAssertEqual(result.names, expected)
    }
}
