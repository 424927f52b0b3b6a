import XCTest
import FetchRequest
import TestSupport
@testable import GTFS

final class NearbyStopsTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory = nil }

    /// A database whose stops are `stops` lines (`stop_id,stop_name,stop_lat,stop_lon[,location_type,parent_station]`).
    private func database(stops: [String]) throws -> TransitDatabase {
        let header = "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n"
        let lines = (stops + ["S1,First,52.5,13.4", "S2,Second,52.51,13.41", "S3,Third,52.52,13.42"]).map { line in
            line + String(repeating: ",", count: 5 - line.filter { $0 == "," }.count)
        }
        let fixture = FeedFixture().with("stops.txt", header + lines.joined(separator: "\n") + "\n")
        let feed = try fixture.write(to: directory)
        try Importer(feedPath: feed, databasePath: directory.file("db.sqlite")).run()
        return try TransitDatabase(path: directory.file("db.sqlite"))
    }

    private func nearby(_ database: TransitDatabase, _ lat: Double, _ lon: Double, radius: Double = 500, limit: Int = 20,
                        platforms: Bool = false) throws -> [String] {
        var query = NearbyStopsQuery(latitude: lat, longitude: lon)
        query.radius = radius
        query.limit = limit
        query.platforms = platforms
        return try query.run(on: database).map(\.stop.stopID)
    }

    func testNearbyCrossesTheAntimeridianInFiji() throws {
        let db = try database(stops: [
            "EAST,Taveuni east,-16.8,179.9990", "WEST,Taveuni west,-16.8,-179.9990",
            "FAR,Far west,-16.8,-179.9800", "OTHER,Other side,-16.8,0",
        ])
        // 180°: 0.001° of longitude at 16.8° S is about 106 m on each side.
        // Both are equally far from the meridian itself.
        XCTAssertEqual(Set(try nearby(db, -16.8, 180)), ["EAST", "WEST"])
        XCTAssertEqual(Set(try nearby(db, -16.8, -180)), ["EAST", "WEST"])
        // From just west of the meridian, WEST is nearer; FAR is 2.1 km away.
        XCTAssertEqual(try nearby(db, -16.8, -179.9995, radius: 300), ["WEST", "EAST"])
        XCTAssertEqual(try nearby(db, -16.8, 179.9995, radius: 2_500), ["EAST", "WEST", "FAR"])
    }

    func testNearbyReachesAcrossTheNorthPole() throws {
        let db = try database(stops: [
            "N0,North 0,89.999,0", "N180,North 180,89.999,180", "N90W,North 90W,89.999,-90", "SOUTHISH,Below,89.9,0",
        ])
        // Each stop is 111 m from the pole, so the circle around the pole holds every longitude.
        XCTAssertEqual(Set(try nearby(db, 90, 0, radius: 150)), ["N0", "N180", "N90W"])
        // Near (not at) the pole the circle reaches over it to N180, 222 m away.
        XCTAssertEqual(try nearby(db, 89.999, 0, radius: 250), ["N0", "N90W", "N180"])
    }

    func testNearbyReachesAcrossTheSouthPole() throws {
        let db = try database(stops: ["S0,South 0,-89.9995,0", "S180,South 180,-89.9995,180", "AMUNDSEN,Station,-89.99,139.27"])
        XCTAssertEqual(try nearby(db, -89.9995, 90, radius: 100), ["S0", "S180"])
        XCTAssertEqual(Set(try nearby(db, -90, 0, radius: 2_000)), ["S0", "S180", "AMUNDSEN"])
    }

    func testRadiusBoundaryIsInclusive() throws {
        let db = try database(stops: ["EDGE,Edge,10.001,20"])
        let exact = Geo.distance(10, 20, 10.001, 20)
        XCTAssertEqual(try nearby(db, 10, 20, radius: exact), ["EDGE"])
        XCTAssertEqual(try nearby(db, 10, 20, radius: exact - 0.001), [])
    }

    func testOrderIsDistanceThenStopIDAndLimitComesAfterTheExactPass() throws {
        // B and A share a place; FAR sits inside the bounding box's corner but outside the circle.
        let db = try database(stops: [
            "FAR,Corner,10.0040,20.0040", "B,Twin,10.001,20", "A,Twin,10.001,20", "NEAR,Near,10.0005,20", "C,Further,10.002,20",
        ])
        XCTAssertEqual(try nearby(db, 10, 20), ["NEAR", "A", "B", "C"])
        XCTAssertEqual(try nearby(db, 10, 20, limit: 2), ["NEAR", "A"])
        XCTAssertEqual(try nearby(db, 10, 20, limit: 0), ["NEAR", "A", "B", "C"])
    }

    /// The keys departures `--near` asks from are the stops the exact pass keeps, whatever the limit.
    func testKeysWithinRadiusAreTheStopsOfTheExactPass() throws {
        let db = try database(stops: [
            "FAR,Corner,10.0040,20.0040", "B,Twin,10.001,20", "A,Twin,10.001,20", "NEAR,Near,10.0005,20", "C,Further,10.002,20",
        ])
        var query = NearbyStopsQuery(latitude: 10, longitude: 20)
        query.limit = 2
        let names = Dictionary(uniqueKeysWithValues: try db.database.fetch(FetchRequest<Stop>()).map { ($0.key, $0.stopID) })
        XCTAssertEqual(Set(try query.keysWithinRadius(on: db).compactMap { names[$0] }), ["NEAR", "A", "B", "C"])
        let demo = try TransitDatabase(path: try importDemo())
        var station = NearbyStopsQuery(latitude: 52.5250, longitude: 13.3690)
        station.radius = 100
        station.platforms = true
        station.limit = 0
        XCTAssertEqual(Set(try station.keysWithinRadius(on: demo)), Set(try station.run(on: demo).map(\.stop.key)))
    }

    func testStationsStandForTheirPlatformsUnlessPlatformsAreAsked() throws {
        let db = try TransitDatabase(path: try importDemo())
        XCTAssertEqual(try nearby(db, 52.5250, 13.3690, radius: 100), ["HBF"])
        XCTAssertEqual(try nearby(db, 52.5250, 13.3690, radius: 100, platforms: true), ["HBF_1", "HBF_2"])
    }

    func testCandidateRequestIsAnIndexSearch() throws {
        let db = try TransitDatabase(path: try importDemo()).database
        for (lat, lon) in [(52.5, 13.4), (-16.8, 180.0), (89.9999, 10.0)] {
            let plan = try db.queryPlan(try NearbyStopsQuery(latitude: lat, longitude: lon).candidates())
            XCTAssertTrue(plan.tree.contains("SEARCH stops USING INDEX stops_by_location"), plan.tree)
            XCTAssertEqual(plan.fullyScannedTables, [], plan.tree)
        }
    }

    private func importDemo() throws -> String {
        let path = directory.file("demo.sqlite")
        try Importer(feedPath: Paths.demoFeed, databasePath: path).run()
        return path
    }
}
