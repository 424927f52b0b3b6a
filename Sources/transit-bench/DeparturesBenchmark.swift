import FetchRequest
import GTFS

/// 2,000 seeded random `--near` queries (radius 500 m, 20-minute window, times of day 05:00–23:00 on
/// the feed's first service weeks), in process, in two SQL shapes:
/// - shipped: the exact nearby pass gives the boarding points, then an index range per stop on
///   `stop_times(stop, departure)`;
/// - the seed article's design, a fixed reference (`ArticleDepartures`): stops in the bounding box
///   that have `(SELECT COUNT(*) FROM stop_times … departure in the window) > 0`, a correlated
///   subquery per stop, then one query per service date with the joins, the sort and the limit.
///   It is written out here, not borrowed from the shipped requests, so that a change to those
///   shows as a change of the ratio.
enum DeparturesBenchmark {
    static func run(database path: String, count: Int, seed: UInt64) throws {
        let transit = try TransitDatabase(path: path)
        var generator = SeededGenerator(seed: seed)
        var stops: [(Double, Double)] = []
        try transit.database.forEachRow(SQLGenerator.prepare(
            Query(table: "stops").select(Column("stop_lat"), Column("stop_lon")).filter(Column("location_type") == 0).filter(try sampledStops(transit)))) {
            stops.append(($0.double(0), $0.double(1)))
        }
        let feed = transit.feeds.first { $0.name == sampledFeed } ?? transit.feeds[0]
        var firstDate = 0
        try transit.database.forEachRow(SQLGenerator.prepare(Query(table: "calendar").select([SelectedProperty(Column("start_date").min)])
            .filter(Column("service").between(feed.keys.lowerBound, and: feed.keys.upperBound)))) {
            firstDate = $0.int(0)
        }
        let start = ServiceDate(yyyymmdd: firstDate)!
        // With realtime data stored (scripts/bench-realtime.sh makes such a database), every
        // question is asked on the day of its messages, where the trip updates apply.
        let realtime = try transit.realtimeFeeds()
        let realtimeDay = realtime[feed.key]?.timestamp.map { feed.timeZone.localTime(of: $0).date }
        let queries: [(lat: Double, lon: Double, instant: Int)] = (0..<count).map { _ in
            let (lat, lon) = stops[Int.random(in: 0..<stops.count, using: &generator)]
            let day = start.adding(days: Int.random(in: 7..<35, using: &generator))
            let date = realtimeDay ?? day
            let minute = Int.random(in: (5 * 60)...(23 * 60), using: &generator)
            let instant = feed.timeZone.instant(ofLocal: date, hour: minute / 60, minute: minute % 60, second: 0)
            return (lat + Double.random(in: -0.002...0.002, using: &generator), lon + Double.random(in: -0.003...0.003, using: &generator), instant)
        }
        // The shipped query and the article's, timed in turn question by question (`timePairs`).
        let (shipped, article) = try timePairs(queries, { query in
            var nearby = NearbyStopsQuery(latitude: query.lat, longitude: query.lon)
            nearby.radius = 500
            nearby.platforms = true
            let keys = try nearby.keysWithinRadius(on: transit)
            return try DeparturesQuery(stopKeys: keys, start: query.instant, duration: 1200).run(on: transit).count
        }, { query in
            try ArticleDepartures.run(on: transit, feed: feed, latitude: query.lat, longitude: query.lon, radius: 500,
                                      start: query.instant, duration: 1200).count
        })
        // The same questions with the stored realtime data applied.
        let applied = realtime.isEmpty ? nil : try timeEach(queries) { query in
            var nearby = NearbyStopsQuery(latitude: query.lat, longitude: query.lon)
            nearby.radius = 500
            nearby.platforms = true
            var departures = DeparturesQuery(stopKeys: try nearby.keysWithinRadius(on: transit), start: query.instant, duration: 1200)
            departures.realtime = realtime.mapValues(\.window)
            return try departures.run(on: transit).count
        }
        print("departures --near, radius 500 m, 20-minute window, \(count) seeded random queries 05:00-23:00:")
        report("  shipped: nearby pass + range per stop", shipped)
        report("  article: correlated COUNT per stop in box", article)
        if let applied {
            report("  shipped, stored realtime applied", applied)
            print("  ratio realtime / timetable: " + String((median(applied.micros) / median(shipped.micros) * 100).rounded() / 100))
        }
        print("  ratio shipped / article: " + String((median(shipped.micros) / median(article.micros) * 100).rounded() / 100))
    }
}

