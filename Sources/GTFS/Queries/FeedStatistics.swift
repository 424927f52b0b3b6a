import FetchRequest

/// An overview of the selected feeds, built from the fetch-request module's count, aggregate and
/// grouping requests: every count is an index range of one feed's keys, summed over the feeds.
public struct FeedStatistics: Sendable {
    /// Rows per table (count requests: `SELECT COUNT(*)`, nothing fetched).
    public let rowCounts: [(table: String, rows: Int)]
    /// The first and last date any service runs.
    public let serviceDates: ClosedRange<ServiceDate>?
    /// The earliest and latest departure time, in seconds (MIN/MAX over each feed's stop times).
    public let departureTimes: ClosedRange<Int>?

    /// The tables counted, in order.
    public static let tables = ["agency", "stops", "routes", "trips", "stop_times", "calendar", "calendar_dates",
                                "service_days", "frequencies", "shapes", "feed_info"]

    /// Reads the overview of the feeds `transit` has selected: each table counted in the
    /// feed's scope as `TransitModel` describes it.
    public init(transit: TransitDatabase) throws {
        let database = transit.database
        var counts = Array(repeating: 0, count: FeedStatistics.tables.count)
        var dates: ClosedRange<ServiceDate>?
        var times: ClosedRange<Int>?
        for feed in transit.selectedFeeds {
            let model = TransitModel.model(for: feed)
            for (index, table) in FeedStatistics.tables.enumerated() {
                // Stop times were counted at import (`feeds.stop_times`): no need to read millions of rows.
                do {
                    counts[index] += table == "stop_times" ? feed.stopTimes : try database.count(try FeedStatistics.rows(of: table, in: model))
                } catch let error as DatabaseError where error.isMissingTable {
                    // A table the layout gained after this feed was imported (shapes): none.
                }
            }
            if let range = feed.serviceDates {
                dates = dates.map { min($0.lowerBound, range.lowerBound)...max($0.upperBound, range.upperBound) } ?? range
            }
            var stopTimes = TransitModel.fetch("stop_times", feedKey: feed.key)
            let departure = stopTimes.required("departure_time")
            stopTimes.select(departure.min, as: "earliest")
            stopTimes.select(departure.max, as: "latest")
            let extremes = try database.fetchDictionaries(stopTimes.requiredQuery())
            if case .integer(let earliest)? = extremes.first?["earliest"], case .integer(let latest)? = extremes.first?["latest"] {
                let range = Int(earliest)...Int(latest)
                times = times.map { min($0.lowerBound, range.lowerBound)...max($0.upperBound, range.upperBound) } ?? range
            }
        }
        rowCounts = Array(zip(FeedStatistics.tables, counts))
        serviceDates = dates
        departureTimes = times
    }

    /// The rows of `table` that belong to the feed of `model`, as the model scopes them: its own table, or its
    /// key range in a shared one.
    static func rows(of table: String, in model: ObjectModel) throws -> Query {
        guard let fetch = ModelFetch(entity: table, in: model) else {
            preconditionFailure("FeedStatistics counts \(table), which the model does not describe")
        }
        return try fetch.query(selecting: []).query
    }

    /// Departures on `date` counted per stop, most first (ties by feed name, then `stop_id`), at
    /// most `limit`: per feed a group-by request with a count, an order and a limit, then merged.
    /// A departure is as in `departures`: the service runs that day, boarding is allowed, and it
    /// is not the trip's last stop.
    public static func busiestStops(on date: ServiceDate, limit: Int, transit: TransitDatabase) throws -> [(feed: String, stopID: String, name: String, departures: Int)] {
        var result: [(feed: String, stopID: String, name: String, departures: Int)] = []
        for feed in transit.selectedFeeds {
            var fetch = departuresOn(date, feed: feed.tables)
            let (departures, stopID, stopName) = (countAll, fetch.required("stop.stop_id"), fetch.required("stop.stop_name"))
            fetch.select(stopID, as: "stop_id")
            fetch.select(stopName, as: "stop_name")
            fetch.select(departures, as: "departures")
            fetch.sort(by: [departures.descending, stopID.ascending])
            fetch.limit = limit
            // Grouped by the stop's id and name too (one of each per stop), as standard SQL, which a
            // PostgreSQL store speaks, asks of every column selected beside the count.
            let query = fetch.requiredQuery().grouped(by: [fetch.key(of: "stop"), stopID, stopName])
            try transit.database.forEachRow(SQLGenerator.prepare(query)) { result.append((feed.name, $0.string("stop_id"), $0.string("stop_name"), $0.int("departures"))) }
        }
        result.sort {
            if $0.departures != $1.departures { return $0.departures > $1.departures }
            if $0.feed != $1.feed { return feedOrder($0.feed, $1.feed) }
            return $0.stopID.utf8.lexicographicallyPrecedes($1.stopID.utf8)
        }
        if result.count > limit { result.removeSubrange(limit...) }
        return result
    }

    /// Departures on `date` from `stopKeys` (stops of one feed) per hour of the service day (GTFS
    /// hours: 24 and later are after midnight), hours with none left out.
    public static func departuresPerHour(on date: ServiceDate, stopKeys: [Int], transit: TransitDatabase) throws -> [(hour: Int, departures: Int)] {
        guard let first = stopKeys.first, let feed = transit.feed(ofKey: first) else { return [] }
        var fetch = departuresOn(date, feed: feed.tables)
        // Selected, grouped by and sorted by: the divisor is written in, so a server sees one expression.
        let hour = fetch.required("departure_time") / .literal(3600)
        fetch.filter(fetch.key(of: "stop").isIn(stopKeys))
        fetch.select(hour, as: "hour")
        fetch.select(countAll, as: "departures")
        fetch.sort(by: [hour.ascending])
        let query = fetch.requiredQuery().grouped(by: [hour])
        var result: [(Int, Int)] = []
        try transit.database.forEachRow(SQLGenerator.prepare(query)) { result.append(($0.int("hour"), $0.int("departures"))) }
        return result
    }

    /// Stop times of one feed that are departures on `date` (`BoardingStopTimes`, with a time).
    private static func departuresOn(_ date: ServiceDate, feed: FeedTables) -> ModelFetch {
        var fetch = BoardingStopTimes.fetch(feed: feed, on: .value(date.yyyymmdd))
        fetch.filter(fetch.required("departure_time").isNotNull)
        return fetch
    }
}
