import FetchRequest

/// A stop time of a run, as realtime changes name it: its trip, `stop_sequence` and scheduled moment.
struct ScheduledStopTime: Hashable {
    let trip: Int
    let sequence: Int
    let scheduled: Int
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
    /// Whether departures realtime data cancels (rules 5-6: a SKIPPED stop, a CANCELED or DELETED
    /// trip) are listed, at their timetable moment and marked `isCancelled`, rather than left out:
    /// what a departures board shows ("cancelled") so riders are not left waiting.
    public var includesCancelled = false

    public init(stopKeys: [Int], start: Int, duration: Int) {
        self.stopKeys = stopKeys
        self.start = start
        self.duration = duration
    }

    /// The request for one service date of one feed; `$date`, `$from`, `$to` and `$limit` are
    /// bound per date.
    ///
    /// It reads nothing of a stop time but what the `stop_times(stop, departure, pickup_type)`
    /// index holds (the key `trip`, `stop_sequence` too), so no row of the large `stop_times`
    /// table is read for the many stop times in the window that are not listed: the headsign it
    /// selects is the trip's (`trip_headsign`, else the last stop's name), and the stop times'
    /// own `stop_headsign` is read after, by key, for the rows listed (`stopHeadsignRequest`).
    ///
    /// The stop times that can be boarded, with their trip (every condition is on the two), are a
    /// derived table, their stop and route joined to it: SQLite flattens it into one join, and a
    /// server keeps the derived rows that can be listed, the first `$limit` by departure and
    /// those tied with the last (`Query.firstRowsKey`), before joining their stops and routes:
    /// on the large feed ~25 rows of the ~105 in a window.
    ///
    ///     SELECT … FROM (SELECT "stop_times"."departure", …, "stop_times.trip"."trip_id", …
    ///       FROM "stop_times_1" AS "stop_times" JOIN "trips" AS "stop_times.trip" …
    ///       WHERE "stop_times"."stop" IN (?, …) AND "stop_times"."departure" BETWEEN ? AND ?
    ///         AND ("stop_times"."service_number" + ?) IN (SELECT DISTINCT "service_days"."service" FROM "service_days_1" AS "service_days" WHERE "date" = ?)
    ///         AND "stop_times"."pickup_type" IS NOT ? AND "stop_times"."stop_sequence" < "stop_times.trip"."last_stop_sequence"
    ///       /* first rows by "stop_times"."departure" */) AS "stop_times"
    ///     JOIN "stops" AS "stop_times.stop" … JOIN "routes" AS "stop_times.trip.route" …
    ///     ORDER BY "stop_times"."departure", "stop_times.stop"."stop_id", "stop_times"."trip_id" LIMIT ?
    public func requestPerServiceDate(feed: FeedTables, stopKeys: [Int], excludingFrequencies: Bool = false) -> Query {
        requestPerServiceDate(feed: feed, stops: { $0.isIn(stopKeys) }, excludingFrequencies: excludingFrequencies)
    }

