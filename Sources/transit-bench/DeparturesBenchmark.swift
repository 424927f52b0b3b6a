import FetchRequest
import GTFS

/// 2,000 seeded random `--near` queries (radius 500 m, 20-minute window, times of day 05:00–23:00 on
/// the feed's first service weeks), in process, in two SQL shapes:
/// - shipped: the exact nearby pass gives the boarding points, then an index range per stop on
///   `stop_times(stop, departure)`;
/// - the seed article's: stops in the bounding box that have `(SELECT COUNT(*) FROM stop_times …
///   departure in the window) > 0`, a correlated subquery per stop, then their departures.
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
        let shipped = try timeEach(queries) { query in
            var nearby = NearbyStopsQuery(latitude: query.lat, longitude: query.lon)
            nearby.radius = 500
            nearby.platforms = true
            nearby.limit = 0
            let keys = try nearby.run(on: transit).map(\.stop.key)
            return try DeparturesQuery(stopKeys: keys, start: query.instant, duration: 1200).run(on: transit).count
        }
        // The same questions with the stored realtime data applied.
        let applied = realtime.isEmpty ? nil : try timeEach(queries) { query in
            var nearby = NearbyStopsQuery(latitude: query.lat, longitude: query.lon)
            nearby.radius = 500
            nearby.platforms = true
            nearby.limit = 0
            var departures = DeparturesQuery(stopKeys: try nearby.run(on: transit).map(\.stop.key), start: query.instant, duration: 1200)
            departures.realtime = realtime.mapValues(\.window)
            return try departures.run(on: transit).count
        }
        let article = try timeEach(queries) { query in
            // The article's shape: the window test as a correlated COUNT per stop in the box.
            let box = Geo.boundingBox(latitude: query.lat, longitude: query.lon, radius: 500)
            let servedInWindow = SQLPredicate.count(of: Query(table: feed.tables.stopTimes, alias: "served")
                .filter(Column("stop", of: "served") == Column("id", of: "box"))
                .filter(Column("departure", of: "served").between(.variable("from"), and: .variable("to"))), .greater, 0)
            let stopsInBox = Query(table: "stops", alias: "box").select(Column("id", of: "box"))
                .filter(Column("stop_lon", of: "box").between(box.longitudes[0].lowerBound, and: box.longitudes[0].upperBound))
                .filter(Column("stop_lat", of: "box").between(box.latitudes.lowerBound, and: box.latitudes.upperBound))
                .filter(Column("location_type", of: "box") == 0)
                .filter(servedInWindow)
            let departures = DeparturesQuery(stopKeys: [0], start: query.instant, duration: 1200)
            return try departures.run(on: transit, feed: feed, request: departures.requestPerServiceDate(feed: feed.tables, stops: { $0.isIn(stopsInBox) }))
                .count
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
