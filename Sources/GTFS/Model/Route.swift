import FetchRequest

/// A row of `routes`: a line as riders know it ("1G", "Nachtlinie").
public struct Route: ModelRecord, Sendable, Equatable {
    public static let tableName = "routes"
    public static let entityName = "routes"
    public static let columnNames = ["id", "feed", "route_id", "agency", "route_short_name", "route_long_name", "route_type",
                                     "route_color", "route_text_color", "route_sort_order"]

    /// The integer key inside the database.
    public let key: Int
    public let feedKey: Int
    /// The feed's `route_id`.
    public let routeID: String
    /// The key of its agency, if the feed named one.
    public let agencyKey: Int?
    public let shortName: String?
    public let longName: String?
    /// GTFS `route_type` (3 bus, 0 tram, 800 trolleybus, …).
    public let type: Int?
    /// `route_color` and `route_text_color`, hex without `#`, when the feed gives them.
    public let color: String?
    public let textColor: String?
    public let sortOrder: Int?

    /// The record's columns by name (requests that read a few of them name them here).
    static let columns = (key: RecordColumn<Route>("id"), feed: RecordColumn<Route>("feed"), routeID: RecordColumn<Route>("route_id"),
                                  agency: RecordColumn<Route>("agency"), shortName: RecordColumn<Route>("route_short_name"),
                                  longName: RecordColumn<Route>("route_long_name"), type: RecordColumn<Route>("route_type"),
                                  color: RecordColumn<Route>("route_color"), textColor: RecordColumn<Route>("route_text_color"),
                                  sortOrder: RecordColumn<Route>("route_sort_order"))

    public init(row: Row) throws {
        let c = Route.columns
        key = row.int(c.key)
        feedKey = row.int(c.feed)
        routeID = row.string(c.routeID)
        agencyKey = row.optionalInt(c.agency)
        shortName = row.optionalString(c.shortName)
        longName = row.optionalString(c.longName)
        type = row.optionalInt(c.type)
        color = row.optionalString(c.color)
        textColor = row.optionalString(c.textColor)
        sortOrder = row.optionalInt(c.sortOrder)
    }

    /// The keys of `routes` for typed predicates.
    public struct Keys: Sendable {
        public let routeID = ModelKey<Route, String>("route_id")
        public let shortName = ModelKey<Route, String?>("route_short_name")
        public let longName = ModelKey<Route, String?>("route_long_name")
        public let type = ModelKey<Route, Int?>("route_type")
        public let agency = ModelKey<Route, Agency>("agency")
        public let trips = ModelKey<Route, ToMany<Trip>>("trips")
    }

    public static let keys = Keys()
}