    /// The same request with another condition choosing the stops, given the stop times' stop
    /// key (the templates' `$stop0`, `$stop1`, …).
    public func requestPerServiceDate(feed: FeedTables, stops: (SQLExpression) -> SQLPredicate, excludingFrequencies: Bool = false) -> Query {
        let root = "stop_times", stop = "stop_times.stop", route = "stop_times.trip.route", lastStop = "stop_times.trip.last_stop"
        let boarding = Self.boardingRows(feed: feed, stops: stops, excludingFrequencies: excludingFrequencies)
        let stopsTable = TransitModel.entity("stops", feedKey: feed.feed).table, routesTable = TransitModel.entity("routes", feedKey: feed.feed).table
        let row = { (name: String) in Column(name, of: root) }
        let ofStop = { (column: DeclaredColumn<Stop>) in Column(column.name, of: stop) }
        let ofRoute = { (column: DeclaredColumn<Route>) in Column(column.name, of: route) }
        let lastStopName = Query(table: stopsTable, alias: lastStop).select(Column(Stop.Columns.name.name, of: lastStop))
            .filter(Column(Stop.Columns.key.name, of: lastStop) == row("last_stop"))
        let values: [String: SQLExpression] = [
            "stop_id": ofStop(Stop.Columns.stopID), "stop_name": ofStop(Stop.Columns.name), "platform_code": ofStop(Stop.Columns.platformCode),
            "trip_id": row("trip_id"), "route_id": ofRoute(Route.Columns.routeID),
            "route": .coalesce([ofRoute(Route.Columns.shortName), ofRoute(Route.Columns.longName)]),
            "headsign": .coalesce([row("trip_headsign"), .subquery(lastStopName)]), "departure": row("departure"),
            "stop_lat": ofStop(Stop.Columns.latitude), "stop_lon": ofStop(Stop.Columns.longitude),
            // The stop time's identity: its stop_headsign is read by it, and realtime changes name it.
            "trip": row("trip"), "stop_sequence": row("stop_sequence"),
        ]
        var query = Query(rowsOf: boarding, as: root)
            .joining(Join(table: stopsTable, as: stop, on: ofStop(Stop.Columns.key) == row("stop")))
            .joining(Join(table: routesTable, as: route, on: ofRoute(Route.Columns.key) == row("route")))
            .select(DepartureColumns.identityNames.map { SelectedProperty(values[$0]!, as: $0) })
            .sorted(by: [row("departure").ascending, ofStop(Stop.Columns.stopID).ascending, row("trip_id").ascending])
        query.limitVariable = "limit"
        // Stops, a date and a time range by index: one plan serves any of them.
        query.plannedOnce = true
        return query
    }

    /// The stop times of one service date (`$date`) that a rider can board at the chosen stops
    /// in [`$from`, `$to`] (GTFS seconds), with what the listing needs of their trip: the
    /// derived table of `requestPerServiceDate`, its first rows by departure marked.
    private static func boardingRows(feed: FeedTables, stops: (SQLExpression) -> SQLPredicate, excludingFrequencies: Bool) -> Query {
        var fetch = BoardingStopTimes.fetch(feed: feed, on: .variable("date"))
        fetch.filter(stops(fetch.key(of: "stop")))
        let departure = fetch.required("departure_time")
        fetch.filter(departure.between(.variable("from"), and: .variable("to")))
        if excludingFrequencies {
            // Trips run by frequencies.txt are listed from their runs, not their template times.
            fetch.require(format: "trip.frequencies.@count == 0")
        }
        fetch.select(["departure", "stop", "trip", "stop_sequence", "trip_id", "trip_headsign", "route", "last_stop"], from: [
            "departure": departure, "stop": fetch.key(of: "stop"), "trip": fetch.key(of: "trip"), "stop_sequence": fetch.required("stop_sequence"),
            "trip_id": fetch.required("trip.trip_id"), "trip_headsign": fetch.required("trip.trip_headsign"),
            "route": fetch.key(of: "trip.route"), "last_stop": fetch.key(of: "trip.last_stop"),
        ])
        var rows = fetch.requiredQuery()
        rows.firstRowsKey = departure
        return rows
    }

    /// The `stop_headsign` of stop time `$sequence` of trip `$trip` of one feed (one
    /// primary-key search): read for the departures listed only.
    ///
    ///     SELECT "stop_times"."stop_headsign" FROM "stop_times_1" AS "stop_times"
    ///     WHERE "stop_times"."trip" = ? AND "stop_times"."stop_sequence" = ?
    static func stopHeadsignRequest(feed: FeedTables) -> Query {
        var fetch = TransitModel.fetch("stop_times", feedKey: feed.feed)
        fetch.select(fetch.required("stop_headsign"), as: "stop_headsign")
        fetch.filter(fetch.key(of: "trip") == SQLExpression.variable("trip") && fetch.required("stop_sequence") == SQLExpression.variable("sequence"))
        return fetch.requiredQuery()
    }

