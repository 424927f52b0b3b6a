import XCTest
import Foundation
import TestSupport

/// `transit trip`: a trip's calls in order with the feed's times and the times on a date, and its
/// path as GeoJSON (the shape, else the stops).
final class TripCommandTests: XCTestCase {
    private func trip(_ arguments: [String], db: String? = nil) throws -> CommandRun {
        try CommandRun.transit(["trip"] + arguments + ["--db", try db ?? DemoDatabase.path()])
    }

    private func json(_ run: CommandRun) throws -> [[String: Any]] {
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
    }

    func testCallsComeInOrderWithInterpolatedTimesFlagged() throws {
        let run = try trip(["T1", "--date", "2026-03-02", "--format", "json"])
        let calls = try json(run)
        XCTAssertEqual(run.stderr, "", "T1 runs on a Monday")
        XCTAssertEqual(calls.map { $0["stop_id"] as? String }, ["HBF_1", "GOR", "CAFE", "LODZ", "ZOO"])
        XCTAssertEqual(calls.map { $0["gtfs_departure"] as? String }, ["08:00:00", "08:10:00", "08:20:00", "08:30:00", "08:40:00"])
        XCTAssertEqual(calls.map { $0["interpolated"] as? Bool }, [false, false, true, true, false])
        XCTAssertEqual(calls.first?["platform_code"] as? String, "1")
        XCTAssertEqual(calls.first?["departure"] as? String, "2026-03-02T08:00:00+01:00")
        XCTAssertEqual(Set(calls[0].keys), ["feed", "trip_id", "stop_sequence", "stop_id", "stop_name", "platform_code", "gtfs_arrival",
                                            "gtfs_departure", "interpolated", "pickup_type", "drop_off_type", "service_date", "arrival", "departure",
                                            "delay_s", "realtime", "skipped"])
        let table = try trip(["T1", "--date", "2026-03-02"])
        XCTAssertTrue(table.stdout.hasPrefix("Trip T1: route 1 Hauptbahnhof – Tierpark to Tierpark, direction 0 (Outbound), Lindenauer Verkehrsbetriebe\nservice WD: Mon–Fri, 2026-01-01 to 2026-12-31; 1 date removed; on 2026-03-02\n"), table.stdout)
        XCTAssertTrue(table.stdout.contains("~08:20:00"), table.stdout)
    }

