import Foundation
import TestSupport
import XCTest

/// Every query command and every API endpoint that takes a point answers on feeds in all four
/// quadrants of the globe: negative latitudes and longitudes as two words, as `LAT,LON` and after
/// `--`, and the HTTP API (which puts `--` before a place starting with a minus) answering what
/// the command line answers. Nevada (`sample_gtfs`, west of Greenwich), Queensland (`cairns_gtfs`,
/// south of the equator), and hand-made towns at Santiago (south-west), Null Island (0,0) and on
/// the antimeridian in Fiji (stops on both sides of ±180°).
final class AnywhereInTheWorldTests: XCTestCase {
    /// A feed somewhere, a point in it and a moment it runs.
    private struct Place {
        let name: String
        let feed: String
        /// "LAT,LON" with stops around it.
        let middle: String
        /// A moment with departures near `middle` ("YYYY-MM-DD HH:MM", the feed's zone).
        let at: String
        /// The stops of the feed (id, latitude, longitude), read from the feed's own stops.txt.
        let stops: [(id: String, latitude: Double, longitude: Double)]
    }

    private static let folder = TemporaryDirectory()

    /// The hand-made towns.
    private static var towns: [(TownFeed, String)] { [
        (TownFeed(name: "Santiago", latitude: -33.45, longitude: -70.66, timeZone: "America/Santiago"), "2026-03-04 08:00"),
        (TownFeed(name: "Null Island", latitude: 0, longitude: 0, timeZone: "Africa/Abidjan"), "2026-06-01 12:00"),
        (TownFeed(name: "Taveuni", latitude: -16.8, longitude: 179.9995, timeZone: "Pacific/Fiji"), "2026-09-10 07:30"),
    ] }

