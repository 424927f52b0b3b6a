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

    public init(row: Row) throws {
        key = row.int(0)
        name = row.string(1)
        source = row.optionalString(2) ?? ""
        importedAt = row.optionalString(3) ?? ""
        let zoneName = row.string(4)
        guard let zone = AgencyTimeZone(identifier: zoneName) else {
            throw TransitError.unknownTimeZone(feed: name, zone: zoneName)
        }
        timeZone = zone
        agencies = row.optionalString(5).map { $0.split(separator: "\n").map(String.init) } ?? []
        largestTime = row.int(6)
        hasFrequencies = row.int(7) != 0
        stops = row.optionalInt(8) ?? 0
        stopTimes = row.optionalInt(9) ?? 0
        trips = row.optionalInt(10) ?? 0
        routes = row.optionalInt(11) ?? 0
        if let first = row.optionalInt(12).flatMap(ServiceDate.init(yyyymmdd:)),
           let last = row.optionalInt(13).flatMap(ServiceDate.init(yyyymmdd:)), first <= last {
            serviceDates = first...last
        } else {
            serviceDates = nil
        }
    }
}
