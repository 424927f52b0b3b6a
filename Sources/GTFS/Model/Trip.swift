import FetchRequest

/// A row of `trips`: one run of a route on the days of its service.
public struct Trip: ModelRecord, Sendable, Equatable {
    public static let tableName = "trips"
    public static let entityName = "trips"
    public static let columnNames = ["id", "feed", "trip_id", "route", "service", "trip_headsign", "trip_short_name", "direction_id",
                                     "block_id", "shape_id", "wheelchair_accessible", "bikes_allowed"]

    /// The integer key inside the database.
    public let key: Int
    public let feedKey: Int
    /// The feed's `trip_id`.
    public let tripID: String
    public let routeKey: Int
    public let serviceKey: Int
    public let headsign: String?
    public let shortName: String?
    /// 0 or 1, when the feed gives it.
    public let directionID: Int?
    public let blockID: String?
    public let shapeID: String?
    public let wheelchairAccessible: Int?
    public let bikesAllowed: Int?

    /// The record's columns by name (requests that read a few of them name them here).
    static let columns = (key: RecordColumn<Trip>("id"), feed: RecordColumn<Trip>("feed"), tripID: RecordColumn<Trip>("trip_id"),
                                  route: RecordColumn<Trip>("route"), service: RecordColumn<Trip>("service"),
                                  headsign: RecordColumn<Trip>("trip_headsign"), shortName: RecordColumn<Trip>("trip_short_name"),
                                  direction: RecordColumn<Trip>("direction_id"), block: RecordColumn<Trip>("block_id"),
                                  shape: RecordColumn<Trip>("shape_id"), wheelchair: RecordColumn<Trip>("wheelchair_accessible"),
                                  bikes: RecordColumn<Trip>("bikes_allowed"))

    public init(row: Row) throws {
        let c = Trip.columns
        key = row.int(c.key)
        feedKey = row.int(c.feed)
        tripID = row.string(c.tripID)
        routeKey = row.int(c.route)
        serviceKey = row.int(c.service)
        headsign = row.optionalString(c.headsign)
        shortName = row.optionalString(c.shortName)
        directionID = row.optionalInt(c.direction)
        blockID = row.optionalString(c.block)
        shapeID = row.optionalString(c.shape)
        wheelchairAccessible = row.optionalInt(c.wheelchair)
        bikesAllowed = row.optionalInt(c.bikes)
    }

    /// A trip's route (Core Data's to-one relationship; prefetched with `Database.fetchRelated`).
    public static let route = Relationship<Trip, Route>(from: "route", to: "id")

    /// The keys of `trips` for typed predicates.
    public struct Keys: Sendable {
        public let tripID = ModelKey<Trip, String>("trip_id")
        public let headsign = ModelKey<Trip, String?>("trip_headsign")
        public let directionID = ModelKey<Trip, Int?>("direction_id")
        public let serviceID = ModelKey<Trip, String>("service_id")
        public let route = ModelKey<Trip, Route>("route")
        public let stopTimes = ModelKey<Trip, ToMany<StopTime>>("stop_times")
    }

    public static let keys = Keys()
}
