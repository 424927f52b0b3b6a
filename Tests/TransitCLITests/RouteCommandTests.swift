import XCTest
import Foundation
import TestSupport

/// `transit route`: per direction the patterns (the main one by trips, ties by first trip_id), the
/// day types' first and last departures, the main patterns' stops as CSV, the shapes as GeoJSON.
final class RouteCommandTests: XCTestCase {
    private func route(_ arguments: [String], db: String? = nil) throws -> CommandRun {
        try CommandRun.transit(["route"] + arguments + ["--db", try db ?? DemoDatabase.path()])
    }

    private func object(_ run: CommandRun) throws -> [String: Any] {
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
    }

    func testPatternsPerDirectionWithTheMainOneFirst() throws {
        let r1 = try object(try route(["R1", "--format", "json"]))
        XCTAssertEqual(r1["trips"] as? Int, 4)
        let directions = try XCTUnwrap(r1["directions"] as? [[String: Any]])
        XCTAssertEqual(directions.map { $0["direction_id"] as? Int }, [0, 1])
        let outbound = try XCTUnwrap(directions[0]["patterns"] as? [[String: Any]])
        XCTAssertEqual(outbound.map { $0["trips"] as? Int }, [2, 1], "T4 and T6 share HBF_1 → GOR → ZOO; T1 calls at two more")
        XCTAssertEqual((outbound[0]["stops"] as? [[String: Any]])?.map { $0["stop_id"] as? String }, ["HBF_1", "GOR", "ZOO"])
        XCTAssertEqual(outbound[0]["first_trip_id"] as? String, "T4")
        let days = try XCTUnwrap(directions[0]["day_types"] as? [[String: Any]])
        XCTAssertEqual(days.map { "\($0["service_id"]!) \($0["trips"]!) \($0["first_departure"]!) \($0["last_departure"]!)" },
                       ["WD 2 08:00:00 08:30:00", "WE 1 10:00:00 10:00:00"])
        // N2: two patterns of one trip each; the tie goes to the pattern whose first trip sorts first.
        let n2 = try object(try route(["N2", "--format", "json"]))
        let patterns = try XCTUnwrap((n2["directions"] as? [[String: Any]])?.first?["patterns"] as? [[String: Any]])
        XCTAssertEqual(patterns.map { $0["first_trip_id"] as? String }, ["T3", "T7"])
        let csv = try route(["R1", "--format", "csv"])
        XCTAssertEqual(csv.stdout, """
            feed,route_id,direction_id,direction,position,stop_id,stop_name,pattern_trips\r
            lindenau,R1,0,Outbound,1,HBF_1,Hauptbahnhof,2\r
            lindenau,R1,0,Outbound,2,GOR,U Görlitzer Straße,2\r
            lindenau,R1,0,Outbound,3,ZOO,Tierpark,2\r
            lindenau,R1,1,Inbound,1,ZOO,Tierpark,1\r
            lindenau,R1,1,Inbound,2,LODZ,Łódź Fabryczna,1\r
            lindenau,R1,1,Inbound,3,STR,Große Straße,1\r
            lindenau,R1,1,Inbound,4,HBF_2,Hauptbahnhof,1\r

            """)
        let table = try route(["R1"])
        XCTAssertTrue(table.stdout.contains("  Main pattern (2 trips): Hauptbahnhof → U Görlitzer Straße → Tierpark\n"), table.stdout)
        XCTAssertTrue(table.stdout.contains("\nDirection 0 (Outbound): 3 trips\n"), "directions.txt names it: \(table.stdout)")
        XCTAssertEqual((try object(try route(["N2", "--format", "json"]))["directions"] as? [[String: Any]])?.first?["direction"] is NSNull, true,
                       "N2 has no name in directions.txt")
        let explained = try route(["R1", "--explain"])
        XCTAssertTrue(explained.stderr.contains("SEARCH trips USING INDEX trips_by_route (route=?"), explained.stderr)
        XCTAssertFalse(explained.stderr.contains("warning:"), explained.stderr)
        let unknown = try route(["NOPE"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("no route has route_id 'NOPE'"), unknown.stderr)
    }

    func testGeoJSONDrawsTheDistinctShapesWithTheRouteColours() throws {
        let directory = TemporaryDirectory()
        let feed = try FeedFixture()
            .with("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color\nR,A,1,One,3,00AA00,FFFFFF\n")
            .with("trips.txt", "route_id,service_id,trip_id,shape_id,direction_id\nR,WD,T,SH,0\nR,WD,U,SH,0\nR,WD,V,BACK,1\n")
            .with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,S1,1\nT,08:10:00,08:10:00,S2,2\nU,09:00:00,09:00:00,S1,1\nU,09:10:00,09:10:00,S2,2\nV,10:00:00,10:00:00,S2,1\nV,10:10:00,10:10:00,S1,2\n")
            .with("shapes.txt", "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH,52.5,13.4,1\nSH,52.51,13.41,2\nBACK,52.51,13.41,1\nBACK,52.505,13.405,2\nBACK,52.5,13.4,3\n")
            .write(to: directory, as: "lines")
        let db = directory.file("db.sqlite")
        XCTAssertEqual(try CommandRun.transit(["import", feed, "--db", db, "--quiet"]).status, 0)
        let collection = try object(try route(["R", "--format", "geojson"], db: db))
        let features = try XCTUnwrap(collection["features"] as? [[String: Any]])
        XCTAssertEqual(features.map { ($0["properties"] as? [String: Any])?["shape_id"] as? String }, ["SH", "BACK"], "each shape once")
        XCTAssertEqual((features[1]["geometry"] as? [String: Any])?["coordinates"] as? [[Double]], [[13.41, 52.51], [13.405, 52.505], [13.4, 52.5]])
        XCTAssertEqual((features[0]["properties"] as? [String: Any])?["route_color"] as? String, "00AA00")
        // Without shapes: each direction's main pattern through its stops.
        let plain = try object(try route(["R1", "--format", "geojson"]))
        let lines = try XCTUnwrap(plain["features"] as? [[String: Any]])
        XCTAssertEqual(lines.map { ($0["properties"] as? [String: Any])?["path"] as? String }, ["stops", "stops"])
        XCTAssertEqual(((lines[0]["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])?.count, 3)
        // The same route_id in two feeds: FEED:ID picks one.
        XCTAssertEqual(try CommandRun.transit(["import", feed, "--feed", "copy", "--db", db, "--quiet"]).status, 0)
        let ambiguous = try route(["R"], db: db)
        XCTAssertEqual(ambiguous.status, 64)
        XCTAssertTrue(ambiguous.stderr.contains("several feeds have route_id 'R'; give one as FEED:ID: copy:R (1), lines:R (1)"), ambiguous.stderr)
        XCTAssertEqual(try object(try route(["copy:R", "--format", "json"], db: db))["feed"] as? String, "copy")
    }
}
