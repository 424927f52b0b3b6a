import FetchRequest

/// A shape of `shapes.txt`: the path vehicles take, its points in `shape_pt_sequence` order.
public struct Shape: Sendable, Equatable {
    /// One point of the path.
    public struct Point: Sendable, Equatable {
        public let latitude: Double
        public let longitude: Double
        public let sequence: Int
        /// `shape_dist_traveled`, when the feed gives it.
        public let distanceTraveled: Double?
    }

    public let shapeID: String
    public let points: [Point]

    /// The shape `shapeID` of `feed`, fetched through the model's `shapes` entity and decoded by
    /// attribute name; nil when the feed has no such shape or the database predates shapes.
    public static func fetch(_ shapeID: String, of feed: Feed, in database: Database) throws -> Shape? {
        var fetch = TransitModel.fetch("shapes", feedKey: feed.key)
        fetch.filter(fetch.required("shape_id") == shapeID)
        fetch.sort(by: [fetch.required("shape_pt_sequence").ascending])
        for name in ["shape_pt_lat", "shape_pt_lon", "shape_pt_sequence", "shape_dist_traveled"] {
            fetch.select(fetch.required(name), as: name)
        }
        var points: [Point] = []
        do {
            try database.forEachRow(SQLGenerator.prepare(fetch.requiredQuery())) { row in
                // The importer requires a position for every point.
                guard let latitude = row.optionalDouble("shape_pt_lat"), let longitude = row.optionalDouble("shape_pt_lon") else { return }
                points.append(Point(latitude: latitude, longitude: longitude, sequence: row.int("shape_pt_sequence"),
                                    distanceTraveled: row.optionalDouble("shape_dist_traveled")))
            }
        } catch let error as DatabaseError where error.isMissingTable {
            return nil
        }
        return points.isEmpty ? nil : Shape(shapeID: shapeID, points: points)
    }
}
