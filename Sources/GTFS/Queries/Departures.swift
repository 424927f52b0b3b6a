import FetchRequest

/// One departure: a trip leaving a stop at an instant.
public struct Departure: Sendable, Equatable {
    /// The name of the feed it belongs to.
    public let feed: String
    public let stopID: String
    public let stopName: String
    public let platformCode: String?
    /// The stop's position, when the feed gives one.
    public let latitude: Double?
    public let longitude: Double?
    public let tripID: String
    public let routeID: String
    /// `route_short_name`, else `route_long_name`.
    public let route: String
    /// `stop_headsign`, else `trip_headsign`, else the name of the trip's last stop.
    public let headsign: String
    /// The service date whose timetable this departure belongs to.
    public let serviceDate: ServiceDate
    /// The feed's time on that service date, in seconds (can exceed 24 h); nil for a NEW trip,
    /// which the timetable does not have.
    public let gtfsTime: Int?
    /// The moment it leaves, in seconds since 1970 UTC: the predicted one when realtime data
    /// changed it.
    public let instant: Int
    /// The realtime delay in seconds (nil: the timetable's time, or a NEW trip's given time).
    public var delay: Int? = nil
    /// True when the time comes from realtime data (a delay, or a NEW trip).
    public var isRealtime = false

    /// The timetable's moment (nil for a NEW trip).
    public var scheduledInstant: Int? { isRealtime ? delay.map { instant - $0 } : instant }
}

/// The realtime data a departures query applies for one feed: its delays' range, by which the
/// window is widened (a bus scheduled before the window but late enough is in it).
public struct RealtimeWindow: Sendable, Equatable {
    public let latestDelay: Int
    public let earliestDelay: Int
    public init(latestDelay: Int, earliestDelay: Int) {
        self.latestDelay = latestDelay
        self.earliestDelay = earliestDelay
    }
}

/// "What leaves soon": departures from a set of stops in a time window, right across midnight,
/// calendars and daylight-saving changes.
///
/// GTFS defines the moment of a stop time as noon of its service date D, in the agency's zone,
/// minus 12 hours, plus its time. So for each service date that can reach the window (the days
/// before, as far back as the feed's largest time requires, and the day after) the window is turned
/// into that date's GTFS seconds, and one request asks for the rows in it: an index range per stop
/// on `stop_times(stop, departure)`, trips whose service runs on D (`service_days`), no row with
/// `pickup_type` 1 and no last stop of a trip. The dates' results are merged in order of instant,
/// `stop_id`, `trip_id`, then limited.
///
/// With several feeds, the stops are grouped by feed and each feed is asked in its own tables
/// (`stop_times_<feed>`, `service_days_<feed>`) and its own time zone; the feeds' departures are
/// merged by instant, then feed name, `stop_id` and `trip_id`.
public struct DeparturesQuery: Sendable {
    /// The stops (database keys) departures may leave from.
    public var stopKeys: [Int]
    /// The window's start, in seconds since 1970 UTC.
    public var start: Int
    /// The window's length in seconds (both ends included).
    public var duration: Int
    /// At most this many departures (0: all).
    public var limit: Int = 20
    /// The feeds (by key) whose stored realtime data applies (the command decides freshness).
    public var realtime: [Int: RealtimeWindow] = [:]

    public init(stopKeys: [Int], start: Int, duration: Int) {
        self.stopKeys = stopKeys
        self.start = start
        self.duration = duration
    }

    /// The request for one service date of one feed; `$date`, `$from`, `$to` and `$limit` are
    /// bound per date.
    ///
    ///     SELECT … FROM "stop_times_1" AS "st" JOIN "trips" … JOIN "routes" … JOIN "stops" …
    ///     WHERE "st"."stop" IN (?, …) AND "st"."departure" BETWEEN ? AND ? AND "st"."pickup_type" IS NOT ?
    ///       AND "trips"."service" IN (SELECT "service" FROM "service_days_1" WHERE "date" = ?)
    ///       AND "st"."stop_sequence" < "trips"."last_stop_sequence"
    ///     ORDER BY "st"."departure", "stops"."stop_id", "trips"."trip_id" LIMIT ?
    public func requestPerServiceDate(feed: FeedTables, stopKeys: [Int], excludingFrequencies: Bool = false) -> Query {
        requestPerServiceDate(feed: feed, stops: Column("stop", of: "st").isIn(stopKeys), excludingFrequencies: excludingFrequencies)
    }

