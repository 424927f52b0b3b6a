import FetchRequest

/// A row of `routes`: a line as riders know it ("1G", "Nachtlinie").
public struct Route: ModelRecord, Sendable, Equatable {
    public static let tableName = "routes"
    public static let entityName = "routes"

    /// The columns of `routes`, each declared once (routes.txt's fields under their own names).
    public enum Columns {
        public static let key = DeclaredColumn<Route>("id", .integer, primaryKey: true)
        public static let feed = DeclaredColumn<Route>("feed", .integer, notNull: true)
        public static let routeID = DeclaredColumn<Route>.field("route_id", .text, notNull: true)
        public static let agency = DeclaredColumn<Route>.key("agency", shownAs: "agency_id", keyPath: "agency.agency_id")
        public static let shortName = DeclaredColumn<Route>.field("route_short_name", .text)
        public static let longName = DeclaredColumn<Route>.field("route_long_name", .text)
        public static let description = DeclaredColumn<Route>.field("route_desc", .text)
        public static let type = DeclaredColumn<Route>.field("route_type", .integer, as: TransitModel.routeTypes)
        public static let url = DeclaredColumn<Route>.field("route_url", .text)
        /// `route_color` and `route_text_color`: hex without `#`.
        public static let color = DeclaredColumn<Route>.field("route_color", .text)
        public static let textColor = DeclaredColumn<Route>.field("route_text_color", .text)
        public static let sortOrder = DeclaredColumn<Route>.field("route_sort_order", .integer)

        /// Every column, in the table's order.
        static let all = [key, feed, routeID, agency, shortName, longName, description, type, url, color, textColor, sortOrder]
        /// The columns a `Route` reads.
        static let read = [key, feed, routeID, agency, shortName, longName, type, color, textColor, sortOrder]
    }

    public static let columnNames = Columns.read.names()

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
    static let columns = (key: RecordColumn(Columns.key), feed: RecordColumn(Columns.feed), routeID: RecordColumn(Columns.routeID),
                          agency: RecordColumn(Columns.agency), shortName: RecordColumn(Columns.shortName),
                          longName: RecordColumn(Columns.longName), type: RecordColumn(Columns.type),
                          color: RecordColumn(Columns.color), textColor: RecordColumn(Columns.textColor),
                          sortOrder: RecordColumn(Columns.sortOrder))

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
        public let routeID = ModelKey<Route, String>(Columns.routeID.name)
        public let shortName = ModelKey<Route, String?>(Columns.shortName.name)
        public let longName = ModelKey<Route, String?>(Columns.longName.name)
        public let type = ModelKey<Route, Int?>(Columns.type.name)
        public let agency = ModelKey<Route, Agency>("agency")
        public let trips = ModelKey<Route, ToMany<Trip>>("trips")
    }

    public static let keys = Keys()
}
