import XCTest
import FetchRequest
import TestSupport
@testable import GTFS
import GTFSZip

final class ImporterTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private var feedsWritten = 0

    @discardableResult
    private func importFeed(_ fixture: FeedFixture, into name: String = "db.sqlite") throws -> ImportReport {
        feedsWritten += 1
        let feed = try fixture.write(to: directory, as: feedsWritten == 1 ? "feed" : "feed\(feedsWritten)")
        return try Importer(feedPath: feed, databasePath: directory.file(name)).run()
    }

    private func open(_ name: String = "db.sqlite") throws -> Database {
        try Database(path: directory.file(name), mode: .readOnly)
    }

    private func integers(_ database: Database, _ query: Query) throws -> [Int?] {
        var values: [Int?] = []
        try database.forEachRow(SQLGenerator.prepare(query)) { values.append($0.optionalInt(0)) }
        return values
    }

    /// Asserts the import fails with a `FeedError` naming `file`, `line` and `field`.
    private func assertImportFails(_ fixture: FeedFixture, file: String, line: Int?, field: String?, contains fragment: String,
                                   sourceFile: StaticString = #filePath, sourceLine: UInt = #line) {
        XCTAssertThrowsError(try importFeed(fixture), file: sourceFile, line: sourceLine) { error in
            guard let feedError = error as? FeedError else {
                return XCTFail("expected a FeedError, got \(error)", file: sourceFile, line: sourceLine)
            }
            XCTAssertEqual(feedError.file, file, "\(feedError)", file: sourceFile, line: sourceLine)
            XCTAssertEqual(feedError.line, line, "\(feedError)", file: sourceFile, line: sourceLine)
            XCTAssertEqual(feedError.field, field, "\(feedError)", file: sourceFile, line: sourceLine)
            XCTAssertTrue(feedError.description.contains(fragment), "\(feedError)", file: sourceFile, line: sourceLine)
        }
    }

    func testDemoFeedImportsEveryRow() throws {
        let report = try Importer(feedPath: Paths.demoFeed, databasePath: directory.file("db.sqlite")).run()
        XCTAssertEqual(report.rows(in: "stops"), 11)
        XCTAssertEqual(report.rows(in: "trips"), 7)
        XCTAssertEqual(report.rows(in: "stop_times"), 24)
        XCTAssertEqual(report.rows(in: "calendar_dates"), 3)
        XCTAssertEqual(report.skippedTotal, 0)
        let database = try open()
        XCTAssertEqual(try database.count(Query(table: "stop_times_1")), 24)
        XCTAssertEqual(try database.count(Query(table: "stops").filter(Column("location_type") == 1)), 1)
        XCTAssertEqual(try database.count(Query(table: "stops").filter(Column("parent").isNotNull)), 3)
    }

    func testSchemaHasTheCompoundIndexes() throws {
        try importFeed(FeedFixture())
        let database = try open()
        func columns(of index: String) throws -> [String] {
            var names: [String] = []
            let query = Query(table: "pragma_index_info").filter(Column("arg") == index)
                .select(Column("name")).sorted(by: [Column("seqno").ascending])
            try database.forEachRow(SQLGenerator.prepare(query)) { names.append($0.string(0)) }
            return names
        }
        XCTAssertEqual(try columns(of: "stops_by_location"), ["stop_lon", "stop_lat"])
        XCTAssertEqual(try columns(of: "stop_times_1_by_stop_departure"), ["stop", "departure", "pickup_type", "service_number"])
        XCTAssertEqual(try columns(of: "stops_by_normalized_name"), ["normalized_name"])
        XCTAssertEqual(try columns(of: "sqlite_autoindex_stop_name_prefixes_1"), ["prefix", "shown_name", "shown_stop_id", "shown", "stop"])
        XCTAssertEqual(try columns(of: "sqlite_autoindex_stop_times_1_1"), ["trip", "stop_sequence"])
    }

    func testTimesAreSecondsAndMissingTimesAreInterpolated() throws {
        // Three untimed rows between 08:00:00 and 08:10:00: a + floor((b - a) * k / 4).
        try importFeed(FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nA,A,1,1\nB,B,1,1\nC,C,1,1\nD,D,1,1\nE,E,1,1\nF,F,1,1\n")
            .with("stop_times.txt", """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T,,,F,0
                T,7:59:00,08:00:00,A,1
                T,,,B,2
                T,,,C,5
                T,,,D,7
                T,08:10:01,25:10:00,E,9
                T,,,F,10
                """))
        let database = try open()
        var rows: [(Int, Int?, Int?, Int)] = []
        try database.forEachRow(SQLGenerator.prepare(Query(table: "stop_times_1")
            .select(Column("stop_sequence"), Column("arrival"), Column("departure"), Column("interpolated"))
            .sorted(by: [Column("stop_sequence").ascending]))) {
            rows.append(($0.int(0), $0.optionalInt(1), $0.optionalInt(2), $0.int(3)))
        }
        let a = 8 * 3600, b = 8 * 3600 + 601
        XCTAssertEqual(rows.map(\.0), [0, 1, 2, 5, 7, 9, 10])
        XCTAssertEqual(rows.map(\.2), [nil, a, a + 601 / 4, a + 601 * 2 / 4, a + 601 * 3 / 4, 25 * 3600 + 600, nil])
        XCTAssertEqual(rows.map(\.1), [nil, 7 * 3600 + 59 * 60, a + 150, a + 300, a + 450, b, nil])
        XCTAssertEqual(rows.map(\.3), [0, 0, 1, 1, 1, 0, 0])
    }

    func testDepartureFallsBackToArrival() throws {
        try importFeed(FeedFixture().with("stop_times.txt",
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,,S1,1\nT,,08:05:00,S2,2\n"))
        let database = try open()
        XCTAssertEqual(try integers(database, Query(table: "stop_times_1").select(Column("departure")).sorted(by: [Column("stop_sequence").ascending])),
                       [8 * 3600, 8 * 3600 + 300])
        XCTAssertEqual(try integers(database, Query(table: "stop_times_1").select(Column("arrival")).sorted(by: [Column("stop_sequence").ascending])),
                       [8 * 3600, 8 * 3600 + 300])
    }

    func testCSVAsFoundInTheWild() throws {
        // BOM, CRLF, columns in another order, spaces around header names, extra columns,
        // quoted fields with commas, quotes and line breaks, blank lines, no final newline.
        let stops = "\u{FEFF} stop_lon , stop_id,extra,stop_name,stop_lat\r\n13.4,S1,x,\"First, \"\"the\"\" one\",52.5\r\n\r\n13.41,S2,y,\"Second\nline\",52.51\r\n13.42,S3,,Third,52.52"
        let report = try importFeed(FeedFixture().with("stops.txt", stops))
        XCTAssertEqual(report.rows(in: "stops"), 3)
        let database = try open()
        var names: [String] = []
        try database.forEachRow(SQLGenerator.prepare(Query(table: "stops").select(Column("stop_name")).sorted(by: [Column("stop_id").ascending]))) {
            names.append($0.string(0))
        }
        XCTAssertEqual(names, ["First, \"the\" one", "Second\nline", "Third"])
    }

    func testMissingRequiredFileNamesIt() {
        assertImportFails(FeedFixture().with("stop_times.txt", nil), file: directory.file("feed"), line: nil, field: nil,
                          contains: "has no stop_times.txt")
        assertImportFails(FeedFixture().with("calendar.txt", nil), file: directory.file("feed2"), line: nil, field: nil,
                          contains: "neither calendar.txt nor calendar_dates.txt")
    }

    func testMissingRequiredColumnNamesFileAndColumn() {
        assertImportFails(FeedFixture().with("stops.txt", "stop_name,stop_lat,stop_lon\nX,1,1\n"),
                          file: "stops.txt", line: nil, field: nil, contains: "missing required column stop_id")
        assertImportFails(FeedFixture().with("stop_times.txt", "trip_id,stop_id,arrival_time,departure_time\nT,S1,08:00:00,08:00:00\n"),
                          file: "stop_times.txt", line: nil, field: nil, contains: "missing required column stop_sequence")
    }

    func testUnparsableValuesNameFileLineAndField() {
        assertImportFails(FeedFixture().with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,S1,1\nT,08:61:00,08:61:00,S2,2\n"),
                          file: "stop_times.txt", line: 3, field: "arrival_time", contains: "'08:61:00' is not a GTFS time")
        assertImportFails(FeedFixture().with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,A,\"52,5\",13.4\n"),
                          file: "stops.txt", line: 2, field: "stop_lat", contains: "not a decimal number")
        assertImportFails(FeedFixture().with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,A,NaN,13.4\n"),
                          file: "stops.txt", line: 2, field: "stop_lat", contains: "not a decimal number")
        assertImportFails(FeedFixture().with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,A,1e400,13.4\n"),
                          file: "stops.txt", line: 2, field: "stop_lat", contains: "not a decimal number")
        assertImportFails(FeedFixture().with("calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20150231,20261231\n"),
                          file: "calendar.txt", line: 2, field: "start_date", contains: "not a date")
    }

    func testCoordinatesOutOfRangeAreRefused() {
        assertImportFails(FeedFixture().with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,A,90.5,13.4\n"),
                          file: "stops.txt", line: 2, field: "stop_lat", contains: "outside [-90, 90]")
        assertImportFails(FeedFixture().with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,A,52,-180.01\n"),
                          file: "stops.txt", line: 2, field: "stop_lon", contains: "outside [-180, 180]")
    }

    func testUnterminatedQuoteNamesTheLine() {
        assertImportFails(FeedFixture().with("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type\nR,A,1,\"One,3\n"),
                          file: "routes.txt", line: 2, field: nil, contains: "unterminated quote")
    }

    func testUnknownReferencesAndDuplicatesAreSkippedAndCounted() throws {
        let report = try importFeed(FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,First,52.5,13.4\nS2,Second,52.51,13.41\nS3,Third,52.52,13.42\nS1,Again,1,1\n")
            .with("stop_times.txt", """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T,08:00:00,08:00:00,S1,1
                T,08:05:00,08:05:00,NOWHERE,2
                T,08:10:00,08:10:00,S2,3
                T,08:11:00,08:11:00,S2,3
                GHOST,08:20:00,08:20:00,S3,1
                T,08:20:00,08:20:00,S3,4
                """))
        XCTAssertEqual(report.rows(in: "stops"), 3)
        XCTAssertEqual(report.rows(in: "stop_times"), 3)
        let reasons = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.reason, $0) })
        XCTAssertEqual(reasons["stops.txt: duplicate stop_id"]?.examples, ["line 5: stop_id 'S1'"])
        XCTAssertEqual(reasons["stop_times.txt: stop_id not in stops.txt"]?.examples, ["line 3: stop_id 'NOWHERE'"])
        XCTAssertEqual(reasons["stop_times.txt: duplicate (trip_id, stop_sequence)"]?.examples, ["line 5: trip_id 'T', stop_sequence 3"])
        XCTAssertEqual(reasons["stop_times.txt: trip_id not in trips.txt"]?.examples, ["line 6: trip_id 'GHOST'"])
        XCTAssertEqual(report.skippedTotal, 4)
    }

    func testFailedImportLeavesThePreviousDatabaseUnchangedAndNoTemporaryFile() throws {
        try importFeed(FeedFixture())
        let before = databaseFingerprint(directory.file("db.sqlite"))
        XCTAssertNotNil(before)
        let broken = FeedFixture().with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,S1,1\nT,99:99:99,,S2,2\n")
        XCTAssertThrowsError(try importFeed(broken))
        XCTAssertEqual(databaseFingerprint(directory.file("db.sqlite")), before)
        XCTAssertEqual(directory.contents(), ["db.sqlite", "feed", "feed2"], "no temporary file is left behind")
    }

    func testAbandonedTemporaryFilesOfDeadImportsAreRemoved() throws {
        // A pid that cannot be running: the largest pid Linux can give is 4,194,304.
        try directory.write(".db.sqlite.import-4194999.tmp", "left by a killed import")
        try importFeed(FeedFixture())
        XCTAssertEqual(directory.contents(), ["db.sqlite", "feed"])
    }

    func testMetadataRecordsVersionSourceAndTimeZone() throws {
        try importFeed(FeedFixture())
        let database = try open()
        var metadata: [String: String] = [:]
        try database.forEachRow(SQLGenerator.prepare(Query(table: "metadata").select(Column("key"), Column("value")))) {
            metadata[$0.string(0)] = $0.string(1)
        }
        XCTAssertEqual(metadata["schema_version"], String(Schema.version))
        let feeds = try database.fetch(FetchRequest<Feed>())
        XCTAssertEqual(feeds.map(\.name), ["feed"], "named after its folder")
        XCTAssertEqual(feeds.first?.timeZone.identifier, "Europe/Berlin")
        XCTAssertEqual(feeds.first?.source, directory.file("feed"))
        XCTAssertEqual(feeds.first?.importedAt.count, "2026-01-01T00:00:00Z".count)
        XCTAssertEqual(feeds.first?.stopTimes, 3)
    }

    func testOtherSchemaVersionsAndForeignFilesAskForAReimport() throws {
        try importFeed(FeedFixture())
        let path = directory.file("db.sqlite")
        do {
            let writable = try Database(path: path, mode: .readWrite)
            let update = try writable.makeStatement(UpdateDefinition("metadata", set: ["value"], where: "key").sql)
            try update.bind([.text("99"), .text("schema_version")])
            try update.run()
        }
        XCTAssertThrowsError(try TransitDatabase(path: path)) { error in
            XCTAssertEqual(error as? TransitError, .schemaMismatch(path: path, found: "99", expected: Schema.version))
            XCTAssertTrue("\(error)".contains("re-import it with `transit import FEED --db \(path)`"), "\(error)")
        }
        let plain = directory.file("plain.sqlite")
        try Database(path: plain, mode: .readWrite).execute("CREATE TABLE t (x)")
        XCTAssertThrowsError(try TransitDatabase(path: plain)) { error in
            guard case .notATransitDatabase = error as? TransitError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try TransitDatabase(path: directory.file("missing.sqlite"))) { error in
            XCTAssertEqual(error as? TransitError, .noDatabase(path: directory.file("missing.sqlite")))
        }
    }

    func testUnknownAgencyTimeZoneIsRefused() {
        assertImportFails(FeedFixture().with("agency.txt", "agency_name,agency_url,agency_timezone\nA,https://x,Europe/Atlantis\n"),
                          file: "agency.txt", line: 2, field: "agency_timezone", contains: "not a time zone")
    }

    func testShapesKeepTheirPointsInOrderAndCountBadOnes() throws {
        let report = try importFeed(FeedFixture().with("shapes.txt", """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
            A,52.52,13.42,3,250.5
            A,52.50,13.40,1,0
            A,52.51,13.41,2,
            A,95,13.4,4,
            A,52.5,east,5,
            A,52.53,13.43,2,300
            ,52.5,13.4,1,
            B,48.1,11.5,0,0
            """))
        XCTAssertEqual(report.rows(in: "shapes"), 4)
        let reasons = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.reason, $0) })
        XCTAssertEqual(reasons["shapes.txt: points that cannot be read"]?.count, 3)
        XCTAssertEqual(reasons["shapes.txt: points that cannot be read"]?.examples,
                       ["line 5: shape_pt_lat 95.0 is outside [-90, 90]", "line 6: shape_pt_lon 'east' is not a decimal number (use a point, not a comma)",
                        "line 8: shape_id is empty but required"])
        XCTAssertEqual(reasons["shapes.txt: duplicate (shape_id, shape_pt_sequence)"]?.count, 1)
        let database = try open()
        var points: [String] = []
        try database.forEachRow(SQLGenerator.prepare(Query(table: "shapes_1")
            .select(Column("shape_id"), Column("shape_pt_sequence"), Column("shape_pt_lat"), Column("shape_dist_traveled")))) {
            points.append("\($0.string(0)) \($0.int(1)) \($0.double(2)) \($0.optionalDouble(3).map { String($0) } ?? "-")")
        }
        XCTAssertEqual(points, ["A 1 52.5 0.0", "A 2 52.51 -", "A 3 52.52 250.5", "B 0 48.1 0.0"], "by shape, then sequence; the first of a repeated sequence kept")
    }

    func testServiceDaysExpandCalendarAndExceptions() throws {
        try importFeed(FeedFixture()
            .with("calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,0,0,0,0,0,0,20260101,20260131\n")
            .with("calendar_dates.txt", "service_id,date,exception_type\nWD,20260112,2\nWD,20260110,1\nONLY,20260101,1\n"))
        let database = try open()
        let query = Query(table: "service_days_1").select(Column("date")).sorted(by: [Column("date").ascending])
        // Mondays of January 2026 (5, 12, 19, 26) without the 12th, plus the 10th and ONLY's day.
        XCTAssertEqual(try integers(database, query), [20260101, 20260105, 20260110, 20260119, 20260126])
    }

    func testZipWithFilesInsideAFolderAndJunkEntries() throws {
        try FeedFixture().write(to: directory, as: "src/gtfs")
        try directory.write("src/__MACOSX/gtfs/._stops.txt", "junk")
        let zip = directory.file("feed.zip")
        let made = try CommandRun.run("/usr/bin/env", ["python3", "-c", """
            import os, sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                for root, _, files in os.walk(sys.argv[2]):
                    for f in files:
                        p = os.path.join(root, f)
                        z.write(p, os.path.relpath(p, sys.argv[2]))
            """, zip, directory.file("src")])
        XCTAssertEqual(made.status, 0, made.stderr)
        let report = try Importer(feedPath: zip, databasePath: directory.file("db.sqlite"), openFeed: openFeedOrZip(at:)).run()
        XCTAssertEqual(report.rows(in: "stops"), 3)
        XCTAssertEqual(report.rows(in: "stop_times"), 3)
    }

    func testNotAZipIsRefusedClearly() throws {
        try directory.write("feed.zip", "this is not a zip archive")
        XCTAssertThrowsError(try Importer(feedPath: directory.file("feed.zip"), databasePath: directory.file("db.sqlite"), openFeed: openFeedOrZip(at:)).run()) { error in
            XCTAssertTrue("\(error)".contains("is not a readable zip archive"), "\(error)")
        }
        XCTAssertEqual(directory.contents(), ["feed.zip"])
    }
}