    /// The same request with another condition choosing the stops (`st` is the stop-times alias);
    /// the benchmark compares shapes through it.
    public func requestPerServiceDate(feed: FeedTables, stops stopPredicate: SQLPredicate, excludingFrequencies: Bool = false,
                                      realtime: Bool = false) -> Query {
        var query = DeparturesQuery.boardingRows(feed: feed, stops: stopPredicate)
            .filter(Column("departure", of: "st").between(.variable("from"), and: .variable("to")))
            .sorted(by: [Column("departure", of: "st").ascending, Column("stop_id", of: "stops").ascending,
                         Column("trip_id", of: "trips").ascending])
        if excludingFrequencies {
            // Trips run by frequencies.txt are listed from their runs, not their template times.
            query = query.filter(!SQLPredicate.exists(Query(table: "frequencies", alias: "f").filter(Column("trip", of: "f") == Column("trip", of: "st"))))
        }
        query.limitVariable = "limit"
        if realtime {
            // The stop time's realtime change, if any (one key lookup): the delay, and whether it
            // is skipped or its run cancelled.
            query = query.joining(Join(.left, table: "realtime_stop_times", as: "rt", on:
                Column("trip", of: "rt") == Column("trip", of: "st") && Column("service_date", of: "rt") == SQLExpression.variable("date")
                && Column("stop_sequence", of: "rt") == Column("stop_sequence", of: "st")))
            query.selection += [SelectedProperty(Column("delay", of: "rt"), as: "delay"), SelectedProperty(Column("skipped", of: "rt"), as: "skipped")]
        }
        return query
    }

    /// The departures of NEW trips at the chosen stops of one feed in [`$from`, `$to`] (instants).
    static func addedDeparturesRequest(feed: Int, stops stopPredicate: SQLPredicate) -> Query {
        Query(table: "realtime_added_departures", alias: "a")
            .joining(Join(table: "stops", on: Column("id", of: "stops") == Column("stop", of: "a")))
            .joining(Join(.left, table: "routes", on: Column("id", of: "routes") == Column("route", of: "a")))
            .select([
                SelectedProperty(Column("stop_id", of: "stops")), SelectedProperty(Column("stop_name", of: "stops")),
                SelectedProperty(Column("platform_code", of: "stops")), SelectedProperty(.coalesce([Column("trip_id", of: "a"), .value("")]), as: "trip_id"),
                SelectedProperty(.coalesce([Column("route_id", of: "a"), .value("")]), as: "route_id"),
                SelectedProperty(.coalesce([Column("route_short_name", of: "routes"), Column("route_long_name", of: "routes"), Column("route_id", of: "a"), .value("")]), as: "route"),
                SelectedProperty(.coalesce([Column("headsign", of: "a"), .value("")]), as: "headsign"),
                SelectedProperty(Column("instant", of: "a")), SelectedProperty(Column("stop_lat", of: "stops")), SelectedProperty(Column("stop_lon", of: "stops")),
                SelectedProperty(Column("service_date", of: "a")),
            ])
            .filter(stopPredicate)
            .filter(Column("instant", of: "a").between(.variable("from"), and: .variable("to")))
            .filter(Column("feed", of: "a") == feed)
    }

    /// For one service date (`$date`), the template rows of trips run by `frequencies.txt` at the
    /// chosen stops, with each frequency period: the runs are computed from them.
    public func frequencyRequestPerServiceDate(feed: FeedTables, stopKeys: [Int]) -> Query {
        frequencyRequestPerServiceDate(feed: feed, stops: Column("stop", of: "st").isIn(stopKeys))
    }

