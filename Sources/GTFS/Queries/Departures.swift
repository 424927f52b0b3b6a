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

extension Departure {
    /// A departure from a row of the departures requests (`DepartureColumns.shown`: every one
    /// selects the columns a departure shows in the same places).
    init(feed: String, row: Row, serviceDate: ServiceDate, gtfsTime: Int?, instant: Int, delay: Int? = nil, isRealtime: Bool = false) {
        let c = DepartureColumns.shown
        self.init(feed: feed, stopID: row.string(c.stopID), stopName: row.string(c.stopName), platformCode: row.optionalString(c.platformCode),
                  latitude: row.optionalDouble(c.latitude), longitude: row.optionalDouble(c.longitude), tripID: row.string(c.tripID),
                  routeID: row.string(c.routeID), route: row.string(c.route), headsign: row.string(c.headsign), serviceDate: serviceDate,
                  gtfsTime: gtfsTime, instant: instant, delay: delay, isRealtime: isRealtime)
    }
}

/// Where the rows of the departures requests hold each value, found by name in the requests'
/// selections once per process (every feed's requests have the same shape): rows are read by
/// name at the cost of reading by position.
enum DepartureColumns {
    /// The columns a departure shows, which every departures request selects first, in
    /// `boardingColumns`' order (the added departures of NEW trips too, with `instant` as time).
    static let shown: (stopID: Int, stopName: Int, platformCode: Int, tripID: Int, routeID: Int, route: Int, headsign: Int,
                       departure: Int, latitude: Int, longitude: Int) = {
        let query = DeparturesQuery.boardingColumns(of: Query(table: "stop_times", alias: "st"))
        let added = DeparturesQuery.addedDeparturesRequest(feed: 0, stops: .all)
        let shown = (query.position(of: "stop_id"), query.position(of: "stop_name"), query.position(of: "platform_code"),
                     query.position(of: "trip_id"), query.position(of: "route_id"), query.position(of: "route"),
                     query.position(of: "headsign"), query.position(of: "departure"), query.position(of: "stop_lat"), query.position(of: "stop_lon"))
        precondition(added.selection.prefix(query.selection.count).map(\.name) == query.selection.map { $0.name == "departure" ? "instant" : $0.name },
                     "the added departures request selects the shown columns in another order")
        return shown
    }()

    /// A NEW trip's departure: its instant (where the timetable's rows have their departure) and service date.
    static let added: (instant: Int, serviceDate: Int) = {
        let query = DeparturesQuery.addedDeparturesRequest(feed: 0, stops: .all)
        return (query.position(of: "instant"), query.position(of: "service_date"))
    }()

    /// A timetable row's identity, selected when realtime data applies.
    static let identity: (trip: Int, sequence: Int) = {
        let query = DeparturesQuery(stopKeys: [], start: 0, duration: 0).requestPerServiceDate(feed: FeedTables(feed: 0), stops: .all, realtime: true)
        return (query.position(of: "trip"), query.position(of: "stop_sequence"))
    }()

    /// A frequency template row: its first stop's departure, the period and headway, its identity.
    static let frequency: (firstDeparture: Int, start: Int, end: Int, headway: Int, trip: Int, sequence: Int) = {
        let query = DeparturesQuery(stopKeys: [], start: 0, duration: 0).frequencyRequestPerServiceDate(feed: FeedTables(feed: 0), stops: .all)
        return (query.position(of: "first_departure"), query.position(of: "start_time"), query.position(of: "end_time"),
                query.position(of: "headway_secs"), query.position(of: "trip"), query.position(of: "stop_sequence"))
    }()

    /// A realtime change of a stop time.
    static let change: (scheduled: Int, delay: Int, skipped: Int, serviceDate: Int, trip: Int, sequence: Int) = {
        let query = DeparturesQuery.realtimeChangesRequest(stops: .all)
        return (query.position(of: "scheduled"), query.position(of: "delay"), query.position(of: "skipped"),
                query.position(of: "service_date"), query.position(of: "trip"), query.position(of: "stop_sequence"))
    }()
}

