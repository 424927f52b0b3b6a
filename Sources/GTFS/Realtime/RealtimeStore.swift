import FetchRequest

/// What a realtime read stored, for the summary `transit realtime` prints.
public struct RealtimeSummary: Sendable {
    public var feed: String
    public var sources: [RealtimeDataset.Source]
    public var tripUpdates = 0
    public var vehicles = 0
    public var alerts = 0
    /// Trip updates applied to a trip run of the feed (rule 1).
    public var matched = 0
    /// NEW (or ADDED) trips: not in the timetable, stored with their own times.
    public var added = 0
    /// Stop time updates of matched trips that match no stop time of the trip (rule 2): ignored,
    /// counted.
    public var stopTimeUpdatesUnmatched = 0
    /// Trip updates that name no trip of the feed, or a trip that does not run on the days
    /// rule 1 allows: counted, a few reported, never an error.
    public var unmatched = 0
    /// Up to five trip ids of unmatched trip updates, with why.
    public var unmatchedExamples: [String] = []
    /// The oldest header timestamp of the sources (what freshness is judged by), POSIX seconds.
    public var timestamp: Int? { sources.compactMap(\.timestamp).min() }
}

/// Stores a realtime dataset for one feed: every realtime row of that feed replaced in one write
/// transaction, each trip update matched to the run of a trip it applies to.
///
/// Rule 1: a TripUpdate applies to the run of `trip_id` on its `start_date`; without one, to the
/// run whose service date is, among the day of the message timestamp and the day before (in the
/// feed's zone), one on which the trip runs, and whose start (its first departure on that date) is
/// nearest to the timestamp. A trip run by `frequencies.txt` is matched by `start_date` and
/// `start_time` (the run starting then); without `start_time` it is unmatched.
public enum RealtimeStore {
    /// Stores `dataset` as the realtime data of the feed named `feedName` (nil: the database's only
    /// feed) in the database at `path`; `now` stands for the header timestamp when a message has none.
    public static func store(_ dataset: RealtimeDataset, feedNamed feedName: String?, databaseAt path: String, now: Int) throws -> RealtimeSummary {
        guard case .current = try DatabaseFile.inspect(path) else {
            _ = try TransitDatabase(path: path)  // throws the reason and what to run
            throw TransitError.notATransitDatabase(path: path, reason: "it is not of this version")
        }
        var summary: RealtimeSummary?
        try WriteTransaction.run(path: path) { database in
            let feeds = try database.fetch(Feed.byName)
            let feed: Feed
            if let feedName {
                guard let named = feeds.first(where: { $0.name == feedName }) else {
                    throw TransitError.unknownFeed(name: feedName, known: feeds.map(\.name))
                }
                feed = named
            } else {
                guard feeds.count == 1, let only = feeds.first else {
                    throw RealtimeError.whichFeed(known: feeds.map(\.name))
                }
                feed = only
            }
            try dropOlderRealtimeTables(in: database)
            for table in RealtimeSchema.tables { try database.execute(table.sqlIfNotExists) }
            for index in RealtimeSchema.indexes { try database.execute(index.sqlIfNotExists) }
            try removeRealtime(ofFeed: feed.key, from: database)
            var writer = Writer(database: database, feed: feed, now: now, timestamp: dataset.sources.compactMap(\.timestamp).min() ?? now)
            var result = RealtimeSummary(feed: feed.name, sources: dataset.sources)
            try writer.write(dataset, into: &result)
            summary = result
        }
        return summary!
    }

    /// A database that read realtime data with a development build whose realtime tables lack a
    /// column of these: realtime data is replaced at every read anyway, so the tables go (every
    /// feed's realtime data with them) and are made anew.
    static func dropOlderRealtimeTables(in database: Database) throws {
        let current = try RealtimeSchema.tables.allSatisfy { table in
            // Qualified names: SQLite would take an unknown bare "name" for a string.
            let probe = SQLGenerator.prepare(Query(table: table.name).select(table.columnNames.map { SelectedProperty(Column($0, of: table.name)) }).limited(to: 1))
            do {
                _ = try database.makeStatement(probe.sql)
                return true
            } catch let error as DatabaseError where error.isMissingTable {
                return true  // made below
            } catch is DatabaseError {
                return false
            }
        }
        if !current { for table in RealtimeSchema.tables { try database.execute(table.dropSQL) } }
    }

    /// Deletes every realtime row of feed `feed`: each realtime entity's rows as the feed's model
    /// scopes them (its feed's column, its stops' key range, or its parent rows'), the rows that
    /// belong to others first.
    static func removeRealtime(ofFeed feed: Int, from database: Database) throws {
        for entity in ["realtime_stop_time_updates", "realtime_stop_times", "realtime_added_departures", "realtime_trip_updates",
                       "realtime_vehicles", "realtime_alert_texts", "realtime_alert_periods", "realtime_alert_entities", "realtime_alerts",
                       "realtime_sources", "realtime_feeds"] {
            try database.run(TransitModel.deleteRows(of: entity, feedKey: feed))
        }
    }
}