    /// The same request with another condition choosing the stops.
    public func frequencyRequestPerServiceDate(feed: FeedTables, stops stopPredicate: SQLPredicate) -> Query {
        let firstDeparture = Query(table: feed.stopTimes, alias: "first")
            .select(Column("departure", of: "first"))
            .filter(Column("trip", of: "first") == Column("trip", of: "st"))
            .sorted(by: [Column("stop_sequence", of: "first").ascending])
            .limited(to: 1)
        var query = DeparturesQuery.boardingRows(feed: feed, stops: stopPredicate)
            .joining(Join(table: "frequencies", on: Column("trip", of: "frequencies") == Column("trip", of: "st")))
            .filter(Column("departure", of: "st").isNotNull)
        query.selection += [
            SelectedProperty(.subquery(firstDeparture), as: "first_departure"),
            SelectedProperty(Column("start_time", of: "frequencies")),
            SelectedProperty(Column("end_time", of: "frequencies")),
            SelectedProperty(Column("headway_secs", of: "frequencies")),
        ]
        return query
    }

    /// Stop times of one feed at the chosen stops where a rider can board on the service date
    /// `$date`: the trip's service runs, `pickup_type` is not 1, and it is not the trip's last stop;
    /// with the columns a departure shows (`departure`, the eighth, is the GTFS time; the stop's
    /// position follows).
    static func boardingRows(feed: FeedTables, stops stopPredicate: SQLPredicate) -> Query {
        let st = "st"
        // The trip's last stop is recorded in `trips` at import: one row lookup, not a descent
        // into stop_times per candidate row.
        let lastStopName = Query(table: "stops", alias: "final_stop")
            .select(Column("stop_name", of: "final_stop"))
            .filter(Column("id", of: "final_stop") == Column("last_stop", of: "trips"))
        let runningServices = Query(table: feed.serviceDays).select(Column("service"))
            .filter(Column("date") == .variable("date"))
        return Query(table: feed.stopTimes, alias: st)
            .joining(Join(table: "trips", on: Column("id", of: "trips") == Column("trip", of: st)))
            .joining(Join(table: "routes", on: Column("id", of: "routes") == Column("route", of: "trips")))
            .joining(Join(table: "stops", on: Column("id", of: "stops") == Column("stop", of: st)))
            .select([
                SelectedProperty(Column("stop_id", of: "stops")),
                SelectedProperty(Column("stop_name", of: "stops")),
                SelectedProperty(Column("platform_code", of: "stops")),
                SelectedProperty(Column("trip_id", of: "trips")),
                SelectedProperty(Column("route_id", of: "routes")),
                SelectedProperty(.coalesce([Column("route_short_name", of: "routes"), Column("route_long_name", of: "routes")]), as: "route"),
                SelectedProperty(.coalesce([Column("stop_headsign", of: st), Column("trip_headsign", of: "trips"), .subquery(lastStopName)]), as: "headsign"),
                SelectedProperty(Column("departure", of: st)),
                SelectedProperty(Column("stop_lat", of: "stops")),
                SelectedProperty(Column("stop_lon", of: "stops")),
            ])
            .filter(stopPredicate)
            .filter(Column("pickup_type", of: st).isNot(1))
            .filter(Column("service", of: "trips").isIn(runningServices))
            .filter(Column("stop_sequence", of: st) < Column("last_stop_sequence", of: "trips"))
    }