/// The seed article's departures, kept as they were written so that the benchmark compares the
/// shipped code with one design that does not change: the stops in the bounding box that have a
/// stop time in the window, by a correlated `(SELECT COUNT(*) …) > 0` per stop, then, for each
/// service date that can reach the window, one query with every join, the sort and the limit
/// (the shape `DeparturesQuery` shipped before its two steps):
///
///     SELECT "stop_times.stop"."stop_id", …, COALESCE("stop_times"."stop_headsign", "stop_times.trip"."trip_headsign",
///       (SELECT "stop_times.trip.last_stop"."stop_name" FROM "stops" AS "stop_times.trip.last_stop" WHERE …)) AS "headsign", …
///     FROM "stop_times_1" AS "stop_times" JOIN "trips" AS "stop_times.trip" ON … JOIN "stops" AS "stop_times.stop" ON …
///       JOIN "routes" AS "stop_times.trip.route" ON …
///     WHERE "stop_times.trip"."service" IN (SELECT "service_days"."service" FROM "service_days_1" AS "service_days" WHERE "service_days"."date" = ?)
///       AND "stop_times"."pickup_type" IS NOT ? AND "stop_times"."stop_sequence" < "stop_times.trip"."last_stop_sequence"
///       AND "stop_times"."stop" IN (SELECT "box"."id" FROM "stops" AS "box" WHERE … AND (SELECT COUNT(*) …) > ?)
///       AND "stop_times"."departure" BETWEEN ? AND ?
///     ORDER BY "stop_times"."departure", "stop_times.stop"."stop_id", "stop_times.trip"."trip_id" LIMIT ?
///
/// Frequency-based trips are not set apart (the large feed has none).
enum ArticleDepartures {
    /// One departure as the article lists it.
    struct Departure {
        let stopID: String, stopName: String, platformCode: String?, tripID: String, routeID: String, route: String, headsign: String
        let instant: Int, latitude: Double?, longitude: Double?
    }

