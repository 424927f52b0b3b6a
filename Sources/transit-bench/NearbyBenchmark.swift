import CSQLite
import FetchRequest
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// 2,000 seeded random nearby queries (radius 800 m, a point within 500 m of a random stop):
/// through the fetch-request module, and the same SQL through one plain prepared C statement with
/// the same exact pass (the floor).
enum NearbyBenchmark {
    static func run(database path: String, count: Int, seed: UInt64) throws {
        let transit = try TransitDatabase(path: path)
        let points = try randomPoints(count: count, seed: seed, in: transit)
        // The floor: the SQL the module generated, prepared once through the C API.
        let sql = try NearbyStopsQuery(latitude: 0, longitude: 0).candidates().sql
        var handle: OpaquePointer?
        sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil)
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            fatalError(String(cString: sqlite3_errmsg(handle)))
        }
        defer {
            sqlite3_finalize(statement)
            sqlite3_close(handle)
        }
        // The module and the floor, timed in turn point by point (`timePairs`).
        let (module, floor) = try timePairs(points, { point in
            var query = NearbyStopsQuery(latitude: point.0, longitude: point.1)
            query.radius = 800
            return try query.run(on: transit).count
        }, { point in
            let box = Geo.boundingBox(latitude: point.0, longitude: point.1, radius: 800)
            let longitudes = box.longitudes[0]
            sqlite3_bind_double(statement, 1, longitudes.lowerBound)
            sqlite3_bind_double(statement, 2, longitudes.upperBound)
            sqlite3_bind_double(statement, 3, box.latitudes.lowerBound)
            sqlite3_bind_double(statement, 4, box.latitudes.upperBound)
            sqlite3_bind_int64(statement, 5, 0)
            sqlite3_bind_int64(statement, 6, 1)
            // The same result the command prints: stop_id, name, coordinates, distance.
            var found: [(distance: Double, id: String, name: String, lat: Double, lon: Double)] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                let lat = sqlite3_column_double(statement, 3), lon = sqlite3_column_double(statement, 4)
                let distance = Geo.distance(point.0, point.1, lat, lon)
                if distance <= 800 {
                    found.append((distance, String(cString: sqlite3_column_text(statement, 1)),
                                  String(cString: sqlite3_column_text(statement, 2)), lat, lon))
                }
            }
            sqlite3_reset(statement)
            found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
            return min(found.count, 20)
        })
        print("nearby, radius 800 m, \(count) seeded random points within 500 m of a stop:")
        report("  fetch-request module", module)
        report("  floor: one C prepared statement", floor)
        print("  ratio module / floor: " + String((median(module.micros) / median(floor.micros) * 100).rounded() / 100))
    }

    /// `count` seeded random points, each within 500 m of a random stop (of the sampled ones):
    /// a random bearing and distance from it.
    private static func randomPoints(count: Int, seed: UInt64, in transit: TransitDatabase) throws -> [(Double, Double)] {
        var generator = SeededGenerator(seed: seed)
        var stops: [(Double, Double)] = []
        try transit.database.forEachRow(SQLGenerator.prepare(
            Query(table: "stops").select(Column("stop_lat"), Column("stop_lon")).filter(Column("stop_lat").isNotNull).filter(try sampledStops(transit)))) {
            stops.append(($0.double(0), $0.double(1)))
        }
        return (0..<count).map { _ in
            let (lat, lon) = stops[Int.random(in: 0..<stops.count, using: &generator)]
            // A point within 500 m: a random bearing and distance.
            let distance = Double.random(in: 0...500, using: &generator) / Geo.earthRadius
            let bearing = Double.random(in: 0..<(2 * .pi), using: &generator)
            let φ1 = lat * .pi / 180
            let φ2 = asin(sin(φ1) * cos(distance) + cos(φ1) * sin(distance) * cos(bearing))
            let λ2 = lon * .pi / 180 + atan2(sin(bearing) * sin(distance) * cos(φ1), cos(distance) - sin(φ1) * sin(φ2))
            return (φ2 * 180 / .pi, λ2 * 180 / .pi)
        }
    }
}
