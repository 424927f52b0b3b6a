import FetchRequest

/// A vehicle position from stored realtime data.
public struct VehiclePosition: Sendable {
    public let feed: String
    public let vehicleID: String?
    public let label: String?
    public let tripID: String?
    public let routeID: String?
    /// Degrees; nil when the feed sends no position (the New York subway sends only the stop).
    public let latitude: Double?
    public let longitude: Double?
    public let bearing: Double?
    public let stopID: String?
    /// `INCOMING_AT`, `STOPPED_AT` or `IN_TRANSIT_TO`; nil when the message gives no stop.
    public let status: String?
    /// When the position was measured, POSIX seconds.
    public let timestamp: Int?
    /// Metres from the point asked, with `near`.
    public let distance: Double?
}

/// "Where are the vehicles": the stored positions of the feeds whose vehicle data is fresh, all of
/// them, those near a point, of a route, or of a trip.
public struct VehicleListing: Sendable {
    /// A point and radius in metres: only vehicles with a position within it, nearest first.
    public var near: (latitude: Double, longitude: Double, radius: Double)?
    /// Only vehicles serving this route (by the descriptor's route_id or their trip's route).
    public var route: (feed: Feed, key: Int)?
    /// Only the vehicles serving this trip.
    public var trip: (feed: Feed, key: Int)?

    public init() {}

    /// The oldest header timestamp of the sources that held vehicle positions, per feed key.
    public static func timestamps(in transit: TransitDatabase) throws -> [Int: Int] {
        let query = Query(table: "realtime_sources").select([SelectedProperty(Column("feed")), SelectedProperty(Column("timestamp").min, as: "oldest")])
            .filter(Column("feed").isIn(transit.feeds.map(\.key)) && Column("vehicles") > 0 && Column("timestamp").isNotNull)
            .grouped(by: [Column("feed")])
        var found: [Int: Int] = [:]
        do {
            try transit.database.forEachRow(SQLGenerator.prepare(query)) { found[$0.int("feed")] = $0.int("oldest") }
        } catch let error as DatabaseError where error.isMissingTable {
            // No realtime data was ever read into this database.
        }
        return found
    }

    /// The vehicles of `feeds` (keys) that match; order: distance with `near`, else feed name,
    /// route_id, vehicle id or label.
    public func run(on transit: TransitDatabase, feeds: [Int]) throws -> [VehiclePosition] {
        guard !feeds.isEmpty else { return [] }
        var query = Query(table: "realtime_vehicles", alias: "v")
            .select(Column("feed", of: "v"), Column("vehicle_id", of: "v"), Column("label", of: "v"), Column("trip_id", of: "v"),
                    Column("route_id", of: "v"), Column("lat", of: "v"), Column("lon", of: "v"), Column("bearing", of: "v"),
                    Column("stop_id", of: "v"), Column("status", of: "v"), Column("timestamp", of: "v"))
            .filter(Column("feed", of: "v").isIn(feeds))
        if let trip {
            query = query.filter(Column("trip", of: "v") == trip.key)
        }
        if let route {
            // The descriptor's route_id, or a trip of the route.
            var routeID = ""
            try transit.database.forEachRow(SQLGenerator.prepare(Query(table: "routes").select(Column("route_id")).filter(Column("id") == route.key))) {
                routeID = $0.string(0)
            }
            query = query.filter(Column("feed", of: "v") == route.feed.key && (Column("route_id", of: "v") == routeID
                || Column("trip", of: "v").isIn(Query(table: "trips").select(Column("id")).filter(Column("route") == route.key))))
        }
        var found: [VehiclePosition] = []
        do {
            try transit.database.forEachRow(SQLGenerator.prepare(query)) { row in
                let latitude = row.optionalDouble("lat"), longitude = row.optionalDouble("lon")
                var distance: Double?
                if let near {
                    guard let latitude, let longitude else { return }
                    let metres = Geo.distance(near.latitude, near.longitude, latitude, longitude)
                    guard metres <= near.radius else { return }
                    distance = metres
                }
                let status = row.optionalInt("status").map { ["INCOMING_AT", "STOPPED_AT", "IN_TRANSIT_TO"].indices.contains($0) ? ["INCOMING_AT", "STOPPED_AT", "IN_TRANSIT_TO"][$0] : String($0) }
                found.append(VehiclePosition(
                    feed: transit.feedName(ofKey: FeedKeys.base(of: row.int("feed"))), vehicleID: row.optionalString("vehicle_id"),
                    label: row.optionalString("label"), tripID: row.optionalString("trip_id"), routeID: row.optionalString("route_id"),
                    latitude: latitude, longitude: longitude, bearing: row.optionalDouble("bearing"), stopID: row.optionalString("stop_id"),
                    status: status, timestamp: row.optionalInt("timestamp"), distance: distance))
            }
        } catch let error as DatabaseError where error.isMissingTable {
            return []
        }
        found.sort { a, b in
            if let da = a.distance, let db = b.distance, da != db { return da < db }
            if a.feed != b.feed { return feedOrder(a.feed, b.feed) }
            if (a.routeID ?? "") != (b.routeID ?? "") { return (a.routeID ?? "").utf8.lexicographicallyPrecedes((b.routeID ?? "").utf8) }
            return (a.vehicleID ?? a.label ?? "").utf8.lexicographicallyPrecedes((b.vehicleID ?? b.label ?? "").utf8)
        }
        return found
    }
}
