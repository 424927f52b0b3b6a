import FetchRequest

/// A row of `stops`: a stop, platform, station, entrance, generic node or boarding area.
public struct Stop: Entity, Sendable, Equatable {
    public static let tableName = "stops"
    public static let columnNames = ["id", "stop_id", "stop_name", "stop_lat", "stop_lon", "location_type", "parent", "platform_code", "feed"]

    /// The integer key inside the database.
    public let key: Int
    /// The feed's `stop_id`.
    public let stopID: String
    /// The feed's `stop_name` ("" when the feed has none).
    public let name: String
    public let latitude: Double?
    public let longitude: Double?
    /// GTFS `location_type`: 0 stop or platform, 1 station, 2 entrance, 3 generic node, 4 boarding area.
    public let locationType: Int
    /// The key of the parent station, if any.
    public let parent: Int?
    /// The platform code ("2", "B"), if the feed gives one.
    public let platformCode: String?
    /// The key of the feed the stop belongs to (`feeds.id`).
    public let feedKey: Int

    public init(row: Row) throws {
        key = row.int(0)
        stopID = row.string(1)
        name = row.string(2)
        latitude = row.optionalDouble(3)
        longitude = row.optionalDouble(4)
        locationType = row.int(5)
        parent = row.optionalInt(6)
        platformCode = row.optionalString(7)
        feedKey = row.int(8)
    }

    /// The rider's stop listing rule: by default stations and stops or platforms without a parent
    /// (platforms are represented by their station); with `platforms`, every boarding point
    /// (`location_type` 0 or empty, with or without a parent). Entrances, nodes and boarding areas
    /// (2, 3, 4) are never listed.
    public static func listed(platforms: Bool, alias: String = tableName) -> SQLPredicate {
        if platforms { return Column("location_type", of: alias) == 0 }
        return Column("location_type", of: alias).isIn([0, 1]) && Column("parent", of: alias).isNull
    }

    /// Boarding points: where a rider gets on (`location_type` 0 or empty).
    public static func boardingPoints(alias: String = tableName) -> SQLPredicate {
        Column("location_type", of: alias) == 0
    }
}