    func testATripPastMidnightAndADateItDoesNotRunOn() throws {
        let monday = try json(try trip(["T3", "--date", "2026-03-02", "--format", "json"]))
        XCTAssertEqual(monday.map { $0["departure"] as? String },
                       ["2026-03-02T23:50:00+01:00", "2026-03-03T00:05:00+01:00", "2026-03-03T01:10:00+01:00", "2026-03-03T01:30:00+01:00"])
        let saturday = try trip(["T3", "--date", "2026-03-07", "--format", "csv"])
        XCTAssertEqual(saturday.status, 0)
        XCTAssertEqual(saturday.stderr, "Note: trip T3 does not run on 2026-03-07 (service WD: Mon–Fri, 2026-01-01 to 2026-12-31; 1 date removed); times are shown as if it did\n")
        XCTAssertEqual(saturday.stdout.split(separator: "\r\n").count, 5, "a header and the four calls")
        let unknown = try trip(["NOPE"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("no trip has trip_id 'NOPE'"), unknown.stderr)
        XCTAssertEqual(try trip(["T1", "--date", "2026-02-30"]).status, 64)
    }

    func testGeoJSONDrawsTheShapeElseTheStops() throws {
        let directory = TemporaryDirectory()
        let feed = try FeedFixture()
            .with("trips.txt", "route_id,service_id,trip_id,shape_id\nR,WD,T,SH\nR,WD,U,\n")
            .with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,S1,1\nT,08:10:00,08:10:00,S2,2\nU,09:00:00,09:00:00,S3,1\nU,09:10:00,09:10:00,S1,2\n")
            .with("shapes.txt", "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH,52.51,13.41,20\nSH,52.5,13.4,10\nSH,52.505,13.43,15\n")
            .write(to: directory, as: "shaped")
        let db = directory.file("db.sqlite")
        XCTAssertEqual(try CommandRun.transit(["import", feed, "--db", db, "--quiet"]).status, 0)
        func features(_ id: String) throws -> [[String: Any]] {
            let run = try trip([id, "--date", "2026-03-02", "--format", "geojson"], db: db)
            XCTAssertEqual(run.status, 0, run.stderr)
            let collection = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
            return try XCTUnwrap(collection["features"] as? [[String: Any]])
        }
        let shaped = try features("T")
        let line = try XCTUnwrap(shaped.first?["geometry"] as? [String: Any])
        XCTAssertEqual(line["type"] as? String, "LineString")
        XCTAssertEqual(line["coordinates"] as? [[Double]], [[13.4, 52.5], [13.43, 52.505], [13.41, 52.51]], "the shape's points by shape_pt_sequence")
        XCTAssertEqual((shaped.first?["properties"] as? [String: Any])?["path"] as? String, "shape")
        XCTAssertEqual(shaped.dropFirst().map { ($0["geometry"] as? [String: Any])?["type"] as? String }, ["Point", "Point"])
        let plain = try features("U")
        XCTAssertEqual((plain.first?["geometry"] as? [String: Any])?["coordinates"] as? [[Double]], [[13.42, 52.52], [13.4, 52.5]], "the stops in call order")
        XCTAssertEqual((plain.first?["properties"] as? [String: Any])?["path"] as? String, "stops")
        // The same trip_id in two feeds: FEED:ID picks one.
        XCTAssertEqual(try CommandRun.transit(["import", feed, "--feed", "copy", "--db", db, "--quiet"]).status, 0)
        let ambiguous = try trip(["T"], db: db)
        XCTAssertEqual(ambiguous.status, 64)
        XCTAssertTrue(ambiguous.stderr.contains("several feeds have trip_id 'T'; give one as FEED:ID: copy:T (), shaped:T ()"), ambiguous.stderr)
        XCTAssertEqual(try features("copy:T").count, 3)
    }

    /// On a real feed, every call list equals the feed's own stop_times for that trip, in order, and
    /// the GeoJSON line equals the trip's shape.
    func testRealTripsEqualTheFeedsStopTimesAndShapes() throws {
        guard let cairns = Paths.sharedFeed("cairns_gtfs.zip") else {
            throw XCTSkip("../shared/feeds/cairns_gtfs.zip is absent: the real-trip test is skipped")
        }
        let db = try DemoDatabase.path(feed: cairns)
        let script = """
            import csv, io, json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            read = lambda name: list(csv.DictReader(io.StringIO(z.read(name).decode("utf-8-sig"))))
            trips = read("trips.txt")[::97][:8]
            times = {}
            for row in read("stop_times.txt"):
                times.setdefault(row["trip_id"], []).append(row)
            shapes = {}
            for row in read("shapes.txt"):
                shapes.setdefault(row["shape_id"], []).append(row)
            out = []
            for trip in trips:
                calls = sorted(times.get(trip["trip_id"], []), key=lambda r: int(r["stop_sequence"]))
                points = sorted(shapes.get(trip.get("shape_id", ""), []), key=lambda r: int(r["shape_pt_sequence"]))
                out.append({"trip": trip["trip_id"], "stops": [c["stop_id"] for c in calls],
                            "times": [c["departure_time"].strip() for c in calls],
                            "shape": [[float(p["shape_pt_lon"]), float(p["shape_pt_lat"])] for p in points]})
            print(json.dumps(out))
            """
        let expected = try CommandRun.run("/usr/bin/env", ["python3", "-c", script, cairns])
        XCTAssertEqual(expected.status, 0, expected.stderr)
        let trips = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(expected.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(trips.count, 8)
        for expectedTrip in trips {
            let id = try XCTUnwrap(expectedTrip["trip"] as? String)
            let calls = try json(try trip([id, "--format", "json"], db: db))
            XCTAssertEqual(calls.map { $0["stop_id"] as? String }, (expectedTrip["stops"] as? [String]) ?? [], id)
            let given = (expectedTrip["times"] as? [String]) ?? []
            for (call, time) in zip(calls, given) where !time.isEmpty {
                let seconds = time.split(separator: ":").map { Int($0)! }
                let formatted = String(format: "%02d:%02d:%02d", seconds[0], seconds[1], seconds[2])
                XCTAssertEqual(call["gtfs_departure"] as? String, formatted, id)
            }
            let run = try trip([id, "--format", "geojson"], db: db)
            let collection = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let line = try XCTUnwrap(((collection["features"] as? [[String: Any]])?.first?["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
            let shape = (expectedTrip["shape"] as? [[Double]]) ?? []
            if shape.count >= 2 {
                XCTAssertEqual(line.count, shape.count, id)
                for (a, b) in zip(line, shape) {
                    XCTAssertEqual(a[0], b[0], accuracy: 1e-7, id)
                    XCTAssertEqual(a[1], b[1], accuracy: 1e-7, id)
                }
            }
        }
    }
}
