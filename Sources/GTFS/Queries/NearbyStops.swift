import FetchRequest

/// A stop found near a point, with its great-circle distance.
public struct NearbyStop: Sendable, Equatable {
    public let stop: Stop
    /// Metres from the query point (haversine).
    public let distance: Double
}

/// "Which stops are near this point": Core Data's two-step nearby search, made right everywhere.
///
/// Step one is a fetch request with a bounding-box predicate that the `stops(stop_lon, stop_lat)`
/// index answers with a `SEARCH` (two longitude ranges across the 180° meridian, every longitude
/// near a pole). Step two computes the haversine distance of each candidate, keeps those within the
/// radius, sorts by distance then `stop_id`, and only then applies the limit, so SQL never cuts a
/// nearer stop.
public struct NearbyStopsQuery: Sendable {
    public var latitude: Double
    public var longitude: Double
    /// Metres.
    public var radius: Double = 500
    /// At most this many stops (0: all).
    public var limit: Int = 20
    /// List every boarding point instead of stations and parentless stops.
    public var platforms = false

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The candidate request: the bounding box and the listing rule.
    ///
    ///     SELECT … FROM "stops" WHERE "stops"."stop_lon" BETWEEN ? AND ?
    ///       AND "stops"."stop_lat" BETWEEN ? AND ? AND "stops"."location_type" IN (?, ?) AND "stops"."parent" IS NULL
    public var candidates: FetchRequest<Stop> {
        let box = Geo.boundingBox(latitude: latitude, longitude: longitude, radius: radius)
        let longitudes = Predicate.anyOf(box.longitudes.map {
            Stop.column("stop_lon").between($0.lowerBound, and: $0.upperBound)
        })
        var request = FetchRequest<Stop>()
        request.predicate = longitudes
            && Stop.column("stop_lat").between(box.latitudes.lowerBound, and: box.latitudes.upperBound)
            && Stop.listed(platforms: platforms)
        return request
    }

    /// The stops within the radius, nearest first (ties by `stop_id`), at most `limit`.
    public func run(on database: Database) throws -> [NearbyStop] {
        var found: [NearbyStop] = []
        try database.forEachBatch(candidates) { stops in
            for stop in stops {
                guard let lat = stop.latitude, let lon = stop.longitude else { continue }
                let distance = Geo.distance(latitude, longitude, lat, lon)
                if distance <= radius { found.append(NearbyStop(stop: stop, distance: distance)) }
            }
        }
        found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.stop.stopID.utf8.lexicographicallyPrecedes($1.stop.stopID.utf8) }
        if limit > 0, found.count > limit { found.removeSubrange(limit...) }
        return found
    }
}