/// A stop time of a run, as realtime changes name it: its trip, `stop_sequence` and scheduled moment.
struct ScheduledStopTime: Hashable {
    let trip: Int
    let sequence: Int
    let scheduled: Int
}

/// The realtime data a departures query applies for one feed: its delays' range, by which the
/// search for changed stop times is widened (a bus scheduled before the window but late enough
/// is in it).
public struct RealtimeWindow: Sendable, Equatable {
    public let latestDelay: Int
    public let earliestDelay: Int
    /// False when no NEW trip added departures: then none are searched for.
    public let hasAddedDepartures: Bool
    public init(latestDelay: Int, earliestDelay: Int, hasAddedDepartures: Bool = true) {
        self.latestDelay = latestDelay
        self.earliestDelay = earliestDelay
        self.hasAddedDepartures = hasAddedDepartures
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
            // The stop time's identity, to leave out the ones realtime data changes.
            query.selection += [SelectedProperty(Column("trip", of: "st")), SelectedProperty(Column("stop_sequence", of: "st"))]
        }
        return query
    }

    /// The stop times at the chosen stops (`rt` is the realtime alias) that realtime data changes,
    /// scheduled in [`$from`, `$to`] (instants): one range per stop on the primary key of
    /// `realtime_stop_times(stop, scheduled, …)`, which holds every column asked for.
    static func realtimeChangesRequest(stops stopPredicate: SQLPredicate) -> Query {
        Query(table: "realtime_stop_times", alias: "rt")
            .select(["scheduled", "delay", "skipped", "service_date", "trip", "stop_sequence"].map { SelectedProperty(Column($0, of: "rt")) })
            .filter(stopPredicate)
            .filter(Column("scheduled", of: "rt").between(.variable("from"), and: .variable("to")))
    }

    /// The stop time `$sequence` of trip `$trip` of one feed with the columns of a departure, if a
    /// rider can board there on the service date `$date`: how a departure realtime data moves into
    /// the window is read (one primary-key search).
    static func stopTimeRequest(feed: FeedTables) -> Query {
        let runs = Query(table: feed.serviceDays, alias: "days")
            .filter(Column("date", of: "days") == SQLExpression.variable("date") && Column("service", of: "days") == Column("service", of: "trips"))
        return DeparturesQuery.boardingColumns(of: Query(table: feed.stopTimes, alias: "st"))
            .filter(Column("trip", of: "st") == SQLExpression.variable("trip") && Column("stop_sequence", of: "st") == SQLExpression.variable("sequence"))
            .filter(.exists(runs))
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
            SelectedProperty(Column("trip", of: "st")), SelectedProperty(Column("stop_sequence", of: "st")),
        ]
        return query
    }

    /// Stop times of one feed at the chosen stops where a rider can board on the service date
    /// `$date`: the trip's service runs, and `boardingColumns`' conditions.
    static func boardingRows(feed: FeedTables, stops stopPredicate: SQLPredicate) -> Query {
        let runningServices = Query(table: feed.serviceDays).select(Column("service"))
            .filter(Column("date") == .variable("date"))
        return DeparturesQuery.boardingColumns(of: Query(table: feed.stopTimes, alias: "st"))
            .filter(stopPredicate)
            .filter(Column("service", of: "trips").isIn(runningServices))
    }

    /// `query`, whose stop times go by `st`, joined to their trip, route and stop, with the
    /// columns a departure shows (`departure`, the eighth, is the GTFS time; the stop's position
    /// follows), keeping the rows a rider can board at: `pickup_type` is not 1 and it is not the
    /// trip's last stop.
    static func boardingColumns(of query: Query) -> Query {
        let st = "st"
        // The trip's last stop is recorded in `trips` at import: one row lookup, not a descent
        // into stop_times per candidate row.
        let lastStopName = Query(table: "stops", alias: "final_stop")
            .select(Column("stop_name", of: "final_stop"))
            .filter(Column("id", of: "final_stop") == Column("last_stop", of: "trips"))
        return query
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
            .filter(Column("pickup_type", of: st).isNot(1))
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
            let realtimeChanges = try templates.realtime.map { templates in
                (window: window!, changes: try templates.changes.substituting(stops, keepingOthers: true), stopTime: templates.stopTime)
            }
            departures += try run(on: transit, feed: feed, template: try templates.request.substituting(stops, keepingOthers: true),
                                  frequencyTemplate: try templates.frequencies?.substituting(stops, keepingOthers: true), realtime: realtimeChanges)
            if let added = templates.realtime?.added, window?.hasAddedDepartures == true {
                try transit.database.forEachRow(try added.substituting(stops, keepingOthers: true).substituting(["from": start, "to": start + duration])) { row in
                    guard let date = ServiceDate(yyyymmdd: row.int(DepartureColumns.added.serviceDate)) else { return }
                    departures.append(Departure(feed: feed.name, row: row, serviceDate: date, gtfsTime: nil,
                                                instant: row.int(DepartureColumns.added.instant), isRealtime: true))
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

    /// The prepared requests of one shape: the timetable's per service date, the frequency-based
    /// trips', and with realtime data its changes, one stop time, and NEW trips' departures.
    typealias Templates = (request: PreparedRequest, frequencies: PreparedRequest?,
                           realtime: (changes: PreparedRequest, stopTime: PreparedRequest, added: PreparedRequest)?)

    /// The prepared requests for `stopCount` stops of `feed` (the stops as `$stop0`…, the date,
    /// window and limit as in `requestPerServiceDate`), generated once per process for every
    /// count up to 64: a batch of thousands of questions generates each shape once.
    static func templates(feed: Feed, stopCount: Int, realtime: Bool = false) -> Templates {
        let stops = { (alias: String) in Column("stop", of: alias).isIn(variablesNamed: "stop", count: stopCount) }
        let query = DeparturesQuery(stopKeys: [], start: 0, duration: 0)
        // Each template is generated only when its cache does not hold it.
        let makeRequest = {
            SQLGenerator.prepare(query.requestPerServiceDate(feed: feed.tables, stops: stops("st"), excludingFrequencies: feed.hasFrequencies, realtime: realtime))
        }
        let makeFrequencies = { SQLGenerator.prepare(query.frequencyRequestPerServiceDate(feed: feed.tables, stops: stops("st"))) }
        let makeChanges = { SQLGenerator.prepare(DeparturesQuery.realtimeChangesRequest(stops: stops("rt"))) }
        let makeStopTime = { SQLGenerator.prepare(DeparturesQuery.stopTimeRequest(feed: feed.tables)) }
        let makeAdded = { SQLGenerator.prepare(DeparturesQuery.addedDeparturesRequest(feed: feed.key, stops: stops("a"))) }
        guard stopCount <= 64 else {
            return (makeRequest(), feed.hasFrequencies ? makeFrequencies() : nil, realtime ? (makeChanges(), makeStopTime(), makeAdded()) : nil)
        }
        // The shape depends on the feed's tables, whether it has frequencies and realtime data, and the count.
        let key = (feed.key << 9) | (realtime ? 1 << 8 : 0) | (feed.hasFrequencies ? 1 << 7 : 0) | stopCount
        return (requestTemplates.template(key: key, makeRequest),
                feed.hasFrequencies ? frequencyTemplates.template(key: key, makeFrequencies) : nil,
                realtime ? (changesTemplates.template(key: key, makeChanges), stopTimeTemplates.template(key: feed.key, makeStopTime),
                            addedTemplates.template(key: key, makeAdded)) : nil)
    }

    private static let requestTemplates = TemplateCache()
    private static let frequencyTemplates = TemplateCache()
    private static let changesTemplates = TemplateCache()
    private static let stopTimeTemplates = TemplateCache()
    private static let addedTemplates = TemplateCache()

    /// Runs `request` (a `requestPerServiceDate` shape of `feed`) for each service date that can
    /// reach the window, and with `frequencies` the runs of frequency-based trips too; unsorted.
    public func run(on transit: TransitDatabase, feed: Feed, request: Query, frequencies: Query? = nil) throws -> [Departure] {
        try run(on: transit, feed: feed, template: SQLGenerator.prepare(request), frequencyTemplate: frequencies.map { SQLGenerator.prepare($0) })
    }

    /// `run(on:feed:request:frequencies:)` with the requests prepared, their stops bound; with
    /// `realtime`, the feed's delay range, its `realtimeChangesRequest` (stops bound) and
    /// `stopTimeRequest`.
    ///
    /// Realtime data (rules 5-7) only ever changes the stop times it has a row for, so those rows
    /// are read first (from their own table alone), over the window widened by the feed's delays.
    /// The timetable's requests keep the plain window and ask for `limit` plus as many rows as
    /// realtime changes there (at most that many of its first rows can leave or move); a changed
    /// row is moved by its delay, or dropped when skipped, cancelled or moved out, and past the
    /// first `limit` unchanged rows of a date the others are not decoded. The changed stop times
    /// that the timetable's rows did not bring (moved in from outside the window, or past its
    /// limit) are then read one by one, earliest predicted first, while they can still be among
    /// the first `limit`.
    func run(on transit: TransitDatabase, feed: Feed, template: PreparedRequest, frequencyTemplate: PreparedRequest?,
             realtime: (window: RealtimeWindow, changes: PreparedRequest, stopTime: PreparedRequest)? = nil) throws -> [Departure] {
        let zone = feed.timeZone
        let largestTime = feed.largestTime
        let end = start + duration
        var departures: [Departure] = []
        // Changed stop times scheduled in the window: their delay (nil: no departure, rules 5-6).
        var changes: [ScheduledStopTime: (delay: Int?, date: Int)] = [:]
        // Changed stop times scheduled outside the window whose predicted moment is in it.
        var movedIn: [(stopTime: ScheduledStopTime, delay: Int, date: Int)] = []
        if let realtime {
            let request = try realtime.changes.substituting(["from": start - realtime.window.latestDelay, "to": end - realtime.window.earliestDelay])
            let c = DepartureColumns.change
            try transit.database.forEachRow(request) { row in
                let stopTime = ScheduledStopTime(trip: row.int(c.trip), sequence: row.int(c.sequence), scheduled: row.int(c.scheduled))
                let delay = row.int(c.skipped) == 0 ? row.optionalInt(c.delay) : nil
                if stopTime.scheduled >= start, stopTime.scheduled <= end {
                    changes[stopTime] = (delay, row.int(c.serviceDate))
                } else if let delay, stopTime.scheduled + delay >= start, stopTime.scheduled + delay <= end {
                    movedIn.append((stopTime, delay, row.int(c.serviceDate)))
                }
            }
        }
        /// The realtime change of `stopTime`, taken out of `changes` (it is read once).
        func takeChange(_ stopTime: ScheduledStopTime) -> (delay: Int?, date: Int)? {
            changes.isEmpty ? nil : changes.removeValue(forKey: stopTime)
        }
        /// The departure of a timetable row at `stopTime` with its realtime `change` applied (nil:
        /// none in the window). A changed row predicted after `latest` is not decoded (it cannot
        /// be listed).
        func departure(_ row: Row, date: ServiceDate, gtfsTime: Int, stopTime: ScheduledStopTime, change: (delay: Int?, date: Int)?,
                       latest: Int = .max) -> Departure? {
            guard let change else {
                return Departure(feed: feed.name, row: row, serviceDate: date, gtfsTime: gtfsTime, instant: stopTime.scheduled)
            }
            guard let delay = change.delay, stopTime.scheduled + delay >= start, stopTime.scheduled + delay <= min(end, latest) else { return nil }
            return Departure(feed: feed.name, row: row, serviceDate: date, gtfsTime: gtfsTime, instant: stopTime.scheduled + delay,
                             delay: delay, isRealtime: true)
        }
        var changesPerDate: [Int: Int] = [:]
        for change in changes.values { changesPerDate[change.date, default: 0] += 1 }
        let firstDate = zone.localTime(of: start).date.adding(days: -(largestTime / 86_400 + 1))
        let lastDate = zone.localTime(of: end).date.adding(days: 1)
        var date = firstDate
        while date <= lastDate {
            defer { date = date.adding(days: 1) }
            let base = zone.noonMinusTwelveHours(date)
            let from = max(start - base, 0)
            let to = min(end - base, largestTime)
            guard from <= to else { continue }
            let request = try template.substituting([
                "date": date.yyyymmdd, "from": from, "to": to, "limit": limit > 0 ? limit + changesPerDate[date.yyyymmdd, default: 0] : -1,
            ])
            var unchanged = 0
            // Once the date's `limit`-th unchanged departure is read, nothing later can be listed.
            var latest = Int.max
            let (departureColumn, identity) = (DepartureColumns.shown.departure, DepartureColumns.identity)
            try transit.database.forEachRow(request) { row in
                let gtfsTime = row.int(departureColumn)
                guard realtime != nil else {
                    departures.append(Departure(feed: feed.name, row: row, serviceDate: date, gtfsTime: gtfsTime, instant: base + gtfsTime))
                    return
                }
                let stopTime = ScheduledStopTime(trip: row.int(identity.trip), sequence: row.int(identity.sequence), scheduled: base + gtfsTime)
                let change = takeChange(stopTime)
                if change == nil {
                    guard limit <= 0 || unchanged < limit else { return }
                    unchanged += 1
                    if unchanged == limit { latest = stopTime.scheduled }
                }
                if let departure = departure(row, date: date, gtfsTime: gtfsTime, stopTime: stopTime, change: change, latest: latest) {
                    departures.append(departure)
                }
            }
            guard let frequencyTemplate else { continue }
            // Runs start at start_time, start_time + headway, … before end_time; a stop is reached
            // its template offset after the run leaves the first stop.
            let f = DepartureColumns.frequency
            try transit.database.forEachRow(try frequencyTemplate.substituting(["date": date.yyyymmdd])) { row in
                let offset = row.int(departureColumn) - (row.optionalInt(f.firstDeparture) ?? row.int(departureColumn))
                let (periodStart, periodEnd, headway) = (row.int(f.start), row.int(f.end), row.int(f.headway))
                guard headway > 0 else { return }
                let firstRun = max(0, (from - offset - periodStart + headway - 1) / headway)
                var runStart = periodStart + firstRun * headway
                while runStart < periodEnd, runStart + offset <= to {
                    let gtfsTime = runStart + offset
                    if gtfsTime >= from, base + gtfsTime >= start, base + gtfsTime <= end,
                       case let stopTime = ScheduledStopTime(trip: row.int(f.trip), sequence: row.int(f.sequence), scheduled: base + gtfsTime),
                       let departure = departure(row, date: date, gtfsTime: gtfsTime, stopTime: stopTime, change: takeChange(stopTime)) {
                        departures.append(departure)
                    }
                    runStart += headway
                }
            }
        }
        if let realtime {
            // The changed stop times listed that no timetable row brought.
            let unseen = changes.compactMap { stopTime, change in change.delay.map { (stopTime: stopTime, delay: $0, date: change.date) } }
                .filter { $0.stopTime.scheduled + $0.delay >= start && $0.stopTime.scheduled + $0.delay <= end }
            var instants = departures.map(\.instant).sorted()
            for (stopTime, delay, yyyymmdd) in (movedIn + unseen).sorted(by: { $0.stopTime.scheduled + $0.delay < $1.stopTime.scheduled + $1.delay }) {
                // Once `limit` departures leave before it, neither it nor any later one is listed.
                if limit > 0, instants.count >= limit, instants[limit - 1] < stopTime.scheduled + delay { break }
                guard let date = ServiceDate(yyyymmdd: yyyymmdd) else { continue }
                let request = try realtime.stopTime.substituting(["trip": stopTime.trip, "sequence": stopTime.sequence, "date": yyyymmdd])
                try transit.database.forEachRow(request) { row in
                    let departure = Departure(feed: feed.name, row: row, serviceDate: date, gtfsTime: stopTime.scheduled - zone.noonMinusTwelveHours(date),
                                              instant: stopTime.scheduled + delay, delay: delay, isRealtime: true)
                    departures.append(departure)
                    instants.insert(departure.instant, at: instants.firstIndex { $0 > departure.instant } ?? instants.endIndex)
                }
            }
        }
        return departures
    }
}
