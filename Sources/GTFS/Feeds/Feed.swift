import FetchRequest

/// A row of `feeds`: one GTFS feed of the database, with what queries need to know of it without
/// counting (its agency time zone, its largest time, whether it runs trips by frequencies).
public struct Feed: Entity, Sendable, Equatable {
    public static let tableName = "feeds"
    public static let columnNames = ["id", "name", "source", "imported_at", "time_zone", "agencies", "largest_time",
                                     "has_frequencies", "stops", "stop_times", "trips", "routes", "first_date", "last_date"]

    /// The feed's key: its rows' keys are in `FeedKeys.range(of: key)`.
    public let key: Int
    /// The name given at import (`FeedName`), unique in the database.
    public let name: String
    /// The path (or URL) it was imported from.
    public let source: String
    /// When it was imported, ISO 8601 in UTC.
    public let importedAt: String
    /// The agency time zone, in which its times are read.
    public let timeZone: AgencyTimeZone
    /// The names of its agencies, in `agency.txt` order.
    public let agencies: [String]
    /// Its largest departure time in seconds (can exceed a day), which bounds the look-back of departures.
    public let largestTime: Int
    /// True when some of its trips are run by `frequencies.txt`.
    public let hasFrequencies: Bool
    public let stops: Int
    public let stopTimes: Int
    public let trips: Int
    public let routes: Int
    /// The first and last date any of its services runs.
    public let serviceDates: ClosedRange<ServiceDate>?

    /// The tables this feed has to itself.
    public var tables: FeedTables { FeedTables(feed: key) }

    /// Every key the feed's rows can have.
    public var keys: ClosedRange<Int> { FeedKeys.range(of: key) }

    /// The record's columns by name (requests filter and sort by them, the importer writes them).
    static let columns = (key: RecordColumn<Feed>("id"), name: RecordColumn<Feed>("name"), source: RecordColumn<Feed>("source"),
                                  importedAt: RecordColumn<Feed>("imported_at"), timeZone: RecordColumn<Feed>("time_zone"),
                                  agencies: RecordColumn<Feed>("agencies"), largestTime: RecordColumn<Feed>("largest_time"),
                                  hasFrequencies: RecordColumn<Feed>("has_frequencies"), stops: RecordColumn<Feed>("stops"),
                                  stopTimes: RecordColumn<Feed>("stop_times"), trips: RecordColumn<Feed>("trips"), routes: RecordColumn<Feed>("routes"),
                                  firstDate: RecordColumn<Feed>("first_date"), lastDate: RecordColumn<Feed>("last_date"))

    /// Every feed, by name: the order listings and lookups take them in.
    static let byName = FetchRequest<Feed>().sorted(by: [column(columns.name).ascending])

    /// The keys of the database's feeds.
    static func allKeys(in database: Database) throws -> [Int] {
        try database.fetchIdentifiers(FetchRequest<Feed>()).map { Int($0) }
    }

    public init(row: Row) throws {
        let c = Feed.columns
        key = row.int(c.key)
        name = row.string(c.name)
        source = row.optionalString(c.source) ?? ""
        importedAt = row.optionalString(c.importedAt) ?? ""
        let zoneName = row.string(c.timeZone)
        guard let zone = AgencyTimeZone(identifier: zoneName) else {
            throw TransitError.unknownTimeZone(feed: name, zone: zoneName)
        }
        timeZone = zone
        agencies = row.optionalString(c.agencies).map { $0.split(separator: "\n").map(String.init) } ?? []
        largestTime = row.int(c.largestTime)
        hasFrequencies = row.int(c.hasFrequencies) != 0
        stops = row.optionalInt(c.stops) ?? 0
        stopTimes = row.optionalInt(c.stopTimes) ?? 0
        trips = row.optionalInt(c.trips) ?? 0
        routes = row.optionalInt(c.routes) ?? 0
        if let first = row.optionalInt(c.firstDate).flatMap(ServiceDate.init(yyyymmdd:)),
           let last = row.optionalInt(c.lastDate).flatMap(ServiceDate.init(yyyymmdd:)), first <= last {
            serviceDates = first...last
        } else {
            serviceDates = nil
        }
    }
}