/// The lookups of one store, written over the feed's model and prepared once (the statement cache
/// keeps each compiled): each runs per trip update, vehicle or stop time update with its values
/// bound to the template's variables. Every one is an index search on a key or a unique id.
struct RealtimeLookups {
    /// A lookup's SQL and where its rows hold each column, found by name once: a name looked up
    /// per row costs a hash and a string comparison per value, tens of thousands per read.
    struct Lookup<Position> {
        let request: PreparedRequest
        /// Where the rows hold the columns read.
        let position: Position

        init(_ query: Query, position: (Query) -> Position) {
            request = SQLGenerator.prepare(query)
            self.position = position(query)
        }
    }

    /// The trip `$trip_id`: its key and service.
    ///
    ///     SELECT "trips"."id", "trips"."service" FROM "trips" WHERE "trips"."id" BETWEEN ? AND ? AND "trips"."trip_id" = ?
    let trip: Lookup<(key: Int, service: Int)>
    /// The key of the stop `$stop_id`.
    let stop: Lookup<Int>
    /// The key of the route `$route_id`.
    let route: Lookup<Int>
    /// The `stop_name` of the stop keyed `$id`.
    let stopName: Lookup<Int>
    /// Which of the dates `$date0`, `$date1` service `$service` runs on.
    let serviceDays: Lookup<Int>
    /// How many frequency periods trip `$trip` has (one row, the count).
    let frequencyCount: PreparedRequest
    /// The first departure of trip `$trip`, by stop_sequence.
    let firstDeparture: Lookup<Int>
    /// The stop times of trip `$trip` in stop_sequence order.
    let stopTimesOfTrip: Lookup<(sequence: Int, stop: Int, arrival: Int, departure: Int)>

    init(feed: Feed) throws {
        /// A fetch of `entity` of one row by a unique key: no order needed.
        func lookup(_ entity: String) -> ModelFetch {
            TransitModel.fetch(entity, feedKey: feed.key)
        }
        var trips = lookup("trips")
        trips.filter(trips.required("trip_id") == .variable("trip_id"))
        let (tripKey, tripService) = (trips.entity.keyColumn, trips.keyColumnPath(of: "service"))
        trip = Lookup(try trips.query(selecting: [], columns: [tripKey, tripService]).query) {
            (key: $0.position(of: tripKey), service: $0.position(of: tripService))
        }
        var stops = lookup("stops")
        stops.filter(stops.required("stop_id") == .variable("stop_id"))
        stop = try Lookup(keyOf: stops)
        var routes = lookup("routes")
        routes.filter(routes.required("route_id") == .variable("route_id"))
        route = try Lookup(keyOf: routes)
        var names = lookup("stops")
        names.filter(names.key == .variable("id"))
        stopName = try Lookup(names, selecting: "stop_name")
        var days = lookup("service_days")
        days.filter(days.key(of: "service") == .variable("service") && days.required("date").isIn(variablesNamed: "date", count: 2))
        serviceDays = try Lookup(days, selecting: "date")
        var periods = lookup("frequencies")
        periods.filter(periods.key(of: "trip") == .variable("trip"))
        frequencyCount = SQLGenerator.prepareCount(try periods.query())
        var first = lookup("stop_times")
        first.filter(first.key(of: "trip") == .variable("trip"))
        try first.filter(format: "departure_time != nil")
        try first.sort(by: "stop_sequence")
        first.limit = 1
        firstDeparture = try Lookup(first, selecting: "departure_time")
        // In the entity's natural order: trip, then stop_sequence.
        var calls = TransitModel.fetch("stop_times", feedKey: feed.key, inNaturalOrder: true)
        calls.filter(calls.key(of: "trip") == .variable("trip"))
        let read = (sequence: "stop_sequence", arrival: "arrival_time", departure: "departure_time", stop: calls.keyColumnPath(of: "stop"))
        stopTimesOfTrip = Lookup(try calls.query(selecting: [read.sequence, read.arrival, read.departure], columns: [read.stop]).query) {
            (sequence: $0.position(of: read.sequence), stop: $0.position(of: read.stop), arrival: $0.position(of: read.arrival),
             departure: $0.position(of: read.departure))
        }
    }
}

extension RealtimeLookups.Lookup<Int> {
    /// A lookup of one value: the key path `keyPath` of the rows `fetch` finds.
    init(_ fetch: ModelFetch, selecting keyPath: String) throws {
        self.init(try fetch.query(selecting: [keyPath]).query) { $0.position(of: keyPath) }
    }

    /// A lookup of the key of the rows `fetch` finds (`trips.id`).
    init(keyOf fetch: ModelFetch) throws {
        let key = fetch.entity.keyColumn
        self.init(try fetch.query(selecting: [], columns: [key]).query) { $0.position(of: key) }
    }
}

/// A realtime read that cannot go on, said in one line.
public enum RealtimeError: Error, CustomStringConvertible, Equatable {
    /// Several feeds and no `--feed`.
    case whichFeed(known: [String])

    public var description: String {
        switch self {
        case .whichFeed(let known):
            return known.isEmpty
                ? "the database holds no feeds: import the timetable the realtime data belongs to first (transit import FEED)"
                : "the database holds several feeds (\(known.joined(separator: ", "))): say which one the realtime data belongs to with --feed NAME"
        }
    }
}