    /// The departures from the stops in the box around the point in [`start`, `start + duration`],
    /// at most 20, by instant, `stop_id` and `trip_id`.
    static func run(on transit: TransitDatabase, feed: Feed, latitude: Double, longitude: Double, radius: Double,
                    start: Int, duration: Int) throws -> [Departure] {
        let box = Geo.boundingBox(latitude: latitude, longitude: longitude, radius: radius)
        let servedInWindow = SQLPredicate.count(of: Query(table: feed.tables.stopTimes, alias: "served")
            .filter(Column("stop", of: "served") == Column("id", of: "box"))
            .filter(Column("departure", of: "served").between(.variable("from"), and: .variable("to"))), .greater, 0)
        let stopsInBox = Query(table: "stops", alias: "box").select(Column("id", of: "box"))
            .filter(Column("stop_lon", of: "box").between(box.longitudes[0].lowerBound, and: box.longitudes[0].upperBound))
            .filter(Column("stop_lat", of: "box").between(box.latitudes.lowerBound, and: box.latitudes.upperBound))
            .filter(Column("location_type", of: "box") == 0)
            .filter(servedInWindow)
        let query = try departuresQuery(feed: feed, stops: stopsInBox)
        let template = SQLGenerator.prepare(query)
        let at = { (name: String) in query.position(of: name) }
        let (stopID, stopName, platformCode, tripID, routeID, route, headsign, departure, stopLatitude, stopLongitude) =
            (at("stop_id"), at("stop_name"), at("platform_code"), at("trip_id"), at("route_id"), at("route"), at("headsign"),
             at("departure"), at("stop_lat"), at("stop_lon"))
        var departures: [Departure] = []
        for (date, base, from, to) in DeparturesQuery(stopKeys: [], start: start, duration: duration).serviceDates(of: feed) {
            try transit.database.forEachRow(try template.substituting(["date": date.yyyymmdd, "from": from, "to": to, "limit": 20])) { row in
                departures.append(Departure(stopID: row.string(stopID), stopName: row.string(stopName), platformCode: row.optionalString(platformCode),
                                            tripID: row.string(tripID), routeID: row.string(routeID), route: row.string(route),
                                            headsign: row.string(headsign), instant: base + row.int(departure),
                                            latitude: row.optionalDouble(stopLatitude), longitude: row.optionalDouble(stopLongitude)))
            }
        }
        departures.sort {
            if $0.instant != $1.instant { return $0.instant < $1.instant }
            if $0.stopID != $1.stopID { return $0.stopID.utf8.lexicographicallyPrecedes($1.stopID.utf8) }
            return $0.tripID.utf8.lexicographicallyPrecedes($1.tripID.utf8)
        }
        return Array(departures.prefix(20))
    }

    /// One service date's departures from `stops` (a query selecting stop keys): `$date`,
    /// `$from`, `$to` (GTFS seconds) and `$limit` are bound per date. Built through the model,
    /// once per question, as the shipped request was when this reference was taken.
    static func departuresQuery(feed: Feed, stops: Query) throws -> Query {
        let model = TransitModel.model(forFeedKey: feed.key)
        guard var fetch = ModelFetch(entity: "stop_times", in: model), var runningServices = ModelFetch(entity: "service_days", in: model) else {
            preconditionFailure("the transit model has no stop_times or service_days")
        }
        fetch.breaksTiesByNaturalOrder = false
        runningServices.breaksTiesByNaturalOrder = false
        runningServices.filter(try runningServices.value("date") == SQLExpression.variable("date"))
        runningServices.select(runningServices.column("service"), as: "service")
        fetch.filter(try fetch.column(at: "trip.service").isIn(try runningServices.query()))
        fetch.filter(try fetch.value("pickup_type").isNot(1))
        fetch.filter(try fetch.value("stop_sequence") < (try fetch.column(at: "trip.last_stop_sequence")))
        fetch.filter(fetch.column("stop").isIn(stops))
        let columns: [(String, SQLExpression)] = [
            ("stop_id", try fetch.value("stop.stop_id")), ("stop_name", try fetch.value("stop.stop_name")),
            ("platform_code", try fetch.value("stop.platform_code")), ("trip_id", try fetch.value("trip.trip_id")),
            ("route_id", try fetch.value("trip.route.route_id")),
            ("route", .coalesce([try fetch.value("trip.route.route_short_name"), try fetch.value("trip.route.route_long_name")])),
            ("headsign", .coalesce([try fetch.value("stop_headsign"), try fetch.value("trip.trip_headsign"),
                                    try fetch.faultedValue("trip.last_stop.stop_name")])),
            ("departure", try fetch.value("departure_time")), ("stop_lat", try fetch.value("stop.stop_lat")),
            ("stop_lon", try fetch.value("stop.stop_lon")),
        ]
        for (name, value) in columns { fetch.select(value, as: name) }
        let departure = try fetch.value("departure_time")
        fetch.filter(departure.between(.variable("from"), and: .variable("to")))
        fetch.sort(by: [departure.ascending, try fetch.value("stop.stop_id").ascending, try fetch.value("trip.trip_id").ascending])
        fetch.limitVariable = "limit"
        return try fetch.query()
    }
}
