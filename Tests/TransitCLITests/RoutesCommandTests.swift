import XCTest
import Foundation
import TestSupport

/// `transit routes`: every route, a stop's routes (a station's through its platforms), routes near
/// a point, by type, in route_sort_order then natural order of short names.
final class RoutesCommandTests: XCTestCase {
    private func routes(_ arguments: [String], db: String? = nil) throws -> CommandRun {
        try CommandRun.transit(["routes"] + arguments + ["--db", try db ?? DemoDatabase.path()])
    }

    private func ids(_ arguments: [String], db: String? = nil) throws -> [String] {
        let run = try routes(arguments + ["--format", "json"], db: db)
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
        return rows.map { ($0["route_id"] as? String) ?? "?" }
    }

    func testAStationsRoutesComeThroughItsPlatforms() throws {
        XCTAssertEqual(try ids([]), ["RING", "R1", "N2"], "no short name first, then 1 before N2")
        XCTAssertEqual(try ids(["--stop", "HBF"]), ["RING", "R1", "N2"], "the station: T5 calls at HBF_1, T3 leaves HBF_2")
        XCTAssertEqual(try ids(["--stop", "GOR"]), ["R1", "N2"])
        XCTAssertEqual(try ids(["--stop", "MARKT"]), ["RING"])
        XCTAssertEqual(try ids(["--type", "bus"]), ["R1", "N2"])
        XCTAssertEqual(try ids(["--type", "2"]), ["RING"])
        let json = try routes(["--stop", "GOR", "--format", "json"])
        let first = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first)
        XCTAssertEqual(Set(first.keys), ["feed", "route_id", "agency", "short_name", "long_name", "type", "route_type", "color", "text_color", "trips"])
        XCTAssertEqual(first["trips"] as? Int, 4)
        XCTAssertEqual(first["type"] as? String, "bus")
        XCTAssertEqual(first["agency"] as? String, "Lindenauer Verkehrsbetriebe")
        XCTAssertEqual(try routes(["--type", "hovercraft"]).status, 64)
        XCTAssertEqual(try routes(["--format", "geojson"]).status, 64)
        XCTAssertEqual(try routes(["--radius", "100"]).status, 64)
        XCTAssertEqual(try routes(["--stop", "NOPE"]).status, 64)
        XCTAssertEqual(try routes(["--type", "tram"]).stdout, "No routes of type tram\n")
    }

    func testSortOrderThenNaturalOrderThenId() throws {
        let directory = TemporaryDirectory()
        let feed = try FeedFixture()
            .with("routes.txt", """
                route_id,agency_id,route_short_name,route_long_name,route_type,route_sort_order,route_color
                R10,A,10,,3,,
                R2,A,2,,3,,
                RN2,A,N2,,3,,
                RN10,A,N10,,3,,
                EXP,A,X,,702,1,FF0000
                TRAM,A,T,,900,0,
                """)
            .with("trips.txt", "route_id,service_id,trip_id\nR2,WD,T\n")
            .write(to: directory, as: "ordered")
        let db = directory.file("db.sqlite")
        XCTAssertEqual(try CommandRun.transit(["import", feed, "--db", db, "--quiet"]).status, 0)
        XCTAssertEqual(try ids([], db: db), ["TRAM", "EXP", "R2", "R10", "RN2", "RN10"])
        XCTAssertEqual(try ids(["--type", "bus"], db: db), ["EXP", "R2", "R10", "RN2", "RN10"], "702 is an extended bus type")
        XCTAssertEqual(try ids(["--type", "tram"], db: db), ["TRAM"])
        let csv = try routes(["--type", "702", "--format", "csv"], db: db)
        XCTAssertEqual(csv.stdout, "feed,route_id,agency,short_name,long_name,type,route_type,color,text_color,trips\r\nordered,EXP,Agency,X,,bus,702,FF0000,,0\r\n")
    }

    /// On a real feed, `routes --stop` names exactly the routes whose trips call at the stop.
    func testRealStopsRoutesAreTheRoutesOfTheirTrips() throws {
        guard let cairns = Paths.sharedFeed("cairns_gtfs.zip") else {
            throw XCTSkip("../shared/feeds/cairns_gtfs.zip is absent: the real-routes test is skipped")
        }
        let db = try DemoDatabase.path(feed: cairns)
        let script = """
            import csv, io, json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            read = lambda name: list(csv.DictReader(io.StringIO(z.read(name).decode("utf-8-sig"))))
            route_of = {t["trip_id"]: t["route_id"] for t in read("trips.txt")}
            at = {}
            for row in read("stop_times.txt"):
                at.setdefault(row["stop_id"], set()).add(route_of[row["trip_id"]])
            stops = sorted(at)[::37][:10]
            print(json.dumps({s: sorted(at[s]) for s in stops}))
            """
        let expected = try CommandRun.run("/usr/bin/env", ["python3", "-c", script, cairns])
        XCTAssertEqual(expected.status, 0, expected.stderr)
        let byStop = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(expected.stdout.utf8)) as? [String: [String]])
        XCTAssertEqual(byStop.count, 10)
        for (stop, routes) in byStop {
            XCTAssertEqual(try ids(["--stop", stop], db: db).sorted(), routes, stop)
        }
    }
}
