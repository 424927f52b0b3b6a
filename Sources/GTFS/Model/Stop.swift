import FetchRequest

/// A row of `stops`: a stop, platform, station, entrance, generic node or boarding area.
public struct Stop: ModelRecord, Sendable, Equatable {
    public static let tableName = "stops"
    public static let entityName = "stops"

    /// The columns of `stops`, each declared once (stops.txt's fields under their own names).
    public enum Columns {
        public static let key = DeclaredColumn<Stop>("id", .integer, primaryKey: true)
        public static let feed = DeclaredColumn<Stop>("feed", .integer, notNull: true)
        public static let stopID = DeclaredColumn<Stop>.field("stop_id", .text, notNull: true)
        public static let code = DeclaredColumn<Stop>.field("stop_code", .text)
        public static let name = DeclaredColumn<Stop>.field("stop_name", .text)
        /// The name folded as searches fold it (`NameNormalizer`), which no record shows.
        public static let normalizedName = DeclaredColumn<Stop>("normalized_name", .text, notNull: true)
        public static let description = DeclaredColumn<Stop>.field("stop_desc", .text)
        public static let latitude = DeclaredColumn<Stop>.field("stop_lat", .real)
        public static let longitude = DeclaredColumn<Stop>.field("stop_lon", .real)
        public static let zoneID = DeclaredColumn<Stop>.field("zone_id", .text)
        public static let url = DeclaredColumn<Stop>.field("stop_url", .text)
        public static let locationType = DeclaredColumn<Stop>.field("location_type", .integer, notNull: true, as: TransitModel.locationTypes)
        /// The key of the parent station (`parent_station` in the model and the feed).
        public static let parent = DeclaredColumn<Stop>.key("parent", shownAs: "parent_station", keyPath: "parent_station.stop_id")
        public static let timeZone = DeclaredColumn<Stop>.field("stop_timezone", .text)
        public static let wheelchairBoarding = DeclaredColumn<Stop>.field("wheelchair_boarding", .integer)
        public static let levelID = DeclaredColumn<Stop>.field("level_id", .text)
        public static let platformCode = DeclaredColumn<Stop>.field("platform_code", .text)

        /// Every column, in the table's order.
        static let all = [key, feed, stopID, code, name, normalizedName, description, latitude, longitude, zoneID, url,
                          locationType, parent, timeZone, wheelchairBoarding, levelID, platformCode]
        /// The columns a `Stop` reads.
        static let read = [key, stopID, name, latitude, longitude, locationType, parent, platformCode, feed]
    }

    public static let columnNames = Columns.read.names()

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
    static let columns = (key: RecordColumn(Columns.key), stopID: RecordColumn(Columns.stopID), name: RecordColumn(Columns.name),
                          latitude: RecordColumn(Columns.latitude), longitude: RecordColumn(Columns.longitude),
                          locationType: RecordColumn(Columns.locationType), parent: RecordColumn(Columns.parent),
                          platformCode: RecordColumn(Columns.platformCode), feed: RecordColumn(Columns.feed))

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
        public let stopID = ModelKey<Stop, String>(Columns.stopID.name)
        public let name = ModelKey<Stop, String?>(Columns.name.name)
        public let code = ModelKey<Stop, String?>(Columns.code.name)
        public let latitude = ModelKey<Stop, Double?>(Columns.latitude.name)
        public let longitude = ModelKey<Stop, Double?>(Columns.longitude.name)
        public let locationType = ModelKey<Stop, Int>(Columns.locationType.name)
        public let platformCode = ModelKey<Stop, String?>(Columns.platformCode.name)
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
        if platforms { return Columns.locationType.of(alias) == 0 }
        return Columns.locationType.of(alias).isIn([0, 1]) && Columns.parent.of(alias).isNull
    }

    /// Boarding points: where a rider gets on (`location_type` 0 or empty).
    public static func boardingPoints(alias: String = tableName) -> SQLPredicate {
        Columns.locationType.of(alias) == 0
    }
}
