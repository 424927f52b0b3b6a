import FetchRequest

/// A row of `stops`: a stop, platform, station, entrance, generic node or boarding area.
public struct Stop: ModelRecord, Sendable, Equatable {
    public static let tableName = "stops"
    public static let entityName = "stops"
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

    /// The record's columns by name (`NearbyStops` reads the coordinates before decoding).
    static let columns = (key: RecordColumn<Stop>("id"), stopID: RecordColumn<Stop>("stop_id"), name: RecordColumn<Stop>("stop_name"),
                                  latitude: RecordColumn<Stop>("stop_lat"), longitude: RecordColumn<Stop>("stop_lon"),
                                  locationType: RecordColumn<Stop>("location_type"), parent: RecordColumn<Stop>("parent"),
                                  platformCode: RecordColumn<Stop>("platform_code"), feed: RecordColumn<Stop>("feed"))

    public init(row: Row) throws {
        let c = Stop.columns
        key = row.int(c.key)
        stopID = row.string(c.stopID)
        name = row.string(c.name)
        latitude = row.optionalDouble(c.latitude)
        longitude = row.optionalDouble(c.longitude)
        locationType = row.int(c.locationType)
        parent = row.optionalInt(c.parent)
        platformCode = row.optionalString(c.platformCode)
        feedKey = row.int(c.feed)
    }

    /// The keys of `stops` for typed predicates.
    public struct Keys: Sendable {
        public let stopID = ModelKey<Stop, String>("stop_id")
        public let name = ModelKey<Stop, String?>("stop_name")
        public let code = ModelKey<Stop, String?>("stop_code")
        public let latitude = ModelKey<Stop, Double?>("stop_lat")
        public let longitude = ModelKey<Stop, Double?>("stop_lon")
        public let locationType = ModelKey<Stop, Int>("location_type")
        public let platformCode = ModelKey<Stop, String?>("platform_code")
        public let parentStation = ModelKey<Stop, Stop>("parent_station")
        public let children = ModelKey<Stop, ToMany<Stop>>("children")
        public let stopTimes = ModelKey<Stop, ToMany<StopTime>>("stop_times")
    }

    public static let keys = Keys()

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