    /// The departures in the window, in order, at most `limit`: each feed's stops asked in that
    /// feed's tables and zone, then merged.
    public func run(on transit: TransitDatabase) throws -> [Departure] {
        var keysByFeed: [Int: [Int]] = [:]
        for key in stopKeys { keysByFeed[FeedKeys.feed(of: key), default: []].append(key) }
        var departures: [Departure] = []
        for feed in transit.selectedFeeds {
            guard let keys = keysByFeed[feed.key] else { continue }
            let window = realtime[feed.key]
            let templates = DeparturesQuery.templates(feed: feed, stopCount: keys.count, realtime: window != nil)
            var stops: [String: any SQLValueConvertible] = [:]
            for (index, key) in keys.enumerated() { stops["stop\(index)"] = key }
            departures += try run(on: transit, feed: feed, template: try templates.request.substituting(stops, keepingOthers: true),
                                  frequencyTemplate: try templates.frequencies?.substituting(stops, keepingOthers: true), realtime: window)
            if window != nil {
                let added = try templates.added!.substituting(stops, keepingOthers: true).substituting(["from": start, "to": start + duration])
                try transit.database.forEachRow(added) { row in
                    guard let date = ServiceDate(yyyymmdd: row.int(10)) else { return }
                    var departure = Departure(
                        feed: feed.name, stopID: row.string(0), stopName: row.string(1), platformCode: row.optionalString(2),
                        latitude: row.optionalDouble(8), longitude: row.optionalDouble(9), tripID: row.string(3), routeID: row.string(4),
                        route: row.string(5), headsign: row.string(6), serviceDate: date, gtfsTime: nil, instant: row.int(7))
                    departure.isRealtime = true
                    departures.append(departure)
                }
            }
        }
        departures.sort {
            if $0.instant != $1.instant { return $0.instant < $1.instant }
            if $0.feed != $1.feed { return feedOrder($0.feed, $1.feed) }
            if $0.stopID != $1.stopID { return $0.stopID.utf8.lexicographicallyPrecedes($1.stopID.utf8) }
            return $0.tripID.utf8.lexicographicallyPrecedes($1.tripID.utf8)
        }
        if limit > 0, departures.count > limit { departures.removeSubrange(limit...) }
        return departures
    }

    /// The prepared requests for `stopCount` stops of `feed` (the stops as `$stop0`…, the date,
    /// window and limit as in `requestPerServiceDate`), generated once per process for every
    /// count up to 64: a batch of thousands of questions generates each shape once.
    static func templates(feed: Feed, stopCount: Int, realtime: Bool = false)
        -> (request: PreparedRequest, frequencies: PreparedRequest?, added: PreparedRequest?) {
        let make = { () -> (request: PreparedRequest, frequencies: PreparedRequest?, added: PreparedRequest?) in
            let stops = Column("stop", of: "st").isIn(variablesNamed: "stop", count: stopCount)
            let query = DeparturesQuery(stopKeys: [], start: 0, duration: 0)
            let request = SQLGenerator.prepare(query.requestPerServiceDate(feed: feed.tables, stops: stops, excludingFrequencies: feed.hasFrequencies,
                                                                           realtime: realtime))
            let frequencies = feed.hasFrequencies
                ? SQLGenerator.prepare(query.frequencyRequestPerServiceDate(feed: feed.tables, stops: stops)) : nil
            let added = realtime
                ? SQLGenerator.prepare(DeparturesQuery.addedDeparturesRequest(feed: feed.key, stops: Column("stop", of: "a").isIn(variablesNamed: "stop", count: stopCount)))
                : nil
            return (request, frequencies, added)
        }
        guard stopCount <= 64 else { return make() }
        // The shape depends on the feed's tables, whether it has frequencies and realtime data, and the count.
        let key = (feed.key << 9) | (realtime ? 1 << 8 : 0) | (feed.hasFrequencies ? 1 << 7 : 0) | stopCount
        let request = requestTemplates.template(key: key) { make().request }
        return (request, feed.hasFrequencies ? frequencyTemplates.template(key: key) { make().frequencies! } : nil,
                realtime ? addedTemplates.template(key: key) { make().added! } : nil)
    }

    private static let requestTemplates = TemplateCache()
    private static let frequencyTemplates = TemplateCache()
    private static let addedTemplates = TemplateCache()

