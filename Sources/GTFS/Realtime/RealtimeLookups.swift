import FetchRequest

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