    /// The stop times at the chosen stops (given the stop key) that realtime data changes,
    /// scheduled in [`$from`, `$to`] (instants): one range per stop on the primary key of
    /// `realtime_stop_times(stop, scheduled, …)`, which holds every column asked for.
    static func realtimeChangesRequest(feed: FeedTables, stops: (SQLExpression) -> SQLPredicate) -> Query {
        var fetch = TransitModel.fetch("realtime_stop_times", feedKey: feed.feed)
        var values = ["trip": fetch.key(of: "trip")]
        for name in DepartureColumns.changeNames where name != "trip" { values[name] = fetch.required(name) }
        fetch.select(DepartureColumns.changeNames, from: values)
        fetch.filter(stops(fetch.key(of: "stop")))
        fetch.filter(fetch.required("scheduled").between(.variable("from"), and: .variable("to")))
        return fetch.requiredQuery()
    }

    /// The stop time `$sequence` of trip `$trip` of one feed with the columns of a departure, if a
    /// rider can board there on the service date `$date`: how a departure realtime data moves into
    /// the window is read (one primary-key search).
    static func stopTimeRequest(feed: FeedTables) -> Query {
        var fetch = DeparturesQuery.boardingFetch(feed: feed, stops: { _ in .all }, fewRows: true)
        fetch.filter(fetch.key(of: "trip") == SQLExpression.variable("trip") && fetch.required("stop_sequence") == SQLExpression.variable("sequence"))
        return fetch.requiredQuery()
    }

    /// The departures of NEW trips at the chosen stops (given the stop key) of one feed in
    /// [`$from`, `$to`] (instants).
    static func addedDeparturesRequest(feed: FeedTables, stops: (SQLExpression) -> SQLPredicate) -> Query {
        var fetch = TransitModel.fetch("realtime_added_departures", feedKey: feed.feed)
        let routeID = fetch.required("route_id")
        fetch.select(DepartureColumns.addedNames, from: [
            "stop_id": fetch.required("stop.stop_id"), "stop_name": fetch.required("stop.stop_name"),
            "platform_code": fetch.required("stop.platform_code"), "trip_id": .coalesce([fetch.required("trip_id"), .value("")]),
            "route_id": .coalesce([routeID, .value("")]),
            "route": .coalesce([fetch.required("route.route_short_name"), fetch.required("route.route_long_name"), routeID, .value("")]),
            "headsign": .coalesce([fetch.required("headsign"), .value("")]),
            "instant": fetch.required("instant"), "stop_lat": fetch.required("stop.stop_lat"), "stop_lon": fetch.required("stop.stop_lon"),
            "service_date": fetch.required("service_date"),
        ])
        fetch.filter(stops(fetch.key(of: "stop")))
        fetch.filter(fetch.required("instant").between(.variable("from"), and: .variable("to")))
        return fetch.requiredQuery()
    }

    /// For one service date (`$date`), the template rows of trips run by `frequencies.txt` at the
    /// chosen stops, with each frequency period: the runs are computed from them.
    public func frequencyRequestPerServiceDate(feed: FeedTables, stopKeys: [Int]) -> Query {
        frequencyRequestPerServiceDate(feed: feed, stops: { $0.isIn(stopKeys) })
    }

    /// The same request with another condition choosing the stops (given the stop key).
    public func frequencyRequestPerServiceDate(feed: FeedTables, stops: (SQLExpression) -> SQLPredicate) -> Query {
        var fetch = DeparturesQuery.boardingFetch(feed: feed, stops: stops)
        // The trip's first stop time, by stop_sequence: its departure is when a run leaves.
        guard var first = try? fetch.related("trip.stop_times") else { preconditionFailure("the model relates no stop times to a trip") }
        first.select(first.required("departure_time"), as: "departure")
        first.sort(by: [first.required("stop_sequence").ascending])
        first.limit = 1
        fetch.filter(fetch.required("departure_time").isNotNull)
        // One row per stop time and period of its trip.
        fetch.requireExpanded("trip.frequencies")
        fetch.select(DepartureColumns.frequencyNames.dropFirst(DepartureColumns.shownNames.count), from: [
            "first_departure": .subquery(first.requiredQuery()), "start_time": fetch.required("trip.frequencies.start_time"),
            "end_time": fetch.required("trip.frequencies.end_time"), "headway_secs": fetch.required("trip.frequencies.headway_secs"),
            "trip": fetch.key(of: "trip"), "stop_sequence": fetch.required("stop_sequence"),
        ])
        return fetch.requiredQuery()
    }

