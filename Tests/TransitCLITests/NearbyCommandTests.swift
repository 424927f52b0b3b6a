import XCTest
import Foundation
import TestSupport

final class NearbyCommandTests: XCTestCase {
    private func nearby(_ arguments: [String], db: String? = nil) throws -> CommandRun {
        try CommandRun.transit(["nearby"] + arguments + ["--db", try db ?? DemoDatabase.path()])
    }

    private func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    func testJSONHasTheContractFieldsAsNumbers() throws {
        let run = try nearby(["52.5249", "13.3692", "--radius", "2300", "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap(try json(run.stdout) as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["stop_id"] as? String }, ["HBF", "MARKT", "CAFE"])
        let first = rows[0]
        XCTAssertEqual(Set(first.keys), ["feed", "stop_id", "name", "lat", "lon", "distance_m"])
        XCTAssertEqual(first["name"] as? String, "Hauptbahnhof")
        XCTAssertEqual(first["lat"] as? Double, 52.525)
        XCTAssertEqual(first["lon"] as? Double, 13.369)
        let distance = try XCTUnwrap(rows[1]["distance_m"] as? Double)
        XCTAssertEqual(distance, 1_860, accuracy: 50, "Marktplatz is about 1.9 km away")
        let distances = rows.compactMap { $0["distance_m"] as? Double }
        XCTAssertEqual(distances, distances.sorted())
    }

    func testCSVParsesBackWithQuotedNames() throws {
        let run = try nearby(["52.518", "13.395", "--radius", "200", "--format", "csv"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "feed,stop_id,name,lat,lon,distance_m\r\nlindenau,MARKT,\"Marktplatz, Nord\",52.518,13.395,0\r\n")
    }

    func testGeoJSONIsAFeatureCollectionOfPoints() throws {
        let run = try nearby(["52.52", "13.41", "--radius", "2000", "--format", "geojson"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let collection = try XCTUnwrap(try json(run.stdout) as? [String: Any])
        XCTAssertEqual(collection["type"] as? String, "FeatureCollection")
        let features = try XCTUnwrap(collection["features"] as? [[String: Any]])
        XCTAssertFalse(features.isEmpty)
        for feature in features {
            let geometry = try XCTUnwrap(feature["geometry"] as? [String: Any])
            XCTAssertEqual(geometry["type"] as? String, "Point")
            let coordinates = try XCTUnwrap(geometry["coordinates"] as? [Double])
            let properties = try XCTUnwrap(feature["properties"] as? [String: Any])
            XCTAssertEqual(coordinates, [properties["lon"] as? Double ?? .nan, properties["lat"] as? Double ?? .nan])
        }
    }

    func testTableAndTheFriendlyEmptyLine() throws {
        let table = try nearby(["52.5249", "13.3692", "--radius", "100"])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertEqual(table.stdout, "Distance  Stop                    stop_id\n    18 m  Hauptbahnhof (station)  HBF\n")
        let empty = try nearby(["40.7553", "-73.9875"])
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertEqual(empty.stdout, "No stops within 500 m of 40.7553, -73.9875\n")
        let emptyJSON = try nearby(["40.7553", "-73.9875", "--format", "json"])
        XCTAssertEqual(emptyJSON.stdout, "[]\n")
    }

    func testCoordinateFormsAndNegativeValues() throws {
        let pair = try nearby(["52.518,13.395", "--radius", "10", "--format", "csv"])
        let separate = try nearby(["52.518", "13.395", "--radius", "10", "--format", "csv"])
        XCTAssertEqual(pair.status, 0, pair.stderr)
        XCTAssertEqual(pair.stdout, separate.stdout)
        let negative = try nearby(["-33.86", "-70.65", "--format", "json"])
        XCTAssertEqual(negative.status, 0, negative.stderr)
        XCTAssertEqual(negative.stdout, "[]\n")
    }

    func testBadValuesExit64WithOneLine() throws {
        let cases: [([String], String)] = [
            (["91", "0"], "latitude 91 is outside [-90, 90]"),
            (["0", "-180.5"], "longitude -180.5 is outside [-180, 180]"),
            (["nan", "0"], "latitude 'nan' is not a number"),
            (["1"], "expected a coordinate"),
            (["1", "2", "3"], "expected a coordinate"),
            (["1", "2", "--radius", "0"], "--radius must be above 0"),
            (["1", "2", "--radius", "100001"], "--radius must be above 0 and at most 100000"),
            (["1", "2", "--radius", "-5"], "--radius must be above 0"),
            (["1", "2", "--limit", "-1"], "--limit must be 0"),
            (["1", "2", "--format", "xml"], "'xml' is invalid for '--format"),
            (["1", "2", "--bogus"], "Unknown option '--bogus'"),
        ]
        for (arguments, fragment) in cases {
            let run = try nearby(arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("Error: ") && run.stderr.contains(fragment), "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, "one line: \(run.stderr)")
            XCTAssertEqual(run.stdout, "")
        }
    }

    func testMissingOrForeignDatabaseExits1SayingToImport() throws {
        let directory = TemporaryDirectory()
        let missing = try nearby(["1", "2"], db: directory.file("none.sqlite"))
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("run `transit import FEED` first"), missing.stderr)
        try directory.write("text.sqlite", "not a database at all, just text that is long enough to be read as a header")
        let foreign = try nearby(["1", "2"], db: directory.file("text.sqlite"))
        XCTAssertEqual(foreign.status, 1)
        XCTAssertTrue(foreign.stderr.contains("is not a transit database"), foreign.stderr)
        XCTAssertTrue(foreign.stderr.contains("re-import"), foreign.stderr)
    }

    func testExplainGoesToStderrAndShowsAnIndexSearch() throws {
        let run = try nearby(["52.5249", "13.3692", "--format", "json", "--explain"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertNoThrow(try json(run.stdout), "stdout stays valid JSON")
        XCTAssertTrue(run.stderr.contains("SELECT "), run.stderr)
        XCTAssertTrue(run.stderr.contains("-- arguments: ["), run.stderr)
        XCTAssertTrue(run.stderr.contains("QUERY PLAN\n`--SEARCH stops USING INDEX stops_by_location"), run.stderr)
        XCTAssertFalse(run.stderr.contains("warning:"), run.stderr)
    }

    func testVilniusListsExactlyTheStopsWithin400Metres() throws {
        guard let feed = Paths.sharedFeed("vilnius.zip") else {
            throw XCTSkip("../shared/feeds/vilnius.zip is absent: the vilnius nearby test is skipped")
        }
        let db = try DemoDatabase.path(feed: feed)
        let run = try nearby(["54.687", "25.28", "--radius", "400", "--limit", "0", "--format", "json"], db: db)
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap(try json(run.stdout) as? [[String: Any]])
        // The same rule computed independently, in Python, from stops.txt.
        let python = try CommandRun.run("/usr/bin/env", ["python3", "-c", """
            import csv, io, math, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            stops = csv.DictReader(io.StringIO(z.read('stops.txt').decode('utf-8-sig')))
            R, lat0, lon0 = 6371008.8, 54.687, 25.28
            found = []
            for s in stops:
                if s.get('location_type', '') not in ('', '0', '1') or (s.get('parent_station') or ''): continue
                p1, p2 = math.radians(lat0), math.radians(float(s['stop_lat']))
                dp, dl = p2 - p1, math.radians(float(s['stop_lon']) - lon0)
                a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
                d = 2 * R * math.asin(math.sqrt(a))
                if d <= 400: found.append((d, s['stop_id']))
            for d, i in sorted(found): print(i)
            """, feed])
        XCTAssertEqual(python.status, 0, python.stderr)
        let expected = python.stdout.split(separator: "\n").map(String.init)
        XCTAssertFalse(expected.isEmpty)
        XCTAssertEqual(rows.map { $0["stop_id"] as? String ?? "" }, expected)
        let explained = try nearby(["54.687", "25.28", "--radius", "400", "--explain"], db: db)
        XCTAssertTrue(explained.stderr.contains("SEARCH stops USING INDEX stops_by_location"), explained.stderr)
        XCTAssertFalse(explained.stderr.contains("SCAN"), explained.stderr)
    }
}
