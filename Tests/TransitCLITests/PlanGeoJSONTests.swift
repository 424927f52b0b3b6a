import XCTest
import Foundation
import TestSupport

/// `transit plan --format geojson`: how each leg's LineString is drawn. A ride follows its trip's
/// shape between the two calls (cut by `shape_dist_traveled` when the shape and the stop times
/// give it, else where the calls' stops project onto the shape in order), or runs through its
/// calls' stops when there is no usable shape; a walk is a straight line.
///
/// The map: a bent shape BENT, a staircase of three straight segments —
/// (52.50, 13.40) → (52.50, 13.41) east, → (52.51, 13.41) north, → (52.51, 13.42) east — with
/// `shape_dist_traveled` 0, 1000, 2000, 3000 at its points. Stops A, B, C stand a little off it,
/// one on each segment; W is 133 m north of C. On Mondays (2026-03-02) trip T calls at A 08:00,
/// B 08:10, C 08:20. The expected lines are worked out here from that geometry: a segment along a
/// parallel or a meridian makes the foot of a stop's perpendicular keep the stop's longitude or
/// latitude.
final class PlanGeoJSONTests: XCTestCase {
    static let stops = """
        stop_id,stop_name,stop_lat,stop_lon
        A,Alpha,52.5003,13.4045
        B,Bravo,52.505,13.4103
        C,Charlie,52.5098,13.416
        W,Whiskey,52.511,13.416
        """
    /// The stair's corners as (latitude, longitude).
    static let corners = [(52.50, 13.40), (52.50, 13.41), (52.51, 13.41), (52.51, 13.42)]