    /// Stop times of one feed at the chosen stops where a rider can board on the service date
    /// `$date` (`BoardingStopTimes`), with what a departure shows, in `DepartureColumns.shown`'s
    /// order: `departure` is the GTFS time; the headsign is `stop_headsign`, else `trip_headsign`,
    /// else the name of the trip's last stop (read only when both are missing).
    static func boardingFetch(feed: FeedTables, stops: (SQLExpression) -> SQLPredicate, fewRows: Bool = false) -> ModelFetch {
        var fetch = BoardingStopTimes.fetch(feed: feed, on: .variable("date"), fewRows: fewRows)
        fetch.filter(stops(fetch.key(of: "stop")))
        fetch.select(DepartureColumns.shownNames, from: [
            "stop_id": fetch.required("stop.stop_id"),
            "stop_name": fetch.required("stop.stop_name"),
            "platform_code": fetch.required("stop.platform_code"),
            "trip_id": fetch.required("trip.trip_id"),
            "route_id": fetch.required("trip.route.route_id"),
            "route": .coalesce([fetch.required("trip.route.route_short_name"), fetch.required("trip.route.route_long_name")]),
            "headsign": .coalesce([fetch.required("stop_headsign"), fetch.required("trip.trip_headsign"), fetch.requiredFault("trip.last_stop.stop_name")]),
            "departure": fetch.required("departure_time"),
            "stop_lat": fetch.required("stop.stop_lat"),
            "stop_lon": fetch.required("stop.stop_lon"),
        ])
        return fetch
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
            // The other templates take their stops by name (the timetable's binds them by place).
            var stops: [String: any SQLValueConvertible] = [:]
            if templates.frequencies != nil || templates.realtime != nil {
                for (index, key) in keys.enumerated() { stops["stop\(index)"] = key }
            }
            let realtimeChanges = try templates.realtime.map { templates in
                (window: window!, changes: try templates.changes.substituting(stops, keepingOthers: true), stopTime: templates.stopTime)
            }
            let feedDepartures = try run(on: transit, feed: feed, template: templates.request.binding(stops: keys),
                                         frequencyTemplate: try templates.frequencies?.substituting(stops, keepingOthers: true),
                                         stopHeadsign: try transit.hasStopHeadsigns(feed) ? templates.stopHeadsign : nil, realtime: realtimeChanges)
            // The first feed's are taken as they are (appending copies every departure).
            if departures.isEmpty { departures = feedDepartures } else { departures += feedDepartures }
            if let added = templates.realtime?.added, window?.hasAddedDepartures == true {
                try transit.database.forEachRow(try added.substituting(stops, keepingOthers: true).substituting(["from": start, "to": start + duration])) { row in
                    guard let date = ServiceDate(yyyymmdd: row.int(DepartureColumns.added.serviceDate)) else { return }
                    departures.append(Departure(feed: feed.name, row: row, serviceDate: date, gtfsTime: nil,
                                                instant: row.int(DepartureColumns.added.instant), isRealtime: true))
                }
            }
        }
        // Sorted by index: a departure is a large value, and moving it is what a sort does most.
        var order = Array(departures.indices)
        order.sort { DeparturesQuery.isListed(departures[$0], before: departures[$1]) }
        if limit > 0, order.count > limit { order.removeSubrange(limit...) }
        return order.map { departures[$0] }
    }

    /// The order departures are listed in: by instant, then feed name, `stop_id` and `trip_id`.
    static func isListed(_ a: Departure, before b: Departure) -> Bool {
        if a.instant != b.instant { return a.instant < b.instant }
        if a.feed != b.feed { return feedOrder(a.feed, b.feed) }
        if a.stopID != b.stopID { return a.stopID.utf8.lexicographicallyPrecedes(b.stopID.utf8) }
        return a.tripID.utf8.lexicographicallyPrecedes(b.tripID.utf8)
    }

    /// The service dates of `feed` whose timetable can reach the window, each with the instant
    /// its GTFS times count from (`base`: noon minus 12 hours in the feed's zone) and the window
    /// in its GTFS seconds (`from`...`to`, within 0...`largestTime`): the days before, as far back
    /// as the feed's largest time requires, to the day after. A date whose times cannot reach the
    /// window is left out.
    public func serviceDates(of feed: Feed) -> [(date: ServiceDate, base: Int, from: Int, to: Int)] {
        let zone = feed.timeZone
        let end = start + duration
        var dates: [(date: ServiceDate, base: Int, from: Int, to: Int)] = []
        var date = zone.localTime(of: start).date.adding(days: -(feed.largestTime / 86_400 + 1))
        let lastDate = zone.localTime(of: end).date.adding(days: 1)
        while date <= lastDate {
            let base = zone.noonMinusTwelveHours(date)
            let from = max(start - base, 0)
            let to = min(end - base, feed.largestTime)
            if from <= to { dates.append((date, base, from, to)) }
            date = date.adding(days: 1)
        }
        return dates
    }

    /// The prepared requests of one shape: the timetable's per service date, a stop time's
    /// `stop_headsign`, the frequency-based trips', and with realtime data its changes, one stop
    /// time, and NEW trips' departures.
    typealias Templates = (request: TimetableTemplate, stopHeadsign: PreparedRequest, frequencies: PreparedRequest?,
                           realtime: (changes: PreparedRequest, stopTime: PreparedRequest, added: PreparedRequest)?)

    /// The prepared requests for `stopCount` stops of `feed` (the stops as `$stop0`…, the date,
    /// window and limit as in `requestPerServiceDate`), generated once per process for every
    /// count up to 64: a batch of thousands of questions generates each shape once. A request
    /// is generated only when its cache does not hold it (the closures are made in the call, so
    /// a question that finds them all copies nothing of the feed).
    static func templates(feed: Feed, stopCount: Int, realtime: Bool = false) -> Templates {
        // The shape depends on the feed's tables, whether it has frequencies and realtime data, and the count.
        let key = (feed.key << 9) | (realtime ? 1 << 8 : 0) | (feed.hasFrequencies ? 1 << 7 : 0) | stopCount
        let cached = stopCount <= 64
        let request = cached ? timetableTemplates.template(key: key) { timetableTemplate(feed: feed, stopCount: stopCount) }
                             : timetableTemplate(feed: feed, stopCount: stopCount)
        let stopHeadsign = stopHeadsignTemplates.template(key: feed.key) { SQLGenerator.prepare(DeparturesQuery.stopHeadsignRequest(feed: feed.tables)) }
        var frequencies: PreparedRequest?
        if feed.hasFrequencies {
            frequencies = cached ? frequencyTemplates.template(key: key) { frequencyTemplate(feed: feed, stopCount: stopCount) }
                                 : frequencyTemplate(feed: feed, stopCount: stopCount)
        }
        guard realtime else { return (request, stopHeadsign, frequencies, nil) }
        let stopTime = stopTimeTemplates.template(key: feed.key) { SQLGenerator.prepare(DeparturesQuery.stopTimeRequest(feed: feed.tables)) }
        guard cached else {
            return (request, stopHeadsign, frequencies, (changesTemplate(feed: feed, stopCount: stopCount), stopTime, addedTemplate(feed: feed, stopCount: stopCount)))
        }
        return (request, stopHeadsign, frequencies, (changesTemplates.template(key: key) { changesTemplate(feed: feed, stopCount: stopCount) }, stopTime,
                                                     addedTemplates.template(key: key) { addedTemplate(feed: feed, stopCount: stopCount) }))
    }

    /// The stop times' stop key among `$stop0`…`$stop<count - 1>`.
    private static func stops(count: Int) -> (SQLExpression) -> SQLPredicate {
        { stop in stop.isIn(variablesNamed: "stop", count: count) }
    }

    private static func timetableTemplate(feed: Feed, stopCount: Int) -> TimetableTemplate {
        let query = DeparturesQuery(stopKeys: [], start: 0, duration: 0)
        return TimetableTemplate(SQLGenerator.prepare(query.requestPerServiceDate(feed: feed.tables, stops: stops(count: stopCount),
                                                                                  excludingFrequencies: feed.hasFrequencies)))
    }

    private static func frequencyTemplate(feed: Feed, stopCount: Int) -> PreparedRequest {
        SQLGenerator.prepare(DeparturesQuery(stopKeys: [], start: 0, duration: 0).frequencyRequestPerServiceDate(feed: feed.tables, stops: stops(count: stopCount)))
    }

    private static func changesTemplate(feed: Feed, stopCount: Int) -> PreparedRequest {
        SQLGenerator.prepare(DeparturesQuery.realtimeChangesRequest(feed: feed.tables, stops: stops(count: stopCount)))
    }

    private static func addedTemplate(feed: Feed, stopCount: Int) -> PreparedRequest {
        SQLGenerator.prepare(DeparturesQuery.addedDeparturesRequest(feed: feed.tables, stops: stops(count: stopCount)))
    }

    private static let timetableTemplates = TemplateCache<TimetableTemplate>()
    private static let stopHeadsignTemplates = TemplateCache<PreparedRequest>()
    private static let frequencyTemplates = TemplateCache<PreparedRequest>()
    private static let changesTemplates = TemplateCache<PreparedRequest>()
    private static let stopTimeTemplates = TemplateCache<PreparedRequest>()
    private static let addedTemplates = TemplateCache<PreparedRequest>()

    /// The departures of `feed` in the window, unsorted: `template` (a `requestPerServiceDate`
    /// shape with its stops) run for each service date that can reach the window, with
    /// `frequencyTemplate` the runs of frequency-based trips too, and the `stop_headsign` of the
    /// rows that can be listed read by `stopHeadsign` (a `stopHeadsignRequest`; nil for a feed
    /// whose stop times have none, `TransitDatabase.hasStopHeadsigns`); with `realtime`,
    /// the feed's delay range, its `realtimeChangesRequest` (stops bound) and `stopTimeRequest`.
    ///
    /// How realtime changes are placed: `DepartureRun`.
    func run(on transit: TransitDatabase, feed: Feed, template: TimetableTemplate.StopsBound, frequencyTemplate: PreparedRequest?, stopHeadsign: PreparedRequest?,
             realtime: (window: RealtimeWindow, changes: PreparedRequest, stopTime: PreparedRequest)? = nil) throws -> [Departure] {
        var run = DepartureRun(query: self, transit: transit, feed: feed, stopHeadsign: stopHeadsign, realtime: realtime)
        try run.readChanges()
        for (date, base, from, to) in serviceDates(of: feed) {
            try run.readTimetable(template, date: date, base: base, from: from, to: to)
            if let frequencyTemplate { try run.readFrequencyRuns(frequencyTemplate, date: date, base: base, from: from, to: to) }
        }
        try run.readUnseenChanges(frequencyBased: frequencyTemplate != nil)
        if let stopHeadsign {
            try readStopHeadsigns(of: &run.departures, tripHeadsigns: run.tripHeadsigns, request: stopHeadsign, on: transit.database)
        }
        return run.departures
    }

    /// Gives the departures that can be listed (the first `limit` in listing order; all without
    /// a limit) whose headsign is still their trip's (`tripHeadsigns`: by index, the stop time's
    /// identity) their stop time's `stop_headsign`, where it has one: one primary-key search each
    /// (`request`, a `stopHeadsignRequest`), so at most `limit` whatever the window holds.
    func readStopHeadsigns(of departures: inout [Departure], tripHeadsigns: [Int: (trip: Int, sequence: Int)], request: PreparedRequest,
                           on database: Database) throws {
        guard !tripHeadsigns.isEmpty else { return }
        var listed = Array(departures.indices)
        if limit > 0, departures.count > limit {
            listed.sort { DeparturesQuery.isListed(departures[$0], before: departures[$1]) }
            listed.removeSubrange(limit...)
        }
        for index in listed {
            guard let stopTime = tripHeadsigns[index] else { continue }
            // The variables in the order the request names them: $trip, then $sequence.
            try database.forEachRow(try request.binding([.integer(Int64(stopTime.trip)), .integer(Int64(stopTime.sequence))])) { row in
                if let headsign = row.optionalString("stop_headsign") { departures[index].headsign = headsign }
            }
        }
    }
}