    /// Every place: the towns, and the shared feeds of Nevada and Queensland (skipped, saying so,
    /// when ../shared is absent; a failure under CI=true).
    private func places() throws -> [Place] {
        var places = try Self.towns.map { town, at in
            Place(name: town.name, feed: try town.feed.write(to: Self.folder, as: town.name), middle: town.middle, at: at,
                  stops: town.stops.map { ($0.id, $0.latitude, $0.longitude) })
        }
        for (file, middle, at) in [("sample_gtfs.zip", "36.905,-116.76", "2008-06-02 06:20"), ("cairns_gtfs.zip", "-16.92,145.77", "2014-06-02 08:00")] {
            guard let feed = Paths.sharedFeed(file) else {
                if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("../shared/feeds/\(file) is absent under CI=true") }
                print("skipped \(file): ../shared/feeds is absent")
                continue
            }
            places.append(Place(name: file, feed: feed, middle: middle, at: at, stops: try Self.stopsInZip(feed)))
        }
        return places
    }

    /// stop_id, stop_lat, stop_lon of a zipped feed's stops.txt, read by Python's csv module (a
    /// reader independent of transit's).
    private static func stopsInZip(_ path: String) throws -> [(id: String, latitude: Double, longitude: Double)] {
        let script = """
            import csv, io, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                for row in csv.DictReader(io.TextIOWrapper(z.open('stops.txt'), encoding='utf-8-sig')):
                    if row.get('stop_lat') and row.get('stop_lon'):
                        print(row['stop_id'], row['stop_lat'], row['stop_lon'], sep='\\t')
            """
        let run = try CommandRun.run("/usr/bin/env", ["python3", "-c", script, path])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return (fields[0], Double(fields[1])!, Double(fields[2])!)
        }
    }

    /// Great-circle distance in metres (the haversine, as docs/commands.md states nearby's).
    private static func distance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.0 - a.0) * radians, dLon = (b.1 - a.1) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.0 * radians) * cos(b.0 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
    }

    private func json(_ run: CommandRun, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        XCTAssertEqual(run.status, 0, "\(what): \(run.stderr)", file: file, line: line)
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8), options: [.fragmentsAllowed])
    }

    /// nearby: the point as two words, as LAT,LON, and after `--` gives the same stops, which are
    /// exactly the feed's stops within the radius (distance computed here from stops.txt).
    func testNearbyTakesEveryFormOfAPointInEveryQuadrant() throws {
        for place in try places() {
            let db = try DemoDatabase.path(feed: place.feed)
            let parts = place.middle.split(separator: ",").map(String.init)
            let forms = [parts, [place.middle], ["--"] + parts, ["--", place.middle]]
            var answers: [NSObject] = []
            for form in forms {
                let options = ["--radius", "1000", "--platforms", "--limit", "0", "--format", "json", "--db", db]
                let arguments = form.first == "--" ? ["nearby"] + options + form : ["nearby"] + form + options
                answers.append(try XCTUnwrap(try json(try CommandRun.transit(arguments), "\(place.name): \(arguments)") as? NSObject))
            }
            XCTAssertEqual(Set(answers).count, 1, "\(place.name): every form of the point gives one answer")
            let rows = try XCTUnwrap(answers[0] as? [[String: Any]])
            let point = (Double(parts[0])!, Double(parts[1])!)
            let expected = place.stops.filter { Self.distance(point, ($0.latitude, $0.longitude)) <= 1000 }.map(\.id)
            XCTAssertFalse(expected.isEmpty, "\(place.name): the point has stops around it")
            XCTAssertEqual(Set(rows.compactMap { $0["stop_id"] as? String }), Set(expected), "\(place.name): the stops within 1 km")
        }
    }

    /// departures, routes, alerts and vehicles near the point, plan between two points a trip
    /// joins, reach from the point: each answers, and the API answers the same questions alike.
    func testEveryCommandAndEndpointAnswersAroundAPointInEveryQuadrant() throws {
        for place in try places() {
            let db = try DemoDatabase.path(feed: place.feed)
            let departures = try XCTUnwrap(try json(try CommandRun.transit(["departures", "--near", place.middle, "--radius", "1000", "--at", place.at,
                                                                          "--within", "60", "--format", "json", "--db", db]), place.name) as? [[String: Any]])
            let first = try XCTUnwrap(departures.first, "\(place.name): departures near \(place.middle) at \(place.at)")
            // The trip of the first departure: plan from its stop's point to its last stop's point.
            let trip = try XCTUnwrap(first["trip_id"] as? String), date = try XCTUnwrap(first["service_date"] as? String)
            let shape = try XCTUnwrap(try json(try CommandRun.transit(["trip", trip, "--date", date, "--format", "geojson", "--db", db]), trip) as? [String: Any])
            let calls = try XCTUnwrap(shape["features"] as? [[String: Any]]).compactMap { feature -> String? in
                guard let geometry = feature["geometry"] as? [String: Any], geometry["type"] as? String == "Point",
                      let coordinates = geometry["coordinates"] as? [Double] else { return nil }
                return "\(coordinates[1]),\(coordinates[0])"
            }
            let boarding = try XCTUnwrap(place.stops.first { $0.id == first["stop_id"] as? String })
            let from = "\(boarding.latitude),\(boarding.longitude)", to = try XCTUnwrap(calls.last)
            let questions: [(api: String, cli: [String])] = [
                ("/api/nearby?lat=\(place.middle.split(separator: ",")[0])&lon=\(place.middle.split(separator: ",")[1])&radius=1000",
                 ["nearby", place.middle, "--radius", "1000"]),
                ("/api/departures?near=\(place.middle)&radius=1000&at=\(place.at)&within=60", ["departures", "--near", place.middle, "--radius", "1000", "--at", place.at, "--within", "60"]),
                ("/api/routes?near=\(place.middle)&radius=1000", ["routes", "--near", place.middle, "--radius", "1000"]),
                ("/api/alerts?near=\(place.middle)&at=\(place.at)", ["alerts", "--near", place.middle, "--at", place.at]),
                ("/api/vehicles?near=\(place.middle)", ["vehicles", "--near", place.middle]),
                ("/api/plan?from=\(from)&to=\(to)&at=\(place.at)", ["plan", from, to, "--at", place.at]),
                ("/api/reach?from=\(place.middle)&at=\(place.at)&within=60", ["reach", place.middle, "--at", place.at, "--within", "60"]),
            ]
            let server = try RunningServer(database: db, arguments: ["--quiet"])
            defer { _ = server.stop() }
            for question in questions {
                let cli = try json(try CommandRun.transit(question.cli + ["--format", "json", "--db", db]), "\(place.name): \(question.cli)")
                let target = question.api.replacingOccurrences(of: " ", with: "+")
                let answer = try server.request(target)
                XCTAssertEqual(answer.status, 200, "\(place.name): \(target): \(answer.text)")
                XCTAssertEqual(try answer.json() as? NSObject, cli as? NSObject, "\(place.name): \(target) answers as transit \(question.cli)")
            }
            let journeys = try XCTUnwrap((try json(try CommandRun.transit(["plan", from, to, "--at", place.at, "--format", "json", "--db", db]), "plan") as? [String: Any])?["journeys"] as? [Any])
            XCTAssertFalse(journeys.isEmpty, "\(place.name): a journey from \(from) to \(to) at \(place.at) (trip \(trip) joins them)")
            let reached = try XCTUnwrap((try json(try CommandRun.transit(["reach", place.middle, "--at", place.at, "--format", "json", "--db", db]), "reach") as? [String: Any])?["stops"] as? [Any])
            XCTAssertFalse(reached.isEmpty, "\(place.name): stops reached from \(place.middle)")
            XCTAssertFalse((try json(try CommandRun.transit(["routes", "--near", place.middle, "--radius", "1000", "--format", "json", "--db", db]), "routes") as? [Any] ?? []).isEmpty,
                           "\(place.name): routes near \(place.middle)")
        }
    }

    /// The map, the board and the trip page in headless Chromium (Tests/Browser/browser_test.py):
    /// in every quadrant the map draws the stops, routes, extent and names the API gives, with no
    /// error line; the board lists the API's departures under the stop's name and the day; the trip
    /// page lists the trip's calls under its headsign. On sample_gtfs it saves a PNG of the map
    /// (TRANSIT_MAP_SCREENSHOT=docs/map.png keeps it: the one docs/serve.md shows).
    func testThePagesDrawEveryQuadrant() throws {
        for place in try places() {
            let db = try DemoDatabase.path(feed: place.feed)
            let departures = try XCTUnwrap(try json(try CommandRun.transit(["departures", "--near", place.middle, "--radius", "1000", "--at", place.at,
                                                                          "--within", "60", "--format", "json", "--db", db]), place.name) as? [[String: Any]])
            let first = try XCTUnwrap(departures.first, "\(place.name): departures near \(place.middle) at \(place.at)")
            let server = try RunningServer(database: db, arguments: ["--quiet"])
            defer { _ = server.stop() }
            let parts = place.middle.split(separator: ",").map(String.init)
            let screenshot = Self.folder.file("map-\(place.name).png")
            let run = try CommandRun.run("/usr/bin/env", [
                "python3", Paths.projectRoot + "/Tests/Browser/browser_test.py", "--base", server.base,
                "--stop", try XCTUnwrap(first["stop_id"] as? String), "--at", place.at, "--trip", try XCTUnwrap(first["trip_id"] as? String),
                "--lat", parts[0], "--lon", parts[1], "--zoom", "15", "--map-screenshot", screenshot,
            ], timeout: 300)
            if run.status == 77 { throw XCTSkip(run.stdout + run.stderr) }
            XCTAssertEqual(run.status, 0, "\(place.name): \(run.stdout)\(run.stderr)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: screenshot), place.name)
            if place.name == "sample_gtfs.zip", let keep = ProcessInfo.processInfo.environment["TRANSIT_MAP_SCREENSHOT"] {
                try? FileManager.default.removeItem(atPath: keep)
                try FileManager.default.copyItem(atPath: screenshot, toPath: keep)
            }
        }
    }

    /// `feeds` gives each feed's extent, the box of its stops as its stops.txt has them; across
    /// the antimeridian the narrow box, west greater than east (as GeoJSON's bbox writes it).
    func testEachFeedsExtentIsTheBoxOfItsStops() throws {
        for place in try places() {
            let db = try DemoDatabase.path(feed: place.feed)
            let feeds = try XCTUnwrap(try json(try CommandRun.transit(["feeds", "--format", "json", "--db", db]), place.name) as? [[String: Any]])
            let box = try ["south", "west", "north", "east"].map { try XCTUnwrap(feeds.first?[$0] as? Double, "\(place.name): \($0)") }
            XCTAssertEqual(box[0], place.stops.map(\.latitude).min()!, accuracy: 1e-6, place.name)
            XCTAssertEqual(box[2], place.stops.map(\.latitude).max()!, accuracy: 1e-6, place.name)
            let longitudes = place.stops.map(\.longitude)
            if place.name == "Taveuni" {
                XCTAssertGreaterThan(box[1], box[3], "across the antimeridian west > east")
                XCTAssertEqual(box[1], longitudes.filter { $0 > 0 }.min()!, accuracy: 1e-6)
                XCTAssertEqual(box[3], longitudes.filter { $0 < 0 }.max()!, accuracy: 1e-6)
            } else {
                XCTAssertEqual(box[1], longitudes.min()!, accuracy: 1e-6, place.name)
                XCTAssertEqual(box[3], longitudes.max()!, accuracy: 1e-6, place.name)
            }
        }
    }
}
