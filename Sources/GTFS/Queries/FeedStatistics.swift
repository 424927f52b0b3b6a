import FetchRequest

/// An overview of an imported feed, built from the fetch-request module's count, aggregate and
/// grouping requests.
public struct FeedStatistics: Sendable {
    /// Rows per table (count requests: `SELECT COUNT(*)`, nothing fetched).
    public let rowCounts: [(table: String, rows: Int)]
    /// The first and last date any service runs (MIN/MAX over `service_days`).
    public let serviceDates: ClosedRange<ServiceDate>?
    /// The earliest and latest departure time of the feed, in seconds (MIN/MAX over `stop_times`).
    public let departureTimes: ClosedRange<Int>?

    /// The tables counted, in order.
    public static let tables = ["agency", "stops", "routes", "trips", "stop_times", "calendar", "calendar_dates",
                                "service_days", "frequencies", "feed_info"]

    /// Reads the overview.
    public init(database: Database) throws {
        rowCounts = try FeedStatistics.tables.map { ($0, try database.count(Query(table: $0))) }
        let dates = try database.fetchDictionaries(Query(table: "service_days").select([
            SelectedProperty(Column("date").min, as: "first"), SelectedProperty(Column("date").max, as: "last"),
        ]))
        if case .integer(let first)? = dates.first?["first"], case .integer(let last)? = dates.first?["last"],
           let from = ServiceDate(yyyymmdd: Int(first)), let to = ServiceDate(yyyymmdd: Int(last)) {
            serviceDates = from...to
        } else {
            serviceDates = nil
        }
        let times = try database.fetchDictionaries(Query(table: "stop_times").select([
            SelectedProperty(Column("departure").min, as: "earliest"), SelectedProperty(Column("departure").max, as: "latest"),
        ]))
        if case .integer(let earliest)? = times.first?["earliest"], case .integer(let latest)? = times.first?["latest"] {
            departureTimes = Int(earliest)...Int(latest)
        } else {
            departureTimes = nil
        }
    }

    /// Departures on `date` counted per stop, most first (ties by `stop_id`), at most `limit`:
    /// a group-by request with a count, an order and a limit. A departure is as in `departures`:
    /// the service runs that day, boarding is allowed, and it is not the trip's last stop.
    public static func busiestStops(on date: ServiceDate, limit: Int, database: Database) throws -> [(stopID: String, name: String, departures: Int)] {
        let departures = countAll
        let query = departuresOn(date)
            .joining(Join(table: "stops", on: Column("id", of: "stops") == Column("stop", of: "st")))
            .select([SelectedProperty(Column("stop_id", of: "stops")), SelectedProperty(Column("stop_name", of: "stops")),
                     SelectedProperty(departures, as: "departures")])
            .grouped(by: [Column("stop", of: "st")])
            .sorted(by: [departures.descending, Column("stop_id", of: "stops").ascending])
            .limited(to: limit)
        var result: [(String, String, Int)] = []
        try database.forEachRow(SQLGenerator.prepare(query)) { result.append(($0.string(0), $0.string(1), $0.int(2))) }
        return result
    }

    /// Departures on `date` from `stopKeys` per hour of the service day (GTFS hours: 24 and later
    /// are after midnight), hours with none left out.
    public static func departuresPerHour(on date: ServiceDate, stopKeys: [Int], database: Database) throws -> [(hour: Int, departures: Int)] {
        let hour = Column("departure", of: "st") / 3600
        let query = departuresOn(date)
            .filter(Column("stop", of: "st").isIn(stopKeys))
            .select([SelectedProperty(hour, as: "hour"), SelectedProperty(countAll, as: "departures")])
            .grouped(by: [hour])
            .sorted(by: [hour.ascending])
        var result: [(Int, Int)] = []
        try database.forEachRow(SQLGenerator.prepare(query)) { result.append(($0.int(0), $0.int(1))) }
        return result
    }

    /// Stop times (alias `st`) that are departures on `date`.
    private static func departuresOn(_ date: ServiceDate) -> Query {
        let lastOfTrip = Query(table: "stop_times", alias: "last")
            .select([SelectedProperty(Column("stop_sequence", of: "last").max)])
            .filter(Column("trip", of: "last") == Column("trip", of: "st"))
        return Query(table: "stop_times", alias: "st")
            .joining(Join(table: "trips", on: Column("id", of: "trips") == Column("trip", of: "st")))
            .filter(Column("service", of: "trips").isIn(Query(table: "service_days").select(Column("service")).filter(Column("date") == date.yyyymmdd)))
            .filter(Column("pickup_type", of: "st").isNot(1))
            .filter(Column("departure", of: "st").isNotNull)
            .filter(Column("stop_sequence", of: "st") < .subquery(lastOfTrip))
    }
}
