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

    /// The oldest header timestamp of the sources that held vehicle positions, per feed key (feeds
    /// without such a source are left out). Per feed, over the `realtime_sources` entity of its model:
    ///
    ///     SELECT MIN("realtime_sources"."timestamp") AS "oldest" FROM "realtime_sources"
    ///     WHERE "realtime_sources"."feed" = ? AND "realtime_sources"."vehicles" > ? AND "realtime_sources"."timestamp" IS NOT NULL
    public static func timestamps(in transit: TransitDatabase) throws -> [Int: Int] {
        var found: [Int: Int] = [:]
        do {
            // One fetch per feed: an entity of a feed's model holds that feed's rows only (its
            // scope, `feed = key`, is ANDed with every condition), so no fetch spans feeds; each
            // is a range of the primary key.
            for feed in transit.feeds {
                var sources = TransitModel.fetch("realtime_sources", feedKey: feed.key, inNaturalOrder: true)
                try sources.filter(format: "vehicles > 0 AND timestamp != nil")
                sources.select(try sources.value("timestamp").min, as: "oldest")
                sources.breaksTiesByNaturalOrder = false
                try transit.database.forEachRow(SQLGenerator.prepare(try sources.query())) { row in
                    if let oldest = row.optionalInt("oldest") { found[feed.key] = oldest }
                }
            }
        } catch let error as DatabaseError where error.isMissingTable {
            // No realtime data was ever read into this database.
        }
        return found
    }

    /// The vehicles of `feeds` (keys) that match; order: distance with `near`, else feed name,
    /// route_id, vehicle id or label. Per feed, over the `realtime_vehicles` entity of its model
    /// (with `route`: the descriptor names the route, or the vehicle's trip is one of its trips):
    ///
    ///     SELECT "realtime_vehicles"."vehicle_id", …, "realtime_vehicles"."status" AS "current_status", … FROM "realtime_vehicles"
    ///     LEFT JOIN "trips" AS "realtime_vehicles.trip" ON "realtime_vehicles.trip"."id" = "realtime_vehicles"."trip"
    ///     LEFT JOIN "routes" AS "realtime_vehicles.trip.route" ON "realtime_vehicles.trip.route"."id" = "realtime_vehicles.trip"."route"
    ///     WHERE "realtime_vehicles"."feed" = ? AND ("realtime_vehicles"."route_id" = ? OR "realtime_vehicles.trip.route"."route_id" = ?)
    ///     ORDER BY "realtime_vehicles"."id"
    public func run(on transit: TransitDatabase, feeds: [Int]) throws -> [VehiclePosition] {
        // One fetch per feed, not one with `feed IN (…)`: an entity of a feed's model holds that
        // feed's rows only (its scope, `feed = key`, is ANDed with every condition), so no fetch
        // spans feeds. Each is a range of realtime_vehicles_by_feed, and the rows are sorted here
        // anyway. Vehicles of a route or a trip are those of its feed.
        var asked = feeds
        if let route { asked = asked.filter { $0 == route.feed.key } }
        if let trip { asked = asked.filter { $0 == trip.feed.key } }
        var found: [VehiclePosition] = []
        do {
            for feedKey in asked {
                try collect(feedKey: feedKey, on: transit, into: &found)
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

    /// The statuses of `current_status`, by code.
    private static let statuses = ["INCOMING_AT", "STOPPED_AT", "IN_TRANSIT_TO"]

    /// Appends the matching vehicles of the feed keyed `feedKey` to `found`.
    private func collect(feedKey: Int, on transit: TransitDatabase, into found: inout [VehiclePosition]) throws {
        var vehicles = TransitModel.fetch("realtime_vehicles", feedKey: feedKey, inNaturalOrder: true)
        if let trip {
            vehicles.filter(vehicles.key(of: "trip") == trip.key)
        }
        if let route {
            var routes = TransitModel.fetch("routes", feedKey: feedKey, inNaturalOrder: true)
            routes.filter(routes.key == route.key)
            var routeID = ""
            try transit.database.forEachRow(SQLGenerator.prepare(try routes.query(selecting: ["route_id"]).query)) { routeID = $0.string("route_id") }
            try vehicles.filter(format: "route_id == %@ OR trip.route == %@", arguments: [.text(routeID), .text(routeID)])
        }
        let query = try vehicles.query(selecting: ["vehicle_id", "label", "trip_id", "route_id", "lat", "lon", "bearing", "stop_id",
                                                   "current_status", "timestamp"]).query
        let feedName = transit.feedName(ofKey: FeedKeys.base(of: feedKey))
        try transit.database.forEachRow(SQLGenerator.prepare(query)) { row in
            let latitude = row.optionalDouble("lat"), longitude = row.optionalDouble("lon")
            var distance: Double?
            if let near {
                guard let latitude, let longitude else { return }
                let metres = Geo.distance(near.latitude, near.longitude, latitude, longitude)
                guard metres <= near.radius else { return }
                distance = metres
            }
            let status = row.optionalInt("current_status").map { VehicleListing.statuses.indices.contains($0) ? VehicleListing.statuses[$0] : String($0) }
            found.append(VehiclePosition(
                feed: feedName, vehicleID: row.optionalString("vehicle_id"),
                label: row.optionalString("label"), tripID: row.optionalString("trip_id"), routeID: row.optionalString("route_id"),
                latitude: latitude, longitude: longitude, bearing: row.optionalDouble("bearing"), stopID: row.optionalString("stop_id"),
                status: status, timestamp: row.optionalInt("timestamp"), distance: distance))
        }
    }
}
