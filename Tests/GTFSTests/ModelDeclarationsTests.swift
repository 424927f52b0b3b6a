import Foundation
import XCTest
import TestSupport
@testable import GTFS

/// Every table, alias and column the GTFS library names is declared once: in the model
/// (`Sources/GTFS/Model/`: the entities, their attributes and relationships, the records' columns,
/// the catalog tables) or in the schema's table definitions. Queries and the importer reach them
/// through those declarations — a key path the model compiles, `ModelFetch.key(of:)` for a
/// relationship's key, a record's `RecordColumn`, a catalog record's `Columns` — never through a
/// string of their own, which nothing would check and which a change to the layout would miss.
///
/// These tests read the sources and look for the ways of naming one by a string literal.
final class ModelDeclarationsTests: XCTestCase {
    /// The ways of naming a table, alias or column by a string literal, each with what it names.
    static let literalNames: [(pattern: String, names: String)] = [
        (#"\bColumn\(""#, "a column"),
        (#"\bColumn\([^)]*, of: ""#, "the table a column is of"),
        (#"table: ""#, "a table"),
        (#"alias: ""#, "a table's alias"),
        (#"position\(of: ""#, "a selected column"),
        (#"prepare(Delete|Insert)\((from|into): ""#, "the table written"),
        (#"prepareUpdate\(""#, "the table written"),
        (#"(Table|Index|Update)Definition\(""#, "a table outside the schema"),
        (#"(first|last)Index\(of: "[A-Za-z_][A-Za-z0-9_]*"\)"#, "a column of a list of columns"),
    ]

    /// The ways of naming a key column (one the model declares as an entity's key or a
    /// relationship's) by a string literal, where `ModelFetch.key` and `key(of:)` read it from
    /// the model.
    static let literalKeys: [(pattern: String, names: String)] = [
        (#"\.column\(""#, "a key column"),
        (#"[cC]olumn\(at: ""#, "a key column"),
        (#"columns: \[""#, "key columns"),
    ]

    /// Where tables and columns are declared.
    static let declarations = ["Sources/GTFS/Model/", "Sources/GTFS/Import/Schema.swift", "Sources/GTFS/Realtime/RealtimeSchema.swift"]

    /// The literal names in `text` (a source file's contents) that `patterns` find, as
    /// `line: what it names: the line`; comment lines (which may quote SQL) are skipped.
    static func literals(in text: String, patterns: [(pattern: String, names: String)]) throws -> [String] {
        let expressions = try patterns.map { (try NSRegularExpression(pattern: $0.pattern), $0.names) }
        var found: [String] = []
        for (number, line) in text.components(separatedBy: "\n").enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { continue }
            let range = NSRange(code.startIndex..., in: code)
            for (expression, names) in expressions where expression.firstMatch(in: code, range: range) != nil {
                found.append("\(number + 1): \(names) by a string: \(code)")
            }
        }
        return found
    }

    /// The Swift files under `Sources/GTFS`, by path from the project root.
    private func sources() throws -> [String] {
        let root = Paths.projectRoot + "/"
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: root + "Sources/GTFS")).compactMap { $0 as? String }
        let swift = files.filter { $0.hasSuffix(".swift") }.map { "Sources/GTFS/" + $0 }.sorted()
        XCTAssertGreaterThan(swift.count, 50, "the GTFS sources were not found under \(root)")
        return swift
    }

    func testQueriesAndTheImporterNameTablesAndColumnsOnlyThroughTheirDeclarations() throws {
        var violations: [String] = []
        for path in try sources() where !Self.declarations.contains(where: { path.hasPrefix($0) }) {
            let text = try String(contentsOfFile: Paths.projectRoot + "/" + path, encoding: .utf8)
            violations += try Self.literals(in: text, patterns: Self.literalNames + Self.literalKeys).map { path + ":" + $0 }
        }
        XCTAssertEqual(violations, [], "name them through the model (key paths, ModelFetch.key(of:), RecordColumn, a catalog record's Columns) or the schema")
    }

    func testThePatternsFindLiteralNamesAndNothingElse() throws {
        let patterns = Self.literalNames + Self.literalKeys
        for line in [#"let query = Query(table: "stops").select(Column("stop_id"))"#,
                     #"var last = TransitModel.fetch("stop_times", feedKey: feed, alias: "last")"#,
                     #"Column(name, of: "trips")"#,
                     #"try database.run(SQLGenerator.prepareDelete(from: "metadata", where: .all))"#,
                     #"let slot = insertColumns.firstIndex(of: "drop_off_type")!"#,
                     #"trips.filter(trips.column("route") == key)"#,
                     #"let service = fetch.requiredColumn(at: "trip.service")"#,
                     #"let query = try fetch.query(selecting: ["trip_id"], columns: ["service"]).query"#,
                     #"let stop = row.int(query.position(of: "stop"))"#] {
            XCTAssertFalse(try Self.literals(in: line, patterns: patterns).isEmpty, line)
        }
        for line in [#"if let colon = argument.firstIndex(of: ":") {"#,
                     #"trips.filter(trips.key(of: "route") == key)"#,
                     #"let slot = insertColumns.firstIndex(of: trips.keyColumn(of: "service"))"#,
                     #"let query = try fetch.query(selecting: ["trip_id", "route.route_short_name"], columns: [service]).query"#,
                     #"stopName = Lookup(try names.query(selecting: ["stop_name"]).query) { $0.position(of: name) }"#,
                     #"/// SELECT "stop_id" FROM "stops" AS "s" -- Column("stop_id") in a comment"#] {
            XCTAssertEqual(try Self.literals(in: line, patterns: patterns), [], line)
        }
    }

    /// The Swift files under `folder` (from the project root), by path from the root.
    private func swiftFiles(under folder: String) throws -> [String] {
        let root = Paths.projectRoot + "/"
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: root + folder)).compactMap { $0 as? String }
        return files.filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }.sorted()
    }

    /// Rows are written by column name (`RowWriter`; `BatchInsert`'s slots are found by name once):
    /// a positional `bind([…])` would tie each value to where its column sits. None is left
    /// outside FetchRequest (the benchmarks' hand-written FTS5 floor binds its values one by one).
    func testRowsAreWrittenByColumnNameOutsideFetchRequest() throws {
        var positional: [String] = []
        for path in try swiftFiles(under: "Sources")
        where !path.hasPrefix("Sources/FetchRequest/") {
            let text = try String(contentsOfFile: Paths.projectRoot + "/" + path, encoding: .utf8)
            for (number, line) in text.components(separatedBy: "\n").enumerated() where line.contains(".bind([") {
                positional.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        XCTAssertEqual(positional, [], "set the row's values by column name with a RowWriter")
    }

    /// Each column of agency, stops and routes is named by a string in one file of the sources:
    /// its declaration (`Agency.Columns`, `Stop.Columns`, `Route.Columns`), from which the table,
    /// the model's attributes, the importer's copies and the records' columns come. The names
    /// left out are also the field names of the commands' JSON and CSV (`stop_id`, `route_type`)
    /// or the keys every table has (`id`, `feed`).
    func testEachColumnOfAgencyStopsAndRoutesIsWrittenInOneFile() throws {
        let outputFields: Set<String> = ["id", "feed", "agency", "agency_id", "stop_id", "stop_name", "stop_lat", "stop_lon", "location_type",
                                         "parent", "platform_code", "route_id", "route_short_name", "route_type"]
        let declared = [("Sources/GTFS/Model/Agency.swift", Agency.Columns.all.names()), ("Sources/GTFS/Model/Stop.swift", Stop.Columns.all.names()),
                        ("Sources/GTFS/Model/Route.swift", Route.Columns.all.names())]
        XCTAssertTrue(declared.contains { $0.1.contains("route_color") } && declared.contains { $0.1.contains("stop_desc") })
        var texts: [String: String] = [:]
        for path in try swiftFiles(under: "Sources") {
            texts[path] = try String(contentsOfFile: Paths.projectRoot + "/" + path, encoding: .utf8)
        }
        for (file, columns) in declared {
            for column in columns where !outputFields.contains(column) {
                let files = texts.filter { $0.value.contains("\"" + column + "\"") }.keys.sorted()
                XCTAssertEqual(files, [file], "\(column) is named by a string outside its declaration")
            }
        }
    }
}