extension ImporterTests {
    /// The model and the importer share one list of each file's plain fields: every text
    /// attribute the model stores in a column of its own name is imported from the field of that
    /// name and read back through the model, for agency.txt, stops.txt, routes.txt and trips.txt.
    func testEveryPlainTextAttributeOfTheModelIsImportedFromTheFieldOfItsName() throws {
        let model = TransitModel.model(forFeedKey: 1)
        // The rows the fixture needs, by field; every other plain text attribute gets "<name> value".
        let fixed: [String: [String: String]] = [
            "agency": ["agency_id": "A", "agency_name": "Agency", "agency_url": "https://example.org", "agency_timezone": "Europe/Berlin"],
            "stops": ["stop_id": "S1", "stop_name": "First", "stop_lat": "52.5", "stop_lon": "13.4"],
            "routes": ["route_id": "R", "agency_id": "A", "route_short_name": "1", "route_type": "3"],
            "trips": ["route_id": "R", "service_id": "WD", "trip_id": "T"],
        ]
        var fixture = FeedFixture()
        var expected: [String: [String: String]] = [:]
        for (entity, required) in fixed {
            let plain = try XCTUnwrap(model[entity]).attributes.filter { attribute in
                guard case .text = attribute.type, case .column(let column) = attribute.source else { return false }
                return column == attribute.name && required[attribute.name] == nil
            }.map(\.name)
            XCTAssertFalse(plain.isEmpty, entity)
            var row = required
            for name in plain { row[name] = "\(name) value" }
            expected[entity] = row.filter { plain.contains($0.key) }
            let header = row.keys.sorted()
            let file = header.joined(separator: ",") + "\n" + header.map { row[$0]! }.joined(separator: ",") + "\n"
            fixture = fixture.with(entity + ".txt", file)
        }
        // The trip calls at S1 only once: give it two stops of its own.
        fixture = fixture.with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,S1,1\nT,08:10:00,08:10:00,S1,2\n")
        try importFeed(fixture)
        let database = try open()
        for (entity, values) in expected {
            let fetch = try XCTUnwrap(ModelFetch(entity: entity, in: model))
            let names = values.keys.sorted()
            var found: [String: String] = [:]
            try database.forEachRow(SQLGenerator.prepare(try fetch.query(selecting: names).query)) { row in
                for name in names { found[name] = row.optionalString(name) }
            }
            XCTAssertEqual(found, values, entity)
        }
    }
}