    /// shapes.txt for `corners` as shape `id`, moved `north` degrees, with or without distances.
    static func shape(_ id: String = "BENT", distances: Bool = true, north: Double = 0) -> String {
        var lines = ["shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence" + (distances ? ",shape_dist_traveled" : "")]
        for (index, corner) in corners.enumerated() {
            lines.append("\(id),\(corner.0 + north),\(corner.1),\(index + 1)" + (distances ? ",\(index * 1000)" : ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// stop_times.txt for trip T at A, B, C, with `shape_dist_traveled` 300, 1500, 2550 or none.
    static func stopTimes(distances: Bool) -> String {
        let rows = [("08:00:00", "A", "300"), ("08:10:00", "B", "1500"), ("08:20:00", "C", "2550")]
        var lines = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence" + (distances ? ",shape_dist_traveled" : "")]
        for (index, row) in rows.enumerated() {
            lines.append("T,\(row.0),\(row.0),\(row.1),\(index + 1)" + (distances ? ",\(row.2)" : ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The feed: trip T on shape `shapeID` (none: nil), with `shapes` and `stopTimes`.
    private func feed(shapeID: String? = "BENT", shapes: String? = PlanGeoJSONTests.shape(), stopTimes: String) -> FeedFixture {
        FeedFixture()
            .with("stops.txt", PlanGeoJSONTests.stops + "\n")
            .with("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type,route_color\nR,A,7,Seven,3,AA0000\n")
            .with("trips.txt", "route_id,service_id,trip_id,shape_id\nR,WD,T,\(shapeID ?? "")\n")
            .with("stop_times.txt", stopTimes)
            .with("shapes.txt", shapes)
    }

    /// Imports `feed` into a new database in `directory`; returns its path.
    private func database(_ feed: FeedFixture, in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("transit.sqlite")
        let run = try CommandRun.transit(["import", try feed.write(to: directory, as: "bent"), "--db", path, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return path
    }

    /// The features `transit plan FROM TO --at "2026-03-02 07:59" --format geojson` writes.
    private func features(_ from: String, _ to: String, db: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let run = try CommandRun.transit(["plan", from, to, "--at", "2026-03-02 07:59", "--format", "geojson", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
        XCTAssertEqual(object["type"] as? String, "FeatureCollection", file: file, line: line)
        return try XCTUnwrap(object["features"] as? [[String: Any]], run.stdout)
    }

    /// The one ride leg's LineString of the plan from `from` to `to`, as (latitude, longitude).
    private func ride(_ from: String, _ to: String, db: String, file: StaticString = #filePath, line: UInt = #line) throws -> [(Double, Double)] {
        let rides = try features(from, to, db: db, file: file, line: line).filter { ($0["properties"] as? [String: Any])?["mode"] as? String == "ride" }
        XCTAssertEqual(rides.count, 1, file: file, line: line)
        return try lineString(of: try XCTUnwrap(rides.first))
    }

    /// A feature's LineString positions as (latitude, longitude).
    private func lineString(of feature: [String: Any]) throws -> [(Double, Double)] {
        let geometry = try XCTUnwrap(feature["geometry"] as? [String: Any])
        XCTAssertEqual(geometry["type"] as? String, "LineString")
        let coordinates = try XCTUnwrap(geometry["coordinates"] as? [[Double]])
        return coordinates.map { ($0[1], $0[0]) }
    }

    /// `actual` and `expected` have the same points, to the 6 decimals GeoJSON is written with.
    private func assertLine(_ actual: [(Double, Double)], _ expected: [(Double, Double)], _ message: String = "",
                            file: StaticString = #filePath, line: UInt = #line) {
        let describe = { (points: [(Double, Double)]) in points.map { "(\($0.0), \($0.1))" }.joined(separator: " ") }
        let same = actual.count == expected.count && zip(actual, expected).allSatisfy { abs($0.0 - $1.0) <= 1e-6 && abs($0.1 - $1.1) <= 1e-6 }
        if !same { XCTFail("\(message.isEmpty ? "" : message + ": ")\(describe(actual)) is not \(describe(expected))", file: file, line: line) }
    }

    /// The place at `shape_dist_traveled` `distance` on the stair: its corners are 1000 apart.
    private func stairPoint(atDistance distance: Double) -> (Double, Double) {
        let corners = PlanGeoJSONTests.corners
        let segment = min(Int(distance / 1000), corners.count - 2)
        let fraction = (distance - Double(segment) * 1000) / 1000
        let (a, b) = (corners[segment], corners[segment + 1])
        return (a.0 + fraction * (b.0 - a.0), a.1 + fraction * (b.1 - a.1))
    }

    func testARideFollowsTheShapeCutAtItsCallsDistances() throws {
        let directory = TemporaryDirectory()
        let db = try database(feed(stopTimes: PlanGeoJSONTests.stopTimes(distances: true)), in: directory)
        let corners = PlanGeoJSONTests.corners
        // A at 300 is 30 % along the first segment (not under A, which is at 45 %); C at 2550 halfway
        // along the last (not under C, at 60 %): the distances decide, not the stops' positions.
        assertLine(try ride("A", "C", db: db), [stairPoint(atDistance: 300), corners[1], corners[2], stairPoint(atDistance: 2550)])
        XCTAssertEqual(stairPoint(atDistance: 300).1, 13.403, accuracy: 1e-9)
        // B at 1500 cuts the middle segment halfway.
        assertLine(try ride("A", "B", db: db), [stairPoint(atDistance: 300), corners[1], (52.505, 13.41)])
        assertLine(try ride("B", "C", db: db), [(52.505, 13.41), corners[2], stairPoint(atDistance: 2550)])
    }

    func testARideWithoutDistancesFollowsTheShapeBetweenItsStopsProjections() throws {
        let corners = PlanGeoJSONTests.corners
        // The foot of each stop's perpendicular on its segment: A and C keep their longitude on
        // the east-going segments, B its latitude on the north-going one.
        let (a, b, c) = ((52.50, 13.4045), (52.505, 13.41), (52.51, 13.416))
        for (name, shapes, stopTimes) in [("stop times without distances", PlanGeoJSONTests.shape(), PlanGeoJSONTests.stopTimes(distances: false)),
                                         ("a shape without distances", PlanGeoJSONTests.shape(distances: false), PlanGeoJSONTests.stopTimes(distances: true))] {
            let directory = TemporaryDirectory()
            let db = try database(feed(shapes: shapes, stopTimes: stopTimes), in: directory)
            assertLine(try ride("A", "C", db: db), [a, corners[1], corners[2], c], name)
            assertLine(try ride("A", "B", db: db), [a, corners[1], b], name)
            assertLine(try ride("B", "C", db: db), [b, corners[2], c], name)
        }
    }

    func testARideOnAnOutAndBackShapeTakesEachCallOnThePassTheTripMakesThen() throws {
        // Out along 52.5000 to 13.42, across, back along 52.5002. R stands nearer the way out
        // (8.9 m) than the way back (13.3 m), but the trip calls there after turning at F.
        let shapes = """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence
            BACK,52.5000,13.400,1
            BACK,52.5000,13.420,2
            BACK,52.5002,13.420,3
            BACK,52.5002,13.400,4
            """
        let feed = FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nO,Oscar,52.4999,13.401\nF,Foxtrot,52.5001,13.4205\nR,Romeo,52.50008,13.41\n")
            .with("trips.txt", "route_id,service_id,trip_id,shape_id\nR,WD,T,BACK\n")
            .with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,O,1\nT,08:10:00,08:10:00,F,2\nT,08:20:00,08:20:00,R,3\n")
            .with("shapes.txt", shapes + "\n")
        let directory = TemporaryDirectory()
        let db = try database(feed, in: directory)
        assertLine(try ride("O", "R", db: db), [(52.50, 13.401), (52.50, 13.42), (52.5002, 13.42), (52.5002, 13.41)])
        assertLine(try ride("O", "F", db: db), [(52.50, 13.401), (52.50, 13.42), (52.5001, 13.42)])
    }

    func testARideWithoutAUsableShapeRunsThroughItsStopsInOrder() throws {
        let stops = [(52.5003, 13.4045), (52.505, 13.4103), (52.5098, 13.416)]
        let cases: [(String, FeedFixture)] = [
            ("no shape_id", feed(shapeID: nil, shapes: nil, stopTimes: PlanGeoJSONTests.stopTimes(distances: false))),
            ("a shape_id shapes.txt lacks", feed(shapeID: "NONE", stopTimes: PlanGeoJSONTests.stopTimes(distances: true))),
            ("a shape of one point", feed(shapes: "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nBENT,52.50,13.40,1\n",
                                          stopTimes: PlanGeoJSONTests.stopTimes(distances: false))),
            // 0.02° (2.2 km) north: farther from every stop than a cut may be.
            ("a shape 2 km away, cut by projection", feed(shapes: PlanGeoJSONTests.shape(distances: false, north: 0.02),
                                                          stopTimes: PlanGeoJSONTests.stopTimes(distances: false))),
            ("a shape 2 km away, cut by distance", feed(shapes: PlanGeoJSONTests.shape(north: 0.02), stopTimes: PlanGeoJSONTests.stopTimes(distances: true))),
        ]
        for (name, feed) in cases {
            let directory = TemporaryDirectory()
            let db = try database(feed, in: directory)
            assertLine(try ride("A", "C", db: db), stops, name)
        }
    }

    func testAWalkIsAStraightLineAndTheFeaturesKeepTheirProperties() throws {
        let directory = TemporaryDirectory()
        let db = try database(feed(stopTimes: PlanGeoJSONTests.stopTimes(distances: true)), in: directory)
        let legs = try features("A", "W", db: db)
        XCTAssertEqual(legs.count, 2)
        let ride = try XCTUnwrap(legs.first?["properties"] as? [String: Any])
        XCTAssertEqual(Set(ride.keys), ["journey", "leg", "mode", "departure", "arrival", "route_short_name", "stroke"])
        XCTAssertEqual(ride["mode"] as? String, "ride")
        XCTAssertEqual(ride["stroke"] as? String, "#AA0000")
        XCTAssertEqual(ride["departure"] as? String, "2026-03-02T08:00:00+01:00")
        let walk = try XCTUnwrap(legs.last?["properties"] as? [String: Any])
        XCTAssertEqual(Set(walk.keys), ["journey", "leg", "mode", "departure", "arrival", "metres"])
        XCTAssertEqual(walk["mode"] as? String, "walk")
        XCTAssertEqual(walk["leg"] as? Int, 2)
        // From C to W, straight: the two stops and nothing between.
        assertLine(try lineString(of: try XCTUnwrap(legs.last)), [(52.5098, 13.416), (52.511, 13.416)])
        // The ride ends on the shape where C's distance cuts it; the walk starts at C itself.
        assertLine(Array(try lineString(of: try XCTUnwrap(legs.first)).suffix(1)), [stairPoint(atDistance: 2550)])
    }
}