    /// Runs `request` (a `requestPerServiceDate` shape of `feed`) for each service date that can
    /// reach the window, and with `frequencies` the runs of frequency-based trips too; unsorted.
    public func run(on transit: TransitDatabase, feed: Feed, request: Query, frequencies: Query? = nil) throws -> [Departure] {
        try run(on: transit, feed: feed, template: SQLGenerator.prepare(request), frequencyTemplate: frequencies.map { SQLGenerator.prepare($0) })
    }

    /// `run(on:feed:request:frequencies:)` with the requests prepared, their stops bound.
    func run(on transit: TransitDatabase, feed: Feed, template: PreparedRequest, frequencyTemplate: PreparedRequest?,
             realtime: RealtimeWindow? = nil) throws -> [Departure] {
        let zone = feed.timeZone
        let largestTime = feed.largestTime
        let end = start + duration
        // With realtime data the timetable is read over the window widened by the delays there
        // are (rule 7), and the predicted moments are filtered afterwards.
        let early = start - (realtime?.latestDelay ?? 0)
        let late = end - (realtime?.earliestDelay ?? 0)
        let firstDate = zone.localTime(of: early).date.adding(days: -(largestTime / 86_400 + 1))
        let lastDate = zone.localTime(of: late).date.adding(days: 1)
        var departures: [Departure] = []
        var date = firstDate
        while date <= lastDate {
            defer { date = date.adding(days: 1) }
            let base = zone.noonMinusTwelveHours(date)
            let from = max(early - base, 0)
            let to = min(late - base, largestTime)
            guard from <= to else { continue }
            let request = try template.substituting([
                "date": date.yyyymmdd, "from": from, "to": to, "limit": limit > 0 && realtime == nil ? limit : -1,
            ])
            try transit.database.forEachRow(request) { row in
                let gtfsTime = row.int(7)
                // With realtime data: rules 5 and 6 (a skipped stop or a cancelled run has no
                // departure), the delay, and the window on the predicted moment (rule 7). The
                // strings are decoded only for the rows that stay.
                var delay: Int?
                if realtime != nil {
                    if row.int(11) == 1 { return }
                    delay = row.optionalInt(10)
                    let instant = base + gtfsTime + (delay ?? 0)
                    guard instant >= start, instant <= end else { return }
                }
                departures.append(Departure(
                    feed: feed.name, stopID: row.string(0), stopName: row.string(1), platformCode: row.optionalString(2),
                    latitude: row.optionalDouble(8), longitude: row.optionalDouble(9), tripID: row.string(3), routeID: row.string(4), route: row.string(5), headsign: row.string(6),
                    serviceDate: date, gtfsTime: gtfsTime, instant: base + gtfsTime + (delay ?? 0), delay: delay, isRealtime: delay != nil))
            }
            guard let frequencyTemplate else { continue }
            // Runs start at start_time, start_time + headway, … before end_time; a stop is reached
            // its template offset after the run leaves the first stop.
            try transit.database.forEachRow(try frequencyTemplate.substituting(["date": date.yyyymmdd])) { row in
                let offset = row.int(7) - (row.optionalInt(10) ?? row.int(7))
                let (periodStart, periodEnd, headway) = (row.int(11), row.int(12), row.int(13))
                guard headway > 0 else { return }
                let firstRun = max(0, (from - offset - periodStart + headway - 1) / headway)
                var runStart = periodStart + firstRun * headway
                while runStart < periodEnd, runStart + offset <= to {
                    let gtfsTime = runStart + offset
                    if gtfsTime >= from, base + gtfsTime >= start, base + gtfsTime <= end {
                        departures.append(Departure(
                            feed: feed.name, stopID: row.string(0), stopName: row.string(1), platformCode: row.optionalString(2),
                            latitude: row.optionalDouble(8), longitude: row.optionalDouble(9), tripID: row.string(3), routeID: row.string(4), route: row.string(5), headsign: row.string(6),
                            serviceDate: date, gtfsTime: gtfsTime, instant: base + gtfsTime))
                    }
                    runStart += headway
                }
            }
        }
        return departures
    }
}

